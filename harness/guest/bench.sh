#!/bin/sh
# Guest side of "make bench": interleaved rounds (A B C ... A B C ...) of
# every measurement; raw lines go to OUT/bench.raw for
# harness/bench-report.pl.
out=$1
MT=/sys/kernel/debug/migration_trace
MS=/sys/kernel/debug/migration_stat
TR=/sys/kernel/tracing
EV=$TR/events/sched/sched_migrate_task/enable
# The event with the why, fired by the hook itself.
EVR=$TR/events/sched/sched_migrate_reason/enable
H=/guest/mt_helper
ROUNDS=${MT_BENCH_ROUNDS:-10}
N=10000		# hook calls per per-event run
K=1000		# affinity round trips per process
PP=2000		# ping-pong round trips

STREAM=${MT_BENCH_STREAM:-60}	# seconds of the streaming runs
# "events": the per-event costs only (section 1), for a quick look at a
# change of the hook (APPEND="MT_BENCH_PARTS=events MT_BENCH_ROUNDS=20").
PARTS=${MT_BENCH_PARTS:-all}

quiet() {
	[ -n "${reader:-}" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
	reader=
	echo 0 >$MT/enable; echo 0 >$MT/reset; echo 0 >$MT/overwrite; echo 1024 >$MT/buffer_size_kb
	echo all >$MT/filter
	[ -e $MT/set_event_pid ] && echo >$MT/set_event_pid
	for i in mt_bench mt_bench2; do
		[ -d $MT/instances/$i ] || continue
		echo 0 >$MT/instances/$i/enable; rmdir $MT/instances/$i
	done
	echo 0 >$MS/enable; echo 0 >$MS/reset
	echo 0 >$EV; echo 0 >$EVR; echo 0 >$TR/tracing_on; echo >$TR/trace
}

# The hook's calls go only into a trace or statistics that the bench file
# started itself ("start mt|mstat|both", from a reset state): the bench
# refuses a user's.  The workloads' runs start theirs the same way.
setup() {
	quiet
	case $1 in
	mt) echo "start mt" >$MT/bench ;;
	# A reader draining trace_pipe while the hook runs.
	mtpipe) cat $MT/trace_pipe >/dev/null & reader=$!
		echo "start mt" >$MT/bench ;;
	# The flight recorder, small enough to recycle chunks all along.
	mtflight) echo 1 >$MT/overwrite; echo 64 >$MT/buffer_size_kb
		echo "start mt" >$MT/bench ;;
	# A filter that leaves every move out.
	mtreject) echo 0 >$MT/filter; echo "start mt" >$MT/bench ;;
	# A pid filter that selects the moving task, this shell (the hook
	# moves the writer of the bench file): the filtered path, recording.
	mtpid) echo $$ >$MT/set_event_pid; echo "start mt" >$MT/bench ;;
	# An instance beside the top trace: two traces record each move,
	# on the hooks' out-of-line path, with one clock read.
	mt2) mkdir $MT/instances/mt_bench; echo 1 >$MT/instances/mt_bench/enable
		echo "start mt" >$MT/bench ;;
	# An instance alone, the top trace off; two instances.
	mtinst) mkdir $MT/instances/mt_bench; echo 1 >$MT/instances/mt_bench/enable ;;
	mtinst2) for i in mt_bench mt_bench2; do
			mkdir $MT/instances/$i; echo 1 >$MT/instances/$i/enable
		done ;;
	mstat) echo "start mstat" >$MT/bench ;;
	both) echo "start both" >$MT/bench ;;
	ftrace) echo 1 >$EV; echo 1 >$TR/tracing_on ;;
	# sched_migrate_reason recorded by ftrace, no reader: the hook with
	# mt and mstat off fires the event alone.
	evftrace) echo 1 >$EVR; echo 1 >$TR/tracing_on ;;
	esac
}

