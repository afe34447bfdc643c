#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the migrate_trace_lite selftests: the KTAP helpers, paths,
# control helpers and trace queries.

# In the kernel tree the KTAP helpers are in ../kselftest; beside us elsewhere.
KTAP=$(dirname "$0")/../kselftest/ktap_helpers.sh
[ -f "$KTAP" ] || KTAP=$(dirname "$0")/ktap_helpers.sh
. "$KTAP"

MT_DIR=/sys/kernel/debug/migration_trace
TRACING=/sys/kernel/tracing
HERE=$(cd "$(dirname "$0")" && pwd)
HELPER=$HERE/mt_helper
PLACE=$HERE/mt_place
TMPD=${TMPDIR:-/tmp}/mt_selftest.$$
mkdir -p "$TMPD"
trap 'rm -rf "$TMPD"' EXIT

# Skip the whole test (exit 4) unless this kernel has the facility.
mt_require() {
	if [ "$(id -u)" != 0 ]; then
		ktap_skip_all "must be run as root"
		exit "$KSFT_SKIP"
	fi
	if [ ! -d "$MT_DIR" ]; then
		ktap_skip_all "no $MT_DIR: no CONFIG_SNSC_LITE_MIGRATION_TRACE," \
			"or debugfs not mounted"
		exit "$KSFT_SKIP"
	fi
	if [ ! -x "$HELPER" ] || [ ! -x "$PLACE" ]; then
		ktap_skip_all "mt_helper or mt_place not built"
		exit "$KSFT_SKIP"
	fi
}

# wr FILE DATA: one write(2); prints "ok" or the errno name.
wr() { "$HELPER" write "$1" "$2"; }

mt_reset() { echo 0 >"$MT_DIR/reset"; }
mt_start() { echo 1 >"$MT_DIR/enable"; }
mt_stop() { echo 0 >"$MT_DIR/enable"; }
mt_state() { cat "$MT_DIR/enable"; }

# Save the trace to FILE.
mt_save() { cat "$MT_DIR/trace" >"$1"; }

# check DESCRIPTION VALUE EXPECTED: one KTAP result.
check() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
		ktap_print_msg "  got '$2', expected '$3'"
	fi
}

# Migration lines of TRACE as "PID FROM TO CAUSE_NAME REASON_NAME", in
# trace order ("none" for reason 0 and for 1.0/1.1 lines).
mt_migrations() {
	awk '
	/^# cause / { cause[$3] = $4; next }
	/^# reason / { reason[$3] = $4; next }
	/^#/ { next }
	$3 != "." && (NF == 6 || NF == 7) {
		print $5, $3, $4, cause[$6], ($7 in reason) ? reason[$7] : "none" }
	' "$1"
}

# Number of the event kind NAME ("mark", "copy_process", ...) in TRACE.
mt_loc_num() { awk -v n="$2" '$1 == "#" && $2 == "loc" && $4 == n { print $3 }' "$1"; }

# Events of kind NAME as "PID REST-OF-LINE".
mt_events() {
	awk -v k="$(mt_loc_num "$1" "$2")" '
	/^#/ { next }
	$3 == "." && $6 == k { pid = $5; $1 = $2 = $3 = $4 = $5 = $6 = ""
			       sub(/^ +/, ""); print pid, $0 }
	' "$1"
}

# Lines of TRACE that do not follow trace format 1.2; prints them.
# Migrations name a cause and a reason of the header, move between two
# different CPUs; lost lines (pid 0, kind "lost") carry a count.
mt_malformed() {
	awk '
	/^# cause / { cause[$3] = 1 }
	/^# reason / { reason[$3] = 1 }
	/^# loc / && $4 == "lost" { lost = $3 }
	/^# loc / && $4 == "clamped" { clamped = $3 }
	/^# / { next }
	$1 !~ /^0x[0-9a-f]{16}$/ || $2 !~ /^[0-9]+$/ { print; next }
	$3 != "." { if (NF != 7 || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ ||
			$5 !~ /^[0-9]+$/ || !($6 in cause) || $3 == $4 ||
			($7 != 0 && !($7 in reason))) print
		    next }
	$5 == "." { if (NF != 8 || $6 != "start_sched_clock") print; next }
	$7 == ":" { next }
	$6 == lost || $6 == clamped { if (NF != 7 || $5 != 0 || $7 !~ /^[0-9]+$/) print; next }
	$7 ~ /^0x[0-9a-f]{8,}$/ && NF == 7 { next }
	{ print }
	' "$1"
}

MS_DIR=/sys/kernel/debug/migration_stat

