#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A reader of trace_pipe must not disturb the CPUs it reads about: with a
# task on CPU 0 logging a mark every 10 ms and the other CPUs idle, count
# what the idle CPUs receive over 10 s (IPIs: CAL and RES of
# /proc/interrupts; wakeups: sched_goidle of /proc/schedstat) with no
# reader, with a reader of our trace_pipe, and with a reader of ftrace's
# trace_pipe fed by trace_marker writes from CPU 0.  Ours may add no more
# than ftrace's adds.  Both readers run on CPU 0 beside the writer, as a
# user who wants to leave the others alone would run them, and then
# unpinned, as a user who just types cat trace_pipe runs them.  The ipi
# tracepoints also say who sent what: our reader may send no cross-CPU
# call itself.
#
# The writes start 100 us after a multiple of 10 ms (the kernel's ticks
# fall on multiples of the tick period: at HZ=250, the writes come 0.1
# and 2.1 ms after a tick, in turn).  When a write and its reader are
# still busy at a tick that follows a tickless idle, the scheduler kicks
# an idle CPU to balance (nohz_balancer_kick(), a CAL), up to one kick a
# write.  A schedule free of the tick would decide by its phase alone
# whether a run sees some 400 kicks or none, whichever reader it has;
# on a loaded host, the vCPUs' timing decides it as much.  So the kicks,
# told apart by their function in the csd events, are left out of the
# IPIs compared (and printed).
# The ipi events see what the reader sends from its own context; work it
# would hand to a kworker or a timer, or a wakeup of a CPU that polls in
# idle, they do not: the counts of /proc/interrupts do.
#
# A reader of migration_stat/stat must not disturb them either: a tool
# polls it once a period (migrate_exporter, migrate_top).  With the stat
# collecting at 100 ms periods and nothing else running, a poller on
# CPU 0 opens, reads and closes a file every 100 ms, on the same tick
# grid as the writes above: migration_stat/period_msec (which asks no
# CPU anything) in one run, migration_stat/stat in the other.  What the
# reads of stat add to the idle CPUs may be no more than noise, and the
# poller of stat may send no more cross-CPU calls itself than the other.
# A read of stat formats every row so far (some 90 numbers a period):
# the longer it runs, the likelier CPU 0 is busy at the tick after its
# tickless idle and kicks an idle CPU to balance (one CAL), so the
# reads of stat come first, while there are fewer than 50 rows.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
NCPU=$(nproc)
if [ "$NCPU" -lt 2 ] || [ ! -w /proc/sys/kernel/sched_schedstats ] ||
   [ ! -w "$TRACING/trace_marker" ] ||
   [ ! -d "$TRACING/events/ipi/ipi_send_cpu" ] ||
   [ ! -d "$TRACING/events/ipi/ipi_send_cpumask" ] ||
   [ ! -d "$TRACING/events/csd/csd_function_entry" ]; then
	ktap_skip_all "needs 2 CPUs, CONFIG_SCHEDSTATS, ftrace's trace_marker" \
		"and the ipi and csd tracepoints"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 11
# The ipi events of all three runs, in an instance of their own, in
# the default line format that sent_away() reads (an instance starts
# with the top level's options).
IPI=$TRACING/instances/mt_idle
rmdir "$IPI" 2>/dev/null
mkdir "$IPI" || ktap_exit_fail_msg "cannot create the ftrace instance $IPI"
trap 'echo 0 >"$IPI/events/enable" 2>/dev/null; rmdir "$IPI"; rm -rf "$TMPD"' EXIT
trap 'exit 1' INT TERM HUP
for o in irq-info context-info; do echo 1 >"$IPI/options/$o" 2>/dev/null; done
for o in record-tgid latency-format raw hex bin; do
	echo 0 >"$IPI/options/$o" 2>/dev/null
done
SECONDS_EACH=${MT_IDLE_SECONDS:-10}
N=$((SECONDS_EACH * 100))

# disturbance: CAL + RES, and sched_goidle, summed over CPUs 1 and up;
# then CAL, RES and LOC (local timer) apart, for the record.
disturbance() {
	awk -v n="$NCPU" '
		FILENAME ~ /interrupts/ && ($1 == "CAL:" || $1 == "RES:" || $1 == "LOC:") {
			for (c = 2; c <= n; c++) k[$1] += $(c + 1)
		}
		FILENAME ~ /schedstat/ && $1 ~ /^cpu[0-9]+$/ && $1 != "cpu0" { idle += $5 }
		END { print k["CAL:"] + k["RES:"], idle + 0,
			    k["CAL:"] + 0, k["RES:"] + 0, k["LOC:"] + 0 }' \
		/proc/interrupts /proc/schedstat
}

