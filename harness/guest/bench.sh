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

STREAM=${MT_BENCH_STREAM:-60}	# seconds of the streaming runs
# "events": the per-event costs only (section 1), for a quick look at a
# change of the hook (APPEND="MT_BENCH_PARTS=events MT_BENCH_ROUNDS=20").
PARTS=${MT_BENCH_PARTS:-all}

quiet() {
	[ -n "${reader:-}" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
	reader=
	echo 0 >$MT/enable; echo 0 >$MT/reset; echo 0 >$MT/overwrite; echo 1024 >$MT/buffer_size_kb
	echo 0 >$MS/enable; echo 0 >$MS/reset
	echo 0 >$EV; echo 0 >$TR/tracing_on; echo >$TR/trace
}

setup() {
	quiet
	case $1 in
	mt) echo 1 >$MT/enable ;;
	# A reader draining trace_pipe while the hook runs.
	mtpipe) cat $MT/trace_pipe >/dev/null & reader=$!
		echo 1 >$MT/enable ;;
	# The flight recorder, small enough to recycle chunks all along.
	mtflight) echo 1 >$MT/overwrite; echo 64 >$MT/buffer_size_kb
		echo 1 >$MT/enable ;;
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
	for v in mt mtpipe mtflight mstat off ftrace clock mtclock empty; do
		setup $v
		case $v in
		ftrace) what=tracepoint ;;
		clock|mtclock|empty) what=$v ;;
		*) what=hook ;;
		esac
		# Untimed first: under TCG, code patched by a static key
		# is translated again the first time it runs.
		echo "$what 1000" >$MT/bench
		echo "$what $N" >$MT/bench
		echo "event $v $(cut -d' ' -f3 $MT/bench) $N"
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
} >"$out/bench.raw" 2>&1
