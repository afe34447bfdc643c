#!/bin/sh
# Guest side of make bench's scale series (section 9): how the costs grow
# with the CPU count.  make bench boots it on 4, 16 and 64 CPUs under
# QEMU's -icount (a guest nanosecond is an instruction: exact counts),
# and once more on 64 CPUs without it for the storm.  Raw lines
# "scale ..." go to OUT/scale.raw for harness/bench-report.pl:
#   scale info CPUS POSSIBLE ICOUNT
#   scale event mt|mstat|empty NS CALLS     the hooks, pinned to CPU 1
#   scale read cat|pipe NS BYTES RECORDS    one read of a whole trace
#   scale stat NS_PER_READ READS SENT CAL RES  stat reads: their cost; the
#                    IPIs readers of ended periods sent, CAL and RES on CPUs 1..
#   scale dump NS LINES                     the dump's merge, newest 64
#   scale mem ONLINE POSSIBLE KB TOOK_KB BUFFER_CPUS
#   scale storm mt|ftrace PROCS MOVES EVENTS LOST
# MT_SCALE_PARTS: "icount" (all but the storm) or "storm".
out=$1
MT=/sys/kernel/debug/migration_trace
MS=/sys/kernel/debug/migration_stat
TR=/sys/kernel/tracing
H=/guest/mt_helper
PARTS=${MT_SCALE_PARTS:-icount}
NCPU=$(nproc)
POSSIBLE=$(($(awk -F- '{ print $NF }' /sys/devices/system/cpu/possible) + 1))
# Records of the read-out: the same total at every CPU count.
TOTAL=${MT_SCALE_RECORDS:-12800}
N=10000		# hook calls per per-event run
READS=20	# stat reads
STORM=${MT_SCALE_STORM:-20}	# seconds of each storm

quiet() {
	echo 0 >$MT/enable; echo 0 >$MT/reset; echo 0 >$MT/overwrite; echo 1024 >$MT/buffer_size_kb
	echo all >$MT/filter
	echo 0 >$MS/enable; echo 0 >$MS/reset
	echo 0 >$TR/tracing_on; echo 0 >$TR/events/sched/sched_migrate_task/enable; echo >$TR/trace
}

# hooks CALLS: CALLS of the benchmark's hook on every CPU, each on its CPU.
hooks() {
	c=0
	while [ $c -lt "$NCPU" ]; do
		taskset -c $c sh -c "echo hook $1 >$MT/bench"
		c=$((c + 1))
	done
}

# The sum over the CPUs but CPU 0 of the /proc/interrupts row NAME.
ipis() {
	awk -v n="$1:" '$1 == n { for (i = 3; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i }
		END { print s + 0 }' /proc/interrupts
}

# The IPIs the stat's readers (mt_helper, on CPU 0) sent from their own
# context (not from an interrupt taken while they ran) to another CPU, from
# the ipi events of an ftrace instance of their own (as mt_idle).
IPI=$TR/instances/scale
mkdir -p $IPI
for o in irq-info context-info; do echo 1 >"$IPI/options/$o"; done
sent() {
	awk '$1 ~ /^mt_helper-/ && substr($3, 3, 1) == "." &&
	     ($5 == "ipi_send_cpu:" || ($5 == "ipi_send_cpumask:" && $6 != "cpumask=00000001" &&
	      $6 !~ /^cpumask=[0,]*1$/)) && !($5 == "ipi_send_cpu:" && $6 == "cpu=0") { n++ }
	     END { print n + 0 }' $IPI/trace
}

# Free memory in KiB, with the pages of the per-CPU lists (as mt_hotplug).
mem_free() {
	awk '$1 == "pages" && $2 == "free" { n += $3 } $1 == "count:" { n += $2 }
	     END { print n * 4 }' /proc/zoneinfo
}
stat_line() { awk -v n="$1" '$1 == "#" && $2 == n { print $3 }' "$MT/stats"; }

# mem KB: the memory buffer_size_kb and a start take at this online count.
mem() {
	quiet
	echo 4 >$MT/buffer_size_kb
	sleep 1
	f0=$(mem_free)
	echo "$1" >$MT/buffer_size_kb
	echo 1 >$MT/enable
	f1=$(mem_free)
	echo "scale mem $(grep -c '^processor' /proc/cpuinfo) $POSSIBLE $1 $((f0 - f1)) $(stat_line buffer_cpus)"
	quiet
}