# Data rows of a stat file as "PERIOD_INDEX NAME COUNT", nonzero only:
# NAME is a cause, or CAUSE/REASON for the columns after "migrate".
ms_rows() {
	awk '
	/^# field / { name[$3] = $4; if ($4 == "migrate") mig = $3; next }
	/^#/ { next }
	{ for (i = 2; i <= NF; i++) if (i != mig && $i > 0) print n + 0, name[i], $i
	  n++ }
	' "$1"
}

# Only the per-cause rows of ms_rows.
ms_rows_by_cause() { ms_rows "$1" | awk '$2 !~ /\//'; }

# Rows of a stat file that break its sums: migrate is the sum of the
# causes, and a cause is the sum of its CAUSE/REASON columns.  Prints them.
ms_bad_sums() {
	awk '
	/^# field / { name[$3] = $4; if ($4 == "migrate") mig = $3
		      if (split($4, cr, "/") == 2) { of[$3] = cr[1]; has[cr[1]] = 1 }
		      next }
	/^#/ { next }
	{ s = 0; for (i = 2; i < mig; i++) s += $i
	  if (s != $mig) { print; next }
	  delete sum
	  for (i = mig + 1; i <= NF; i++) sum[of[i]] += $i
	  for (i = 2; i < mig; i++) if ((name[i] in has) && sum[name[i]] != $i) { print; next } }
	' "$1"
}

# An awk function for the trace's times: hex("0x1f") is 31 (busybox awk
# has no strtonum(); a double holds nanoseconds exactly for 104 days).
MT_AWK_HEX='
	function hex(s,   i, n) {
		n = 0
		s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}'

# Migrations of TRACE bucketed into the periods of STAT, as
# "PERIOD_INDEX NAME COUNT" like ms_rows: per cause, and per CAUSE/REASON
# for the causes the stat has reason columns of (an unlisted reason
# counts as CAUSE/none, as the kernel counts it); only periods STAT shows.
mt_rows() {
	awk -v stat="$2" "$MT_AWK_HEX"'
	BEGIN {
		while ((getline l < stat) > 0) {
			split(l, w, " ")
			if (w[2] == "sched_clock") start = hex(w[3])
			else if (w[2] == "period_msec") period = w[3] * 1000000
			else if (w[2] == "field") col[w[4]] = 1
			else if (l !~ /^#/) rows++
		}
		for (c in col) if (split(c, cr, "/") == 2) reasoned[cr[1]] = 1
	}
	/^# cause / { cause[$3] = $4; next }
	/^# reason / { reason[$3] = $4; next }
	/^#/ || $3 == "." { next }
	{ t = hex($1)
	  if (t < start) next
	  p = int((t - start) / period)
	  if (p >= rows) next
	  c = cause[$6]
	  n[p " " c]++
	  if (!(c in reasoned)) next
	  r = c "/" (($7 in reason) ? reason[$7] : "none")
	  if (!(r in col)) r = c "/none"
	  n[p " " r]++ }
	END { for (k in n) print k, n[k] }
	' "$1"
}

# Only the per-cause rows of mt_rows.
mt_rows_by_cause() { mt_rows "$1" "$2" | awk '$2 !~ /\//'; }

# Start ftrace's sched_migrate_task event on a clean, large buffer.
ftrace_start() {
	echo 0 >"$TRACING/tracing_on"
	echo 8192 >"$TRACING/buffer_size_kb"
	echo >"$TRACING/trace"
	echo 1 >"$TRACING/events/sched/sched_migrate_task/enable"
	echo 1 >"$TRACING/tracing_on"
}

# Stop it; its trace to FILE, its per-CPU stats to FILE.stats.
ftrace_stop() {
	echo 0 >"$TRACING/tracing_on"
	echo 0 >"$TRACING/events/sched/sched_migrate_task/enable"
	cat "$TRACING/trace" >"$1"
	cat "$TRACING"/per_cpu/cpu*/stats >"$1.stats"
}

# Whether PID is a kernel thread (PF_KTHREAD in the flags of its stat).
mt_is_kthread() {
	awk '{ sub(/.*\) /, ""); exit int($7 / 2097152) % 2 ? 0 : 1 }' "/proc/$1/stat" 2>/dev/null
}

# mt_ftrace_compare TRACE FTRACE: two KTAP results.  ftrace lost nothing,
# and for every user task created in the window (kernel threads may
# outlive it) our migrations equal ftrace's with orig_cpu != dest_cpu,
# task by task in order (fork placement aside: ftrace does not see it).
# A kernel thread is named in copy_process(), so its record does not say
# kthreadd: it is told by its flags, while it lives; a kernel thread of
# the window that moves after it, between the two stops, must live on.
mt_ftrace_compare() {
	local p
	check "ftrace lost no sched_migrate_task events" \
		"$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$2.stats")" 0
	mt_events "$1" copy_process | awk '{ print $1 }' | sort -u |
		while read -r p; do mt_is_kthread "$p" || echo "$p"; done >"$TMPD/pids"
	mt_migrations "$1" | awk -v f="$TMPD/pids" '
		BEGIN { while ((getline p <f) > 0) want[p] = 1 }
		($1 in want) && $4 != "wake_up_new_task" { print $1, $2, $3 }
		' | sort -s -n -k1,1 >"$TMPD/ours"
	awk -v f="$TMPD/pids" '
		BEGIN { while ((getline p <f) > 0) want[p] = 1 }
		/sched_migrate_task:/ {
			for (i = 1; i <= NF; i++) {
				split($i, kv, "=")
				v[kv[1]] = kv[2]
			}
			if ((v["pid"] in want) && v["orig_cpu"] != v["dest_cpu"])
				print v["pid"], v["orig_cpu"], v["dest_cpu"]
		}' "$2" | sort -s -n -k1,1 >"$TMPD/theirs"
	ktap_print_msg "  compared $(wc -l <"$TMPD/ours") migrations" \
		"of $(wc -l <"$TMPD/pids") tasks"
	how="task by task in order"
	# Per-CPU clocks put events of different CPUs in no defined order.
	if dmesg | grep -q "sched_clock: Marking unstable"; then
		how="task by task (sched_clock is unstable: order not compared)"
		sort -o "$TMPD/ours" "$TMPD/ours"
		sort -o "$TMPD/theirs" "$TMPD/theirs"
	fi
	if cmp -s "$TMPD/ours" "$TMPD/theirs" && [ -s "$TMPD/ours" ]; then
		ktap_test_pass "migrations equal ftrace's sched_migrate_task, $how"
	else
		ktap_test_fail "migrations equal ftrace's sched_migrate_task, $how"
		diff "$TMPD/ours" "$TMPD/theirs" | head -10 | sed 's/^/#   /'
	fi
}