# The peers (make bench's section 7): perf, trace-cmd and bpftrace from
# the bench initramfs, each attached once a round as its documentation
# shows.  With the tool attached: the per-event calls, fired by a shell
# pinned to CPU 1 (each moves that shell's pid from CPU 1 to 0), then the
# two workloads; stopped, the tool must have received every call: the
# events of that pid (bpftrace's count: its pair 1 -> 0 in the map it
# prints on SIGUSR1 right after the calls).  rperf records the event
# sched_migrate_reason, which the hook fires: its calls are "hook-event"
# ones (a plain "hook" refuses to feed the event's consumers).
. /guest/peers-lib.sh
# MT_BENCH_PEERS= (empty) leaves the peers out, for a quick look at the
# hook alone (APPEND="MT_BENCH_PARTS=events MT_BENCH_PEERS=").
PEER_LIST=${MT_BENCH_PEERS-"tracecmd perf btcount btprint rperf"}
CAP_LIST="tracecmd perf btcount btprint"
peer_round() {
	quiet
	t0=$(date +%s)
	peer_start "$1" || { echo "peer $1 attach-failed"; return; }
	t1=$(date +%s)
	fire=tracepoint
	[ "$1" = rperf ] && fire=hook-event
	# shellcheck disable=SC2046
	set -- "$1" $(taskset 2 sh -c "echo \$\$; echo '$fire 1000' >$MT/bench
		echo '$fire $N' >$MT/bench; cut -d' ' -f3 $MT/bench")
	echo "event $1 $3 $N"
	if [ "$1" = btcount ]; then
		kill -USR1 "$peer_pid"
		i=0
		until grep -q '^@\[1, 0\]' "$PEERS/btcount.out" || [ $i -ge 600 ]; do
			usleep 100000; i=$((i + 1))
		done
		got=$(peer_pairs | awk '$1 == 1 && $2 == 0 { print $3; exit }')
	fi
	if [ "$PARTS" != events ]; then
		$H bench-affinity 50 2 >/dev/null
		echo "work affinity $1 $($H bench-affinity $K 2)"
		$H bench-pingpong 100 >/dev/null
		echo "work pingpong $1 $($H bench-pingpong $PP)"
	fi
	peer_stop "$1"
	[ "$1" = btcount ] ||
		got=$(peer_events "$1" | awk -v s="$2" '$1 == s && $2 == 1 && $3 == 0' | wc -l)
	# peer NAME FIRED RECEIVED LOST SECONDS-TO-ATTACH
	echo "peer $1 $((N + 1000)) ${got:-0} $(peer_lost "$1") $((t1 - t0))"
}

[ -w $MT/bench ] || { echo "no $MT/bench: kernel without CONFIG_SNSC_LITE_MIGRATION_BENCH"; exit 1; }
echo 4096 >$TR/buffer_size_kb
{
echo "info kernel $(uname -r) cpus $(nproc) rounds $ROUNDS calls $N"
for r in $(seq "$ROUNDS"); do
	for v in mt mtpipe mtflight mtreject mtpid mt2 mtinst mtinst2 mstat off ftrace evftrace clock \
			empty; do
		setup $v
		case $v in
		ftrace) what=tracepoint ;;
		evftrace) what=hook-event ;;
		clock|empty) what=$v ;;
		*) what=hook ;;
		esac
		# Untimed first: under TCG, code patched by a static key
		# is translated again the first time it runs.
		echo "$what 1000" >$MT/bench
		echo "$what $N" >$MT/bench
		echo "event $v $(cut -d' ' -f3 $MT/bench) $N"
	done
	for v in $PEER_LIST; do
		peer_round $v
	done
	[ "$PARTS" = events ] && continue
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
	# Bytes of migration records: what the buffers used (chunk headers
	# included) minus the other records in them: 32 bytes for a fork or
	# a rename, 24 for a mark.  Start clocks and the task list are not
	# in the buffers.
	awk '/^# buffer_used / { used = $3; next }
	     /^# loc / { loc[$4] = $3; next } /^#/ { next }
	     $3 != "." { m++; next }
	     $6 == loc["copy_process"] || $6 == loc["set_task_comm"] { used -= 32; next }
	     $6 == loc["mark"] { used -= 24 }
	     END { if (m) printf "size mt %.3f %d\n", used / m, m }' /tmp/bench.trace
	awk '/^entries:/ { e += $2 } /^bytes:/ { b += $2 } /^overrun:/ { o += $2 }
	     END { if (e) printf "size ftrace %.3f %d %d\n", b / e, e, o }' $TR/per_cpu/cpu*/stats
done
quiet
[ "$PARTS" = events ] && exit 0

# Streaming: an affinity storm with a reader of trace_pipe the whole time
# (migrate_record, 64 KiB buffers: nothing may be lost), then the same
# storm read by cat from ftrace's trace_pipe.  The reader's CPU time per
# event comes from /proc/PID/stat (user + system ticks).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
$H storm 2 2 >/dev/null
/guest/migrate_record -q -o /dev/null --size 64 -- sh -c \
	"$H storm $STREAM 2 >/tmp/storm.n; sleep 1; echo \$(awk '{ print \$14 + \$15 }' /proc/\$(pidof cat)/stat) >/tmp/reader.ticks" \
	2>/tmp/record.err
echo "stream mt $(cat /tmp/storm.n) $(cat /tmp/reader.ticks) $(sed -n 's/.*: \([0-9]*\) events to .*(dropped \([0-9]*\), overwritten \([0-9]*\))$/\1 \2 \3/p' /tmp/record.err)"
setup ftrace
cat $TR/trace_pipe >/dev/null &
r=$!
n=$($H storm $STREAM 2)
sleep 1
t=$(ticks $r)
echo 0 >$TR/tracing_on
kill $r; wait $r 2>/dev/null
e=$(awk '/^read events:/ { e += $3 } /^overrun:/ { o += $2 } END { print e + 0, o + 0 }' $TR/per_cpu/cpu*/stats)
echo "stream ftrace $n $t $e"
quiet

