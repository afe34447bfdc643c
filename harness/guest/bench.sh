#!/bin/sh
# Guest side of "make bench": interleaved rounds (A B C ... A B C ...) of
# every measurement; raw lines go to OUT/bench.raw for
# harness/bench-report.pl.
out=$1
MT=/sys/kernel/debug/migration_trace
MS=/sys/kernel/debug/migration_stat
TR=/sys/kernel/tracing
EV=$TR/events/sched/sched_migrate_task/enable
H=/guest/mt_helper
ROUNDS=${MT_BENCH_ROUNDS:-10}
N=10000		# hook calls per per-event run
K=1000		# affinity round trips per process
PP=2000		# ping-pong round trips

quiet() {
	echo 0 >$MT/enable; echo 0 >$MT/reset
	echo 0 >$MS/enable; echo 0 >$MS/reset
	echo 0 >$EV; echo 0 >$TR/tracing_on; echo >$TR/trace
}

setup() {
	quiet
	case $1 in
	mt) echo 1 >$MT/enable ;;
	mstat) echo 1 >$MS/enable ;;
	both) echo 1 >$MT/enable; echo 1 >$MS/enable ;;
	ftrace) echo 1 >$EV; echo 1 >$TR/tracing_on ;;
	esac
}

[ -w $MT/bench ] || { echo "no $MT/bench: kernel without CONFIG_SNSC_LITE_MIGRATION_BENCH"; exit 1; }
echo 4096 >$TR/buffer_size_kb
{
echo "info kernel $(uname -r) cpus $(nproc) rounds $ROUNDS calls $N"
for r in $(seq "$ROUNDS"); do
	for v in mt mstat off ftrace empty; do
		setup $v
		case $v in
		ftrace) what=tracepoint ;;
		empty) what=empty ;;
		*) what=hook ;;
		esac
		# Untimed first: under TCG, code patched by a static key
		# is translated again the first time it runs.
		echo "$what 1000" >$MT/bench
		echo "$what $N" >$MT/bench
		echo "event $v $(cut -d' ' -f3 $MT/bench) $N"
	done
	for cfg in none mt mstat both ftrace; do
		setup $cfg
		$H bench-affinity 50 2 >/dev/null	# warm-up, as above
		echo "work affinity $cfg $($H bench-affinity $K 2)"
		setup $cfg
		$H bench-pingpong 100 >/dev/null
		echo "work pingpong $cfg $($H bench-pingpong $PP)"
	done
	# Record size and read-out: mt and the ftrace event over one run.
	setup none
	echo 1 >$MT/enable; echo 1 >$EV; echo 1 >$TR/tracing_on
	$H bench-affinity $K 2 >/dev/null
	echo 0 >$MT/enable; echo 0 >$TR/tracing_on
	echo "read mt $($H read-time $MT/trace)"
	echo "read ftrace $($H read-time $TR/trace)"
	cat $MT/trace >/tmp/bench.trace
	# Bytes of migration records: what the buffer used minus the other
	# records (32 bytes for names and start clocks, 24 for marks).
	awk '/^# buffer_used / { used = $3; next } /^#/ { next }
	     $3 != "." { m++; next } $7 == ":" || $6 == "start_sched_clock" { used -= 32; next }
	     { used -= 24 }
	     END { if (m) printf "size mt %.3f %d\n", used / m, m }' /tmp/bench.trace
	awk '/^entries:/ { e += $2 } /^bytes:/ { b += $2 } /^overrun:/ { o += $2 }
	     END { if (e) printf "size ftrace %.3f %d %d\n", b / e, e, o }' $TR/per_cpu/cpu*/stats
done
quiet
} >"$out/bench.raw" 2>&1