# Whether process PID has ended (gone, or a zombie nobody reaped yet:
# wait_for runs in a subshell, which cannot reap its parent's jobs).
ended() {
	[ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null || echo Z)" = Z ]
}

# wait_for PID SECONDS: "ended" once the job PID ends, or "hung" after
# killing it when it still runs after SECONDS.
wait_for() {
	local i=0
	while ! ended "$1"; do
		if [ $i -ge $(( $2 * 10 )) ]; then
			kill -9 "$1" 2>/dev/null
			echo hung
			return 1
		fi
		usleep 100000
		i=$((i + 1))
	done
	echo ended
}

# A field of migration_trace/stats: total entries, dropped or overwritten.
mt_stat_total() {
	awk -v f="$1" '$1 == "total" { print (f == "entries") ? $2 : (f == "dropped") ? $3 : $4 }' \
		"$MT_DIR/stats"
}

# "RING READER" of STATS (a copy of migration_trace/stats): records the
# rings logged at the time of the one before (a CPU's clock stepped back)
# and lines trace_pipe handed out at the time of the line before (two
# CPUs' clocks disagreed by more than its slack).
mt_stat_clamped() { awk '$1 == "clamped" { print $2, $3 }' "$1"; }

# "HEADER LINES" of the traces FILE...: the sums of their headers' clamped
# counts and of their clamped lines.
mt_clamped() {
	for f in "$@"; do
		awk -v k="$(mt_loc_num "$f" clamped)" '
			$1 == "#" && $2 == "clamped" { h += $3; next }
			/^#/ { next }
			$3 == "." && $5 == 0 && $6 == k { n++ }
			END { print h + 0, n + 0 }' "$f"
	done | awk '{ h += $1; n += $2 } END { print h + 0, n + 0 }'
}

# The CPUs of STATS (a copy of migration_trace/stats) whose records are
# not all accounted for in TRACE (a dump or a stream of that trace): each
# CPU's logged records must be those in TRACE plus those overwritten.
# Prints "cpuN: logged != in-trace + overwritten" for each that differs.
mt_unaccounted() {
	awk -v task="$(mt_loc_num "$2" task_list)" -v saved="$(mt_loc_num "$2" saved_comm)" \
		-v lost="$(mt_loc_num "$2" lost)" '
		FNR == NR { if ($1 ~ /^[0-9]+$/) logged[$1] = $2; next }
		$2 == "cpu_lost" { over[$3] = $5; next }
		/^#/ || $6 == "start_sched_clock" { next }
		$6 == task || $6 == saved || $6 == lost { next }
		{ left[$2]++ }
		END { for (c in logged) if (logged[c] != left[c] + over[c])
			print "cpu" c ":", logged[c], "!=", left[c] + 0, "+", over[c] + 0 }
		' "$1" "$2"
}