# What each tool tells, checked once (section 8): every peer attached at
# once, then a reference ftrace instance and mt around a workload
# of forks (fork placement: wake_up_new_task, no tracepoint), an affinity
# hop between two marks and a trace_marker line;
# the workload's tasks are the user tasks mt saw created in the window.
R=$TR/instances/peers-ref
mkdir -p $R
echo 8192 >$R/buffer_size_kb
for v in $CAP_LIST; do peer_start $v || echo "cap $v attach-failed"; done
echo 1 >$R/events/sched/sched_migrate_task/enable
echo 1 >$MT/enable
$H forkexec 30 /bin/true
$H affinity 40 1 0 0 0x3001 0x3002 >/dev/null
echo peers-mark >$TR/trace_marker
echo 0 >$MT/enable
echo 0 >$R/events/sched/sched_migrate_task/enable
for v in $CAP_LIST; do peer_stop $v; done
cat $MT/trace >/tmp/cap.trace
cat $R/trace >/tmp/cap.ftrace
ftlost=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' $R/per_cpu/cpu*/stats)
# The window's user tasks, and mt's moves of them other than fork placement.
awk '/^# loc / { loc[$4] = $3; next } /^# cause / { cause[$3] = $4; next } /^#/ { next }
     $3 == "." && $6 == loc["copy_process"] && $7 != "kthreadd" { print $5 > "/tmp/cap.pids"; next }
     $3 != "." { print $5, $3, $4, cause[$6] }' /tmp/cap.trace >/tmp/cap.mtall
awk 'NR == FNR { w[$1] = 1; next } ($1 in w)' /tmp/cap.pids /tmp/cap.mtall >/tmp/cap.mtw
forks=$(awk '$4 == "wake_up_new_task"' /tmp/cap.mtw | wc -l)
awk '$4 != "wake_up_new_task" { print $1, $2, $3 }' /tmp/cap.mtw | sort -s -n -k1,1 >/tmp/cap.mt
# A tool's moves of those tasks (the tracepoint also fires for a task
# set on the CPU it is on: no move), in its order task by task.
moves() { awk 'NR == FNR { w[$1] = 1; next } ($1 in w) && $2 != $3' /tmp/cap.pids - | sort -s -n -k1,1; }
peer_events ftrace /tmp/cap.ftrace | moves >/tmp/cap.ref
sort /tmp/cap.ref >/tmp/cap.ref.sorted
# cap NAME MOVES SAME-AS-FTRACE SAME-ORDER LOST
echo "cap ftrace $(wc -l </tmp/cap.ref) 1 1 $ftlost"
cmp -s /tmp/cap.mt /tmp/cap.ref && same=1 || same=0
echo "cap mt $(wc -l </tmp/cap.mt) $same $same $(sed -n 's/^# dropped //p' /tmp/cap.trace)"
for v in tracecmd perf btprint; do
	peer_events $v | moves >/tmp/cap.$v
	sort /tmp/cap.$v | cmp -s - /tmp/cap.ref.sorted && set=1 || set=0
	cmp -s /tmp/cap.$v /tmp/cap.ref && order=1 || order=0
	echo "cap $v $(wc -l </tmp/cap.$v) $set $order $(peer_lost $v)"
done
# bpftrace's count has CPU pairs, no pid: each pair of the window's
# moves must be counted at least as often as ftrace saw it.
awk '{ n[$2 " " $3]++ } END { for (k in n) print k, n[k] }' /tmp/cap.ref >/tmp/cap.refpairs
peer_pairs >/tmp/cap.pairs
covered=$(awk 'NR == FNR { c[$1 " " $2] = $3; next } c[$1 " " $2] < $3 { bad++ }
	END { print bad ? 0 : 1 }' /tmp/cap.pairs /tmp/cap.refpairs)
echo "cap btcount $(awk '{ n += $3 } END { print n + 0 }' /tmp/cap.pairs) $covered 0 0"
# cap-fork MT-FORK-PLACEMENTS; cap-marks MT-MARKS TRACE-CMD-PRINTS
echo "cap-fork $forks"
echo "cap-marks $(awk '/^# loc / && $4 == "mark" { m = $3 } !/^#/ && $3 == "." && $6 == m' /tmp/cap.trace | wc -l) $(trace-cmd report -i "$PEERS/tracecmd.dat" 2>/dev/null | grep -c peers-mark)"
quiet
} >"$out/bench.raw" 2>&1
