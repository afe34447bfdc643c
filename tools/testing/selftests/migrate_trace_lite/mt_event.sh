#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The trace event sched:sched_migrate_reason, read through tracefs: its
# format gives user space every cause's and reason's number with its
# name, it works with mt and mstat off (enabling it turns the hooks on),
# prints the names of causes and reasons, ftrace's filter selects by
# cause, each sched_migrate_task has its reason right before it, and
# with mt running over the same window its per-(cause, reason) counts
# for the window's user tasks equal mt's.  On a kernel with the hooks
# alone (CONFIG_SNSC_LITE_MIGRATION_HOOKS, the series' first part, no
# mt and no mstat), the checks that need no mt.

. "$(dirname "$0")/mt_lib.sh"

EV=$TRACING/events/sched/sched_migrate_reason
MIG=$TRACING/events/sched/sched_migrate_task
MS_DIR=/sys/kernel/debug/migration_stat

ktap_print_header
if [ ! -d "$EV" ]; then
	ktap_skip_all "no $EV: no CONFIG_SNSC_LITE_MIGRATION_HOOKS or" \
		"CONFIG_TRACEPOINTS, or tracefs not mounted"
	exit "$KSFT_SKIP"
fi
if [ -d "$MT_DIR" ]; then
	mt_require
	ktap_set_plan 10
else
	# The hooks alone: the event is their only consumer.
	[ -x "$HELPER" ] || { ktap_skip_all "mt_helper not built"; exit "$KSFT_SKIP"; }
	ktap_print_msg "no $MT_DIR: the event alone (the hooks without mt and mstat)"
	ktap_set_plan 7
fi

# ev_run FILE CMD...: the event alone on a clean buffer while CMD runs;
# its lines to FILE.
ev_run() {
	out=$1
	shift
	echo 0 >"$TRACING/tracing_on"
	echo 8192 >"$TRACING/buffer_size_kb"
	echo >"$TRACING/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$TRACING/tracing_on"
	"$@"
	echo 0 >"$TRACING/tracing_on"
	echo 0 >"$EV/enable"
	cat "$TRACING/trace" >"${out}_all"
	grep 'sched_migrate_reason:' "${out}_all" >"$out"
}

# The event's lines as "PID CAUSE REASON".
ev_fields() {
	awk '{
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2]
		}
		print v["pid"], v["cause"], v["reason"]
	}' "$1"
}

workload() {
	"$HELPER" mixed 3 /bin/true
	[ "$(nproc)" -ge 2 ] && "$HELPER" fifo 4 500
	return 0
}

# The workload, and the machine's own moves beside it for a second.
workload_all() {
	workload
	sleep 1
}

# 1: the print fmt as trace-cmd, perf and Perfetto parse it: numbers
# paired with names, as many as the trace's header names (reason 0 is
# "none" there), and no enumerator left for them to resolve.  Without mt,
# no header: each number once, with one name.
fmt=$(grep '^print fmt:' "$EV/format")
pairs=$(echo "$fmt" | grep -o '{ [0-9]*, "[a-z_0-9]*" }' | tr -d '{},"' |
	awk '{ print $1, $2 }' | sort -u)
if [ -d "$MT_DIR" ]; then
	mt_reset
	mt_start
	mt_stop
	mt_save "$TMPD/header"
	ours=$(awk '/^# (cause|reason) / { print $3, $4 } END { print 0, "none" }' \
		"$TMPD/header" | sort -u)
	same=$([ "$pairs" = "$ours" ] && echo same || echo different)
	check "the format pairs each cause's and reason's number with its name" \
		"$(echo "$fmt" | grep -c 'MT_') $same $(echo "$pairs" | wc -l)" \
		"0 same $(echo "$ours" | wc -l)"
	if [ "$same" != same ]; then
		echo "$pairs" >"$TMPD/pairs"
		echo "$ours" >"$TMPD/ours"
		diff "$TMPD/ours" "$TMPD/pairs" | head -5 | sed 's/^/#   /'
	fi
	mt_reset
	mt_stop
else
	check "the format pairs numbers with names, no enumerator left" \
		"$(echo "$fmt" | grep -c 'MT_') $(some "$(echo "$pairs" | wc -l)")" "0 yes"
fi

[ -d "$MS_DIR" ] && echo 0 >"$MS_DIR/enable"
# 2-4: the event alone.
on="$(cat "$MT_DIR/enable" 2>/dev/null || echo 0)"
on="$on $(cat "$MS_DIR/enable" 2>/dev/null || echo 0)"
check "mt and mstat are off" "$on" "0 0"
ev_run "$TMPD/alone" workload
n=$(wc -l <"$TMPD/alone")
ktap_print_msg "  the event alone: $n moves:" \
	"$(ev_fields "$TMPD/alone" | awk '{ print $2 }' | sort | uniq -c | tr -s ' \n' '  ')"