# The first pid that TRACE moves or marks without a line naming it.
mt_unnamed() {
	awk -v mark="$(mt_loc_num "$1" mark)" '
		/^#/ { next }
		$7 == ":" { named[$5] = 1; next }
		$3 != "." || $6 == mark { seen[$5] = 1 }
		END { for (p in seen) if (!(p in named)) { print p; exit } }' "$1"
}

# "CAUSE/REASON COUNT" of every migration of TRACE, sorted.
reason_counts() {
	mt_migrations "$1" | awk '{ n[$4 "/" $5]++ } END { for (k in n) print k, n[k] }' | sort
}

# "yes" when COUNTS (of reason_counts) has moves whose CAUSE/REASON
# matches the extended regular expression RE, else "none".
has_moves() {
	awk -v re="$2" '$1 ~ re { n += $2 } END { print (n > 0) ? "yes" : "none" }' "$1"
}

# "yes" when the number NUMBER is more than 0, else "none".
some() { [ "${1:-0}" -gt 0 ] && echo yes || echo none; }

# "DROPPED OVERWRITTEN" of TRACE's header.
# shellcheck disable=SC2046
mt_lost() { echo $(sed -n 's/^# \(dropped\|overwritten\) //p' "$1"); }

# Moves of the tasks PID... between the marks BEGIN and END (numbers) of
# TRACE, as "PID CAUSE/REASON FROM TO", in trace order.
moves_of() {
	local t=$1 b e
	b=$(printf '0x%08x' "$2") e=$(printf '0x%08x' "$3")
	shift 3
	awk -v b="$b" -v e="$e" -v pids=" $* " '
	/^# cause / { cause[$3] = $4; next }
	/^# reason / { reason[$3] = $4; next }
	/^#/ { next }
	$3 == "." && $7 == b { on = 1 }
	$3 == "." && $7 == e { on = 0 }
	on && $3 != "." && index(pids, " " $5 " ") {
		print $5, cause[$6] "/" (($7 in reason) ? reason[$7] : "none"), $3, $4 }
	' "$t"
}

# The workloads of mt_place whose moves are known, run one after the
# other under the trace: want NAME EXPECTED CMD... runs CMD (a command
# of mt_place given its marks BEGIN and END last, or for "wakeup" the
# first of its rounds' marks) and records the moves the tasks it prints
# must have between the marks, together (one round of "wakeup" each):
# EXPECTED, "CAUSE/REASON FROM TO" moves separated by ";" ("" for none),
# an extended regular expression the whole list must match.  The marks
# count up from WANT_MARK.  $TMPD/wanted has a line a round:
# NAME@EXPECTED@PIDS@BEGIN@END.
WANT_MARK=${WANT_MARK:-0x5000}
want() {
	local name=$1 exp=$2 m=$((WANT_MARK)) r=0 pid
	shift 2
	if [ "$1" = wakeup ]; then
		for pid in $("$PLACE" "$@" "$m"); do
			echo "$name@$exp@$pid@$((m + 2 * r))@$((m + 2 * r + 1))" >>"$TMPD/wanted"
			r=$((r + 1))
		done
		WANT_MARK=$((m + 2 * r))
	else
		pid=$("$PLACE" "$@" "$m" $((m + 1)))
		# shellcheck disable=SC2086
		echo "$name@$exp@$(echo $pid)@$m@$((m + 1))" >>"$TMPD/wanted"
		WANT_MARK=$((m + 2))
	fi
}

# The rounds of NAME in TRACE whose moves differ from those wanted, as
# "PIDS: 'MOVES'" (nothing when all agree; "no rounds" if none ran).
unwanted() {
	local n=0 name pid b e got exp
	while IFS=@ read -r name exp pid b e; do
		[ "$name" = "$2" ] || continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		got=$(moves_of "$1" "$b" "$e" $pid | cut -d' ' -f2- |
		      awk '{ printf "%s%s", (NR > 1 ? ";" : ""), $0 }')
		echo "$got" | grep -Eqx -- "$exp" || echo "$pid: '$got'"
	done <"$TMPD/wanted"
	[ $n -gt 0 ] || echo "no rounds"
}