icount() {
	# Per event: the hooks pinned to CPU 1, untimed first (TCG
	# translates patched code again the first time it runs).
	for v in mt mstat empty; do
		quiet
		case $v in
		mt|mstat) echo "start $v" >$MT/bench; what=hook ;;
		*) what=empty ;;
		esac
		echo "scale event $v $(taskset -c 1 sh -c "echo $what 1000 >$MT/bench
			echo $what $N >$MT/bench; cut -d' ' -f3 $MT/bench") $N"
	done

	# Read-out: TOTAL records spread over every CPU, the trace stopped;
	# the trace file, then trace_pipe, each read whole by one reader
	# pinned to CPU 0.  The filter keeps the hook calls' cause and
	# leaves out the fill's own moves (taskset's affinity moves and
	# fork placements); a few real wakeups remain, counted.
	quiet
	echo try_to_wake_up >$MT/filter
	echo "start mt" >$MT/bench
	hooks $((TOTAL / NCPU))
	echo 0 >$MT/enable
	recs=$(grep -vc '^#' $MT/trace)
	# What the records are, for the record: moves, and the other lines
	# by their kind (each CPU's start, task names, ...).
	echo "# records: $(awk '/^# loc / { loc[$3] = $4; next } /^#/ { next }
		$3 != "." { m++; next } { k[($6 in loc) ? loc[$6] : $6]++ }
		END { printf "moves %d", m; for (i in k) printf ", %s %d", i, k[i] }' $MT/trace)"
	set -- $(taskset -c 0 $H read-cpu $MT/trace)
	echo "scale read cat $1 $2 $recs"
	set -- $(taskset -c 0 $H read-cpu $MT/trace_pipe)
	echo "scale read pipe $1 $2 $recs"

	# Stat, its cost: counts on every CPU, then READS reads by CPU 0
	# while the other CPUs idle, within a first period of 60 s: no row
	# completes, each read looks at every online CPU's period (the
	# O(CPUs) part) and formats the same header, whatever the timing.
	quiet
	echo 60000 >$MS/period_msec
	echo "start mstat" >$MT/bench
	hooks 100
	taskset -c 0 $H read-cpu $MS/stat >/dev/null
	set -- $(taskset -c 0 sh -c "i=0; t=0; while [ \$i -lt $READS ]; do
		set -- \$($H read-cpu $MS/stat); t=\$((t + \$1)); i=\$((i + 1)); done; echo \$t")
	cost=$(($1 / READS))
	# Its IPIs: 100 ms periods, counts on every CPU, then 1 s idle:
	# the idle CPUs leave their ended periods to the readers to fold.
	# The IPIs the readers sent, and the CAL and RES the other CPUs took
	# meanwhile (from anything).
	quiet
	echo 100 >$MS/period_msec
	echo "start mstat" >$MT/bench
	hooks 100
	sleep 1
	echo 1 >$IPI/events/ipi/ipi_send_cpu/enable
	echo 1 >$IPI/events/ipi/ipi_send_cpumask/enable
	cal=$(ipis CAL) res=$(ipis RES)
	taskset -c 0 sh -c "i=0; while [ \$i -lt $READS ]; do
		$H read-cpu $MS/stat >/dev/null; usleep 100000; i=\$((i + 1)); done"
	cal=$(($(ipis CAL) - cal)) res=$(($(ipis RES) - res))
	echo 0 >$IPI/events/enable
	echo "scale stat $cost $READS $(sent) $cal $res"
	quiet
	echo 1000 >$MS/period_msec

	# The dump on oops: every CPU's 64 KiB flight recorder written over,
	# then the merge of the newest 64 records of each (as mt_dump).
	quiet
	echo 64 >$MT/buffer_size_kb
	echo 1 >$MT/overwrite
	echo "start mt" >$MT/bench
	hooks $((64 * 1024 / 16 * 11 / 10))
	echo 0 >$MT/enable
	echo "dumpwalk 64" >$MT/bench
	set -- $(cat $MT/bench)
	echo "scale dump $3 $4"

	# Memory: all CPUs online, then (with more than 16) 16 of them:
	# the buffers follow the online CPUs, not the possible ones.
	mem 1024
	if [ "$NCPU" -gt 16 ]; then
		c=16
		while [ $c -lt "$NCPU" ]; do
			echo 0 >/sys/devices/system/cpu/cpu$c/online
			c=$((c + 1))
		done
		mem 1024
	fi
}

# storm PROCS: PROCS processes move between two CPUs each, over all the
# CPUs, for STORM seconds read by migrate_record's trace_pipe reader on
# 64 KiB buffers; then the same storm read by cat from ftrace's
# trace_pipe, on 64 KiB buffers too.
storm() {
	quiet
	/guest/migrate_record -q -o /dev/null --size 64 -- \
		$H storm "$STORM" "$1" "$NCPU" >/tmp/storm.n 2>/tmp/record.err
	set -- "$1" "$(cat /tmp/storm.n)" \
		$(sed -n 's/.*: \([0-9]*\) events to .*(dropped \([0-9]*\), overwritten \([0-9]*\))$/\1 \2 \3/p' /tmp/record.err)
	echo "scale storm mt $1 $2 $3 $(($4 + $5))"
	quiet
	echo 64 >$TR/buffer_size_kb
	echo 1 >$TR/events/sched/sched_migrate_task/enable
	echo 1 >$TR/tracing_on
	cat $TR/trace_pipe >/dev/null &
	r=$!
	n=$($H storm "$STORM" "$1" "$NCPU")
	sleep 1
	echo 0 >$TR/tracing_on
	kill $r; wait $r 2>/dev/null
	echo "scale storm ftrace $1 $n $(awk '/^read events:/ { e += $3 } /^overrun:/ { o += $2 }
		END { print e + 0, o + 0 }' $TR/per_cpu/cpu*/stats)"
	echo 1408 >$TR/buffer_size_kb
	quiet
}

[ -w $MT/bench ] || { echo "no $MT/bench: kernel without CONFIG_SNSC_LITE_MIGRATION_BENCH"; exit 1; }
{
echo "scale info $NCPU $POSSIBLE $([ "$PARTS" = icount ] && echo 1 || echo 0)"
echo "# node0 $(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)," \
	"cpu0's LLC $(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)," \
	"SMT $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)"
case $PARTS in
icount) icount ;;
storm)
	# As fast as the guest allows: a process for every two CPUs; then
	# an eighth of them, a rate ftrace may keep without loss.
	storm $((NCPU / 2))
	storm $((NCPU / 16 > 0 ? NCPU / 16 : 1)) ;;
esac
quiet
} >"$out/scale.raw" 2>&1
