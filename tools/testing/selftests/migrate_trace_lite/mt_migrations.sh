#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/trace content: exact counts for a known workload, causes,
# fork and rename events, RT push/pull, and equality with ftrace's
# sched:sched_migrate_task over the same window.

. "$(dirname "$0")/mt_lib.sh"

ROUNDS=50
ktap_print_header
mt_require
ktap_set_plan 16
NCPU=$(nproc)

ftrace=no
if [ -d "$TRACING/events/sched/sched_migrate_task" ]; then
	ftrace=yes
	ftrace_start
fi

mt_reset
mt_start
child=
if [ "$NCPU" -ge 3 ]; then
	child=$("$HELPER" affinity $ROUNDS 1 2 0 0x1001 0x1002)
fi
renamed=$("$HELPER" comm mt_renamed)
[ "$NCPU" -ge 2 ] && "$HELPER" fifo 6 1500
"$HELPER" mixed 3 /bin/true
mt_stop
[ $ftrace = yes ] && ftrace_stop "$TMPD/ftrace"
T=$TMPD/trace
mt_save "$T"
ktap_print_msg "trace: $(grep -vc '^#' "$T") events, $(mt_migrations "$T" | wc -l) migrations"

# 1-3: the affinity ping-pong, between its marks.
if [ -n "$child" ]; then
	mt_markwin() {
		awk -v b=0x00001001 -v e=0x00001002 -v pid="$child" '
		/^# cause / { cause[$3] = $4; next }
		/^#/ { next }
		$7 == b { on = 1 } $7 == e { on = 0 }
		on && $3 != "." && $5 == pid { print $3 "-" $4, cause[$6], $7 }
		' "$T"
	}
	mt_markwin >"$TMPD/pp"
	check "affinity ping-pong: $ROUNDS round trips are $((2 * ROUNDS)) migrations" \
		"$(wc -l <"$TMPD/pp")" $((2 * ROUNDS))
	check "affinity ping-pong: CPUs alternate 1->2, 2->1" \
		"$(cut -d' ' -f1 "$TMPD/pp" | uniq -c | wc -l)" $((2 * ROUNDS))
	first=$(head -1 "$TMPD/pp" | cut -d' ' -f1)
	moves=$(cut -d' ' -f1 "$TMPD/pp" | sort -u | tr '\n' ' ')
	check "affinity ping-pong: first move is 1->2, all moves 1<->2" \
		"$first $moves" "1-2 1-2 2-1 "
	# Running, the task is moved by the stopper; queued but not running,
	# by affine_move_task() itself: both are the affinity change.
	check "affinity ping-pong: causes are the affinity-change ones" \
		"$(cut -d' ' -f2 "$TMPD/pp" |
		   grep -cv -e '^migration_cpu_stop$' -e '^affine_move_task$')" 0
	ktap_print_msg "  causes: $(cut -d' ' -f2 "$TMPD/pp" | sort | uniq -c | tr -s ' \n' '  ')"
else
	for i in 1 2 3 4; do ktap_test_skip "affinity ping-pong needs 3 CPUs"; done
fi

# 5-6: fork and rename.
check "fork shows as copy_process" \
	"$(mt_events "$T" copy_process |
	   awk -v p="$renamed" '$1 == p { n++ } END { print n + 0 }')" 1
check "prctl(PR_SET_NAME) shows as set_task_comm" \
	"$(mt_events "$T" set_task_comm | awk -v p="$renamed" '$1 == p { print $3 }')" mt_renamed

# 7-8: RT push and pull.
if [ "$NCPU" -ge 2 ]; then
	for c in push_rt_task pull_rt_task; do
		n=$(mt_migrations "$T" | awk -v c=$c '$4 == c { n++ } END { print n + 0 }')
		check "SCHED_FIFO load yields $c migrations" "$([ "$n" -gt 0 ] && echo yes)" yes
		ktap_print_msg "  $c: $n"
	done
else
	ktap_test_skip "RT push needs 2 CPUs"
	ktap_test_skip "RT pull needs 2 CPUs"
fi

# 9-10: equal to ftrace, task by task, for the tasks created in the window
# (user tasks; kernel threads may outlive the window).
if [ $ftrace = yes ]; then
	mt_ftrace_compare "$T" "$TMPD/ftrace"
else
	ktap_test_skip "no ftrace sched_migrate_task event"
	ktap_test_skip "no ftrace sched_migrate_task event"
fi

# 11-16: trace-wide properties.
check "one start_sched_clock per online CPU" \
	"$(awk '$6 == "start_sched_clock"' "$T" | wc -l)" "$NCPU"
check "task_list names init (pid 1)" \
	"$(mt_events "$T" task_list | awk '$1 == 1 { print $3 }')" init
check "events are in time order" \
	"$(grep -v '^#' "$T" | cut -d' ' -f1 | sort -c 2>&1 && echo sorted)" sorted
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
check "every migration names a cause of the header" \
	"$(awk '/^# cause /{ok[$3]=1; next} /^#/{next}
		$3 != "." && !($6 in ok) { n++ } END { print n + 0 }' "$T")" 0
check "nothing dropped" "$(sed -n 's/^# dropped //p' "$T")" 0
# Keep the trace for host-side checks of the analysis tools.
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/trace"

ktap_finished