# cpu_mask CPU: the hex mask of CPU alone, for kthreads_to, in 32-bit
# groups ("80000000,00000000"): the shell's arithmetic is 64-bit and
# signed, and the kernel's cpumask files take at most 8 digits a group.
cpu_mask() {
	local n=$1 z=
	while [ "$n" -ge 32 ]; do
		z=$z,00000000 n=$((n - 32))
	done
	printf '%x%s\n' $((1 << n)) "$z"
}

# kthreads_to MASK: keep every other task off the CPUs a workload needs
# idle or to itself.  Every task allowed on all CPUs, the kernel's threads
# (rcu_sched wakes often) as the guest's own processes (init and the
# shells that started this test, which may sleep on one of them), and the
# workers of unbound workqueues are confined to the CPUs of MASK (hex),
# and so is this shell, until kthreads_back.
WQ_MASK=/sys/devices/virtual/workqueue/cpumask
kthreads_to() {
	local d p m t
	t=$(echo "$1" | tr -d ,)	# taskset takes one hex number
	# All CPUs, as taskset prints them, 32 at a time: (1 << 64) - 1
	# overflows the shell's 64 bits.
	KT_ALL= d=$(nproc)
	while [ "$d" -ge 32 ]; do
		KT_ALL=ffffffff$KT_ALL d=$((d - 32))
	done
	[ "$d" -gt 0 ] && KT_ALL=$(printf '%x' $(((1 << d) - 1)))$KT_ALL
	: >"$TMPD/kthreads"
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		m=$(taskset -p "$p" 2>/dev/null | sed 's/.*: //')
		[ "$m" = "$KT_ALL" ] || continue
		taskset -p "$t" "$p" >/dev/null 2>&1 && echo "$p $m" >>"$TMPD/kthreads"
	done
	: >"$TMPD/wq_mask"
	if [ -w "$WQ_MASK" ]; then
		cat "$WQ_MASK" >"$TMPD/wq_mask"
		echo "$1" >"$WQ_MASK"
	fi
	taskset -p "$t" $$ >/dev/null
}

kthreads_back() {
	local p m
	while read -r p m; do
		taskset -p "$m" "$p" >/dev/null 2>&1
	done <"$TMPD/kthreads"
	[ -s "$TMPD/wq_mask" ] && cat "$TMPD/wq_mask" >"$WQ_MASK"
	taskset -p "$KT_ALL" $$ >/dev/null
}

# wakee_flips_calm: a wakeup from an idle CPU's interrupt is affine only
# if the wakee's and the idle task's wakee_flips (distinct wakees, halved
# at most once a second) do not both look like many-to-many: wake_wide().
# Every process inherits its parent's flips, from a boot's worth of pid
# 1's.  This shell wakes one task ten times a second apart: its flips,
# and those of the processes it starts from then on, are down to a few.
# (Only a wakee allowed on more than one CPU counts: call it before
# kthreads_to.)
wakee_flips_calm() {
	local i=0
	mkfifo "$TMPD/flips"
	cat "$TMPD/flips" >/dev/null &
	exec 3>"$TMPD/flips"
	while [ $i -lt 10 ]; do
		usleep 1050000
		echo >&3
		i=$((i + 1))
	done
	exec 3>&-
	wait $!
}

# mt_fork_workload FILE: write the forking workload to FILE.  Run as
# "sh FILE top LIST FIFO", it waits for a line on FIFO, then moves
# itself between CPUs 0 and 1 (taskset changes its affinity while it
# waits), and forks two children that do the same and each a
# grandchild.  Every process it forks appends its pid to LIST: its
# descendants, exactly; its children go to LIST.children too, its
# grandchildren to LIST.leaves.
mt_fork_workload() {
	cat >"$1" <<'EOF'
LIST=$2
hop() {
	for i in 1 2 3; do
		taskset -p -c 1 $$ >/dev/null & echo $! >>"$LIST"; wait $!
		taskset -p -c 0 $$ >/dev/null & echo $! >>"$LIST"; wait $!
	done
}
case $1 in
top)
	read -r go <"$3"
	hop
	for c in 1 2; do
		sh "$0" child "$LIST" & echo "$!" >>"$LIST.children"; echo $! >>"$LIST"
	done
	wait ;;
child)
	hop
	sh "$0" leaf "$LIST" & echo $! >>"$LIST"; echo $! >>"$LIST.leaves"
	wait ;;
leaf)
	hop ;;
esac
EOF
}