# sent_away PID: how many IPIs task PID sent, in its own context (not in
# an interrupt taken while it ran), to a CPU other than its own.  A
# cpumask is printed as a hex bitmap ("00000000,0000000e").
sent_away() {
	awk -v pid="$1" '
		$1 ~ ("-" pid "$") && substr($3, 3, 1) == "." &&
		($5 == "ipi_send_cpu:" || $5 == "ipi_send_cpumask:") {
			cpu = $2; gsub(/[^0-9]/, "", cpu); cpu += 0
			to = $6; sub(/^[a-z]*=/, "", to)
			if ($5 == "ipi_send_cpu:") {
				if (to + 0 != cpu) n++
				next
			}
			for (bit = 1; cpu-- > 0; ) bit *= 2
			gsub(/,/, "", to); sub(/^0+/, "", to)
			if (to != sprintf("%x", bit)) n++
		}
		END { print n + 0 }' "$IPI/trace"
}

# balancer_kicks: how many nohz idle-balance kicks (kick_ilb(), a CAL
# that runs nohz_csd_func) CPUs 1 and up ran, from the csd events (the
# ipi events name only the IPI's handler).  Whether CPU 0 is busy at the
# tick after its tickless idle decides them, by the phase of the writes
# and how a loaded host runs the vCPUs, not by what the reader does:
# from none to hundreds a run, either reader (see above).  They are
# counted apart and left out of the comparison.
balancer_kicks() {
	awk '$5 == "csd_function_entry:" && $2 != "[000]" && $6 ~ /^func=nohz_csd_func/ { n++ }
	     END { print n + 0 }' "$IPI/trace"
}

# phase NAME FILE DATA [PIPE]: the writer on CPU 0 for SECONDS_EACH s, a
# reader of PIPE on CPU 0 if given (wherever the scheduler puts it if
# UNPINNED is set); prints "IPIS WAKEUPS SENT" on the idle CPUs, SENT
# being the IPIs the reader sent itself.
phase() {
	reader=
	if [ -n "${4:-}" ]; then
		if [ -n "${UNPINNED:-}" ]; then
			cat "$4" >"$TMPD/read" &
		else
			taskset -c 0 cat "$4" >"$TMPD/read" &
		fi
		reader=$!
		sleep 1
	fi
	name=$1
	echo >"$IPI/trace"
	echo 1 >"$IPI/events/ipi/enable"
	echo 1 >"$IPI/events/csd/csd_function_entry/enable"
	[ "$(cat "$IPI/events/ipi/ipi_send_cpu/enable")" = 1 ] ||
		ktap_exit_fail_msg "the ipi events of $IPI are not enabled"
	before=$(disturbance)
	failed=$(taskset -c 0 "$HELPER" every 10 "$N" "$2" "$3" 100)
	after=$(disturbance)
	echo 0 >"$IPI/events/ipi/enable"
	echo 0 >"$IPI/events/csd/csd_function_entry/enable"
	sent=0
	[ -n "$reader" ] && sent=$(sent_away "$reader")
	[ -n "$reader" ] && { kill "$reader"; wait "$reader" 2>/dev/null; }
	kicks=$(balancer_kicks)
	set -- $before $after
	[ "$failed" = 0 ] || ktap_print_msg "$name: $failed writes failed"
	ktap_print_msg "$name: CAL $(($8 - $3)) RES $(($9 - $4))" \
		"LOC $((${10} - $5)), balancer kicks $kicks," \
		"sent by the reader $sent" >&2
	echo $(($6 - $1 - kicks)) $(($7 - $2)) "$sent"
}