check "with mt and mstat off, the event sees moves of try_to_wake_up" \
	"$(some "$(ev_fields "$TMPD/alone" | grep -c ' try_to_wake_up ')")" yes
check "every line names its cause and reason" \
	"$(ev_fields "$TMPD/alone" | awk '$2 !~ /^[a-z_]+$/ || $3 !~ /^[a-z_]+$/' | head -3)" ""

# 5-6: ftrace's filter on cause 1, try_to_wake_up.
echo 'cause == 1' >"$EV/filter"
ev_run "$TMPD/filtered" workload
echo 0 >"$EV/filter"
check "the filter cause == 1 keeps moves" \
	"$(some "$(wc -l <"$TMPD/filtered")")" yes
check "the filter cause == 1 keeps only try_to_wake_up" \
	"$(ev_fields "$TMPD/filtered" | awk '$2 != "try_to_wake_up"' | head -3)" ""

# 7: each sched_migrate_task has its reason right before it, on its CPU
# (the hook fires in the same interrupts-off section as set_task_cpu()),
# and each reason but a new task's placement (__set_task_cpu(), no
# sched_migrate_task) is followed by its sched_migrate_task.  Both events
# start and stop together with tracing_on: only a CPU's first and last
# line may lack its partner.
echo 1 >"$MIG/enable"
ev_run "$TMPD/paired" workload_all
echo 0 >"$MIG/enable"
grep -h 'sched_migrate_\(task\|reason\):' "$TMPD/paired_all" | awk '
	{
		# The CPU is the first field that is only "[N]".
		cpu = ""
		delete v
		for (i = 1; i <= NF; i++) {
			if (cpu == "" && $i ~ /^\[[0-9]+\]$/)
				cpu = $i
			split($i, kv, "=")
			v[kv[1]] = kv[2]
		}
		key = v["pid"] " " v["orig_cpu"] " " v["dest_cpu"]
		seen[cpu]++
		if ($0 ~ /sched_migrate_task:/) {
			moves++
			if (last[cpu] != "reason " key && seen[cpu] > 1)
				bad++
		} else if (last[cpu] ~ /^reason/ && last_cause[cpu] != "wake_up_new_task") {
			bad++
		}
		last[cpu] = ($0 ~ /sched_migrate_task:/ ? "task " : "reason ") key
		last_cause[cpu] = v["cause"]
		if (bad && !shown++)
			print "#   unpaired on CPU " cpu ": " $0 >"/dev/stderr"
	}
	END { print moves + 0, bad + 0 }' >"$TMPD/pairs" 2>"$TMPD/unpaired"
cat "$TMPD/unpaired"
read -r moves unpaired <"$TMPD/pairs"
ktap_print_msg "  $moves sched_migrate_task lines, $unpaired unpaired"
if [ "$(nproc)" -lt 2 ]; then
	ktap_test_skip "one CPU: no moves to pair"
else
	check "every sched_migrate_task has its sched_migrate_reason just before it" \
		"$(some "$moves") $unpaired" "yes 0"
fi

if [ ! -d "$MT_DIR" ]; then
	ktap_finished
	exit
fi

# 8-11: beside mt, over the same window and a little more.
mt_reset
both() {
	mt_start
	workload
	mt_stop
}
ev_run "$TMPD/both" both
T=$TMPD/trace
mt_save "$T"
check "mt lost nothing" "$(mt_lost "$T")" "0 0"
# The user tasks mt saw created: they move only inside the window.
mt_events "$T" copy_process | awk '{ print $1 }' | sort -u |
	while read -r p; do mt_is_kthread "$p" || echo "$p"; done >"$TMPD/pids"
mt_migrations "$T" | awk -v f="$TMPD/pids" '
	BEGIN { while ((getline p <f) > 0) want[p] = 1 }
	$1 in want { n[$4 " " $5]++ }
	END { for (k in n) print k, n[k] }' | sort >"$TMPD/ours"
ev_fields "$TMPD/both" | awk -v f="$TMPD/pids" '
	BEGIN { while ((getline p <f) > 0) want[p] = 1 }
	$1 in want { n[$2 " " $3]++ }
	END { for (k in n) print k, n[k] }' | sort >"$TMPD/theirs"
ktap_print_msg "  $(wc -l <"$TMPD/pids") tasks," \
	"$(awk '{ s += $3 } END { print s + 0 }' "$TMPD/ours") moves by mt in" \
	"$(wc -l <"$TMPD/ours") (cause, reason) pairs"
check "mt saw moves of the window's tasks" "$(some "$(wc -l <"$TMPD/ours")")" yes
if cmp -s "$TMPD/ours" "$TMPD/theirs"; then
	ktap_test_pass "per (cause, reason), the event's counts equal mt's"
else
	ktap_test_fail "per (cause, reason), the event's counts equal mt's"
	diff "$TMPD/ours" "$TMPD/theirs" | head -10 | sed 's/^/#   /'
fi
mt_reset

ktap_finished
