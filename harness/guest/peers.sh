#!/bin/sh
# Guest side of make check's peers job (t/25-guest-peers.t): the bench
# initramfs carries working perf, trace-cmd and bpftrace.  Each runs once,
# attached as make bench attaches it, while a shell pinned to CPU 1 fires
# N sched_migrate_task events through migration_trace/bench; each must
# have received all N (bpftrace's count, by CPU pair: at least N from 1
# to 0).  Then the trace event sched_migrate_reason, read by every tool
# at once beside mt over a real workload (peers-why.sh).  KTAP in
# OUT/peers.tap.
. /guest/peers-lib.sh
. /guest/peers-why.sh
out=$1
MT=/sys/kernel/debug/migration_trace
N=2000
{
echo "KTAP version 1"
echo "1..$((5 + WHY_TESTS))"
ver="$(perf --version 2>&1) / $(trace-cmd --version 2>&1 | grep -m1 version) / $(bpftrace --version 2>&1)"
case $ver in
*"perf version"*"trace-cmd version"*bpftrace*) echo "ok 1 - versions: $ver" ;;
*) echo "not ok 1 - versions: $ver" ;;
esac
n=1
for p in tracecmd perf btcount btprint; do
	n=$((n + 1))
	t0=$(date +%s)
	# Once in five runs, Debian's perf 6.1 did not attach and printed
	# nothing: a second attempt tells a peer's rare failure from a
	# harness that cannot attach it (the first one's state is printed).
	tries=1
	if ! peer_start $p; then
		echo "# $p: the first attempt did not attach (above); once more"
		tries=2
		t0=$(date +%s)
		if ! peer_start $p; then
			echo "not ok $n - $p: did not attach, twice"
			continue
		fi
	fi
	t1=$(date +%s)
	s=$(taskset 2 sh -c "echo \$\$; echo 'tracepoint $N' >$MT/bench")
	peer_stop $p
	if [ $p = btcount ]; then
		got=$(peer_pairs | awk '$1 == 1 && $2 == 0 { n = $3 } END { print n }')
		[ "${got:-0}" -ge $N ] && r=ok || r="not ok"
		what="@[1, 0] = ${got:-none} >= $N"
	else
		got=$(peer_events $p | awk -v s="$s" '$1 == s && $2 == 1 && $3 == 0' | wc -l)
		[ "$got" -eq $N ] && r=ok || r="not ok"
		what="$got of $N events of pid $s from CPU 1 to 0"
	fi
	echo "$r $n - $p: $what (attached in $((t1 - t0)) s, attempt $tries, lost $(peer_lost $p))"
	[ "$r" = ok ] || grep -v '^comm=' "$PEERS/$p.out" | sed 's/^/# /' | tail -20
done
why_tests 6
} >"$out/peers.tap" 2>&1