# stat_phase FILE: the stat collecting, a poller on CPU 0 reads FILE
# every 100 ms for STAT_SECONDS s; prints "IPIS WAKEUPS SENT LINES" on the
# idle CPUs, SENT being the IPIs the poller sent itself, LINES those of
# its last read.
stat_phase() {
	file=$1
	echo >"$IPI/trace"
	echo 1 >"$IPI/events/ipi/enable"
	before=$(disturbance)
	taskset -c 0 "$HELPER" poll 100 "$SN" "$1" 100 >"$TMPD/poll" &
	poller=$!
	wait "$poller"
	after=$(disturbance)
	echo 0 >"$IPI/events/ipi/enable"
	sent=$(sent_away "$poller")
	# The poll's failed reads and lines, then the counts before and after.
	set -- $(cat "$TMPD/poll") $before $after
	[ "$1" = 0 ] || ktap_print_msg "poll of $(basename "$file"): $1 reads failed"
	ktap_print_msg "poll of $(basename "$file"): CAL $((${10} - $5))" \
		"RES $((${11} - $6)) LOC $((${12} - $7)), sent by the poller $sent" >&2
	echo $(($8 - $3)) $(($9 - $4)) "$sent" "$2"
}

# min A B: the smaller number.
min() { if [ "$1" -le "$2" ]; then echo "$1"; else echo "$2"; fi; }

echo 1 >/proc/sys/kernel/sched_schedstats
# Two rounds of the three runs: what else happens on the idle CPUs (a
# kworker, a timer, the shell's own forks) only ever adds, so each
# run's smaller count of the two is the nearer to its own cost.
base_ipi=999999 base_wake=999999 ours_ipi=999999 ours_wake=999999
ftrace_ipi=999999 ftrace_wake=999999 logged=0 read_marks=0 ours_sent=0
for round in 1 2; do
	mt_reset
	mt_start
	set -- $(phase "no reader" "$MT_DIR/mark" 0x1d1e)
	base_ipi=$(min "$base_ipi" "$1") base_wake=$(min "$base_wake" "$2")
	logged=$(mt_stat_total entries)
	set -- $(phase "our reader" "$MT_DIR/mark" 0x1d1e "$MT_DIR/trace_pipe")
	ours_ipi=$(min "$ours_ipi" "$1") ours_wake=$(min "$ours_wake" "$2")
	ours_sent=$((ours_sent + $3))
	read_marks=$(grep -c ' 0x00001d1e$' "$TMPD/read")
	mt_stop
	mt_reset
	echo 1 >"$TRACING/tracing_on"
	set -- $(phase "ftrace's reader" "$TRACING/trace_marker" idle "$TRACING/trace_pipe")
	ftrace_ipi=$(min "$ftrace_ipi" "$1") ftrace_wake=$(min "$ftrace_wake" "$2")
	echo 0 >"$TRACING/tracing_on"
	echo >"$TRACING/trace"
done
# A user who types cat trace_pipe: the reader goes wherever the scheduler
# puts it, an idle CPU too, which each wakeup of the reader then costs an
# IPI.  One round: the readers' difference is large.
mt_reset
mt_start
set -- $(UNPINNED=1 phase "our reader, unpinned" "$MT_DIR/mark" 0x1d1e "$MT_DIR/trace_pipe")
ours_free=$1 ours_free_marks=$(grep -c ' 0x00001d1e$' "$TMPD/read")
mt_stop
mt_reset
echo 1 >"$TRACING/tracing_on"
set -- $(UNPINNED=1 phase "ftrace's reader, unpinned" "$TRACING/trace_marker" idle \
	"$TRACING/trace_pipe")
ftrace_free=$1
echo 0 >"$TRACING/tracing_on"
echo >"$TRACING/trace"
# The stat's poller, two rounds as well; the trace stopped.
STAT_SECONDS=${MT_IDLE_STAT_SECONDS:-5}
SN=$((STAT_SECONDS * 10))
stat_base=999999 stat_ipi=999999 base_sent=0 stat_sent=0 stat_rows=0
if [ -d "$MS_DIR" ]; then
	for round in 1 2; do
		echo 0 >"$MS_DIR/reset"
		echo 100 >"$MS_DIR/period_msec"
		echo 1 >"$MS_DIR/enable"
		# First the reads of stat, while it is short (see above).
		set -- $(stat_phase "$MS_DIR/stat")
		stat_ipi=$(min "$stat_ipi" "$1") stat_sent=$((stat_sent + $3))
		# Its last read's rows: the run's periods, less the last.
		stat_rows=$(($4 - $(grep -c '^#' "$MS_DIR/stat")))
		set -- $(stat_phase "$MS_DIR/period_msec")
		stat_base=$(min "$stat_base" "$1") base_sent=$((base_sent + $3))
		echo 0 >"$MS_DIR/enable"
	done
	echo 0 >"$MS_DIR/reset"
	echo 1000 >"$MS_DIR/period_msec"
fi
echo 0 >/proc/sys/kernel/sched_schedstats

ktap_print_msg "idle CPUs 1-$((NCPU - 1)), ${SECONDS_EACH} s each, fewer of two: IPIs / wakeups"
ktap_print_msg "  no reader:       $base_ipi / $base_wake"
ktap_print_msg "  our trace_pipe:  $ours_ipi / $ours_wake"
ktap_print_msg "  ftrace's:        $ftrace_ipi / $ftrace_wake"
# What the readers add over the run without one; a little of the idle
# CPUs' own life (a timer, a kworker) may fall into either run.
NOISE=${MT_IDLE_NOISE:-20}
ours_ipi=$((ours_ipi - base_ipi)) ours_wake=$((ours_wake - base_wake))
ftrace_ipi=$((ftrace_ipi - base_ipi)) ftrace_wake=$((ftrace_wake - base_wake))
check "the run without a reader logged its $N marks" \
	"$([ "$logged" -ge "$N" ] && echo yes)" yes
check "our reader got the second run's $N marks as they came" \
	"$([ "$read_marks" -ge $((N * 9 / 10)) ] && echo yes)" yes
check "our reader adds no more IPIs to idle CPUs than ftrace's ($ours_ipi vs $ftrace_ipi)" \
	"$([ "$ours_ipi" -le $((ftrace_ipi + NOISE)) ] && echo yes)" yes
check "our reader wakes idle CPUs no more than ftrace's ($ours_wake vs $ftrace_wake)" \
	"$([ "$ours_wake" -le $((ftrace_wake + NOISE)) ] && echo yes)" yes
check "our reader sent no IPI to another CPU itself ($ours_sent in both runs)" \
	"$ours_sent" 0
# A round of cross-CPU calls every 10 ms added some 1,900 here; ftrace's
# own reader adds up to about one a second per idle CPU (a busy host's
# timers and the readers' starts).
check "our reader sends no IPI rounds: fewer than 5 IPIs a second per idle CPU" \
	"$([ "$ours_ipi" -lt $((5 * SECONDS_EACH * (NCPU - 1))) ] && echo yes)" yes
ktap_print_msg "unpinned readers, ${SECONDS_EACH} s: IPIs, ours $ours_free, ftrace's $ftrace_free"
# Each wakeup of a reader on an idle CPU is an IPI: ftrace's wakes at
# each write, ours once per MT_PIPE_NUDGE_JIFFIES for names and marks.
# When the scheduler kept ftrace's reader on idle CPUs (its wakeups cost
# 200 IPIs or more), ours, woken at most every 20 ms by marks 10 ms
# apart, must cost at most three quarters of that.
free_base=$((ftrace_free - base_ipi))
if [ "$free_base" -ge 200 ]; then
	free_max=$((base_ipi + free_base * 3 / 4))
else
	free_max=$((ftrace_free + NOISE))
fi
check "unpinned, ours adds fewer IPIs ($ours_free vs $ftrace_free, at most $free_max)" \
	"$([ "$ours_free" -le "$free_max" ] && echo yes)" yes
check "unpinned, our reader got the $N marks" \
	"$([ "$ours_free_marks" -ge $((N * 9 / 10)) ] && echo yes)" yes

if [ -d "$MS_DIR" ]; then
	ktap_print_msg "idle CPUs, ${STAT_SECONDS} s each, fewer of two: IPIs"
	ktap_print_msg "  polls of period_msec: $stat_base"
	ktap_print_msg "  polls of stat:        $stat_ipi"
	check "the poller's last read of stat had the periods so far ($stat_rows rows)" \
		"$([ "$stat_rows" -ge $((SN - 5)) ] && echo yes)" yes
	added=$((stat_ipi - stat_base))
	check "a stat reader polling every period adds no IPIs to idle CPUs ($added)" \
		"$([ "$added" -le "$NOISE" ] && echo yes)" yes
	# Either poller's start and exit may send one or two (its parent's
	# wakeup); a read of stat that asks the CPUs sends one per read.
	check "the stat reader sent no more IPIs itself than the other ($stat_sent vs $base_sent)" \
		"$([ "$stat_sent" -le $((base_sent + 4)) ] && echo yes)" yes
else
	for i in 1 2 3; do ktap_test_skip "no $MS_DIR: CONFIG_SNSC_LITE_MIGRATION_STAT is off"; done
fi
mt_reset
ktap_finished
