#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/set_event_pid and event_fork: their forms read back,
# refusals that leave them as they were, changes only between a reset and
# a start; and a forking workload traced by its shell's pid: with
# event_fork its children and grandchild are caught and nobody else, as
# sched_migrate_reason saw every move of the same window; without, only
# the shell's own moves.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
if [ "$(nproc)" -lt 2 ]; then
	ktap_skip_all "needs 2 CPUs"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 40

P=$MT_DIR/set_event_pid
FK=$MT_DIR/event_fork
EV=$TRACING/events/sched/sched_migrate_reason
pids() { cat "$P"; }

mt_reset
check "mode of set_event_pid is 600" "$(stat -c %a "$P")" 600
check "mode of event_fork is 600" "$(stat -c %a "$FK")" 600
check "no pid is selected by default: every task" "$(pids | wc -c)" 0
check "event_fork is 0 by default" "$(cat "$FK")" 0
check "pids, sorted, each once" "$(wr "$P" "34 12
34")$(pids)" "ok12 34"
echo 7 >>"$P"
check "'>>' adds" "$(pids)" "7 12 34"
echo 5 >"$P"
check "'>' replaces" "$(pids)" 5
echo "" >>"$P"
check "'>>' of nothing changes nothing" "$(pids)" 5
echo >"$P"
check "'>' of a newline selects every task" "$(pids | wc -c)" 0
echo 9 >"$P"
: >"$P"
check "'>' writing nothing selects every task" "$(pids | wc -c)" 0
echo "12 34" >"$P"
for bad in abc -1 +5 12a 0x10 "12 abc" 4194304 99999999999999999999 "1,2"; do
	check "set_event_pid '$bad' is refused" "$(wr "$P" "$bad")" EINVAL
done
check "set_event_pid of 9 KiB is refused" "$("$HELPER" write-garbage "$P" 9000)" EINVAL
check "set_event_pid with an embedded NUL is refused" "$("$HELPER" write-nul "$P" 5)" EINVAL
check "the pids are unchanged by refused writes" "$(pids)" "12 34"
pids >"$TMPD/before"
pids >"$P"
check "read back and written again, they are the same pids" "$(pids)" "$(cat "$TMPD/before")"
check "event_fork 2 is refused" "$(wr "$FK" 2)$(cat "$FK")" EINVAL0
mt_start
check "set_event_pid is refused while tracing" "$(wr "$P" 1)" EBUSY
check "event_fork is refused while tracing" "$(wr "$FK" 1)" EBUSY
mt_stop
check "set_event_pid is refused after a trace, until a reset" "$(wr "$P" 1)" EBUSY
check "a trace states its pids" "$(mt_save "$TMPD/t0"; sed -n 's/^# pid_filter //p' "$TMPD/t0")" \
	"12 34"
mt_reset
echo >"$P"

# The workload (mt_fork_workload, in mt_lib.sh): its descendants'
# pids go to $LIST, its children's to $LIST.children, its grandchildren's
# to $LIST.leaves; it starts when $FIFO is written.
W=$TMPD/work.sh LIST=$TMPD/list FIFO=$TMPD/go
mt_fork_workload "$W"

# run_workload FORK EVENT TRACE: one trace of the workload, its pid in
# $TMPD/top; with EVENT, the event's lines of the window in $TMPD/ev.
run_workload() {
	rm -f "$LIST" "$LIST.children" "$LIST.leaves" "$FIFO"
	mkfifo "$FIFO"
	mt_reset
	sh "$W" top "$LIST" "$FIFO" &
	top=$!
	echo "$top" >"$TMPD/top"
	echo "$top" >"$P"
	echo "$1" >"$FK"
	if [ "$2" = 1 ]; then
		echo 0 >"$TRACING/tracing_on"
		echo 8192 >"$TRACING/buffer_size_kb"
		echo >"$TRACING/trace"
		echo 1 >"$EV/enable"
		echo 1 >"$TRACING/tracing_on"
	fi
	mt_start
	echo go >"$FIFO"
	wait "$top"
	mt_stop
	if [ "$2" = 1 ]; then
		echo 0 >"$TRACING/tracing_on"
		echo 0 >"$EV/enable"
		grep 'sched_migrate_reason:' "$TRACING/trace" >"$TMPD/ev"
	fi
	mt_save "$3"
	mt_reset
	echo >"$P"
	echo 0 >"$FK"
}

# Distinct pids of TRACE's moves, and how many moves each.
moves_by_pid() { mt_migrations "$1" | awk '{ n[$1]++ } END { for (p in n) print p, n[p] }' | sort; }
# Pids of the lines of STDIN ("PID ...") that are not in the files given.
not_in() { awk -v f="$*" 'BEGIN { n = split(f, fs, " ")
	for (i = 1; i <= n; i++) while ((getline p <fs[i]) > 0) want[p] = 1 }
	!($1 in want) { print $1 }'; }
# Whether every pid of FILE has moves in TRACE: prints those that have none.
unmoved() { awk -v t="$2" 'BEGIN { while ((getline l <t) > 0) { split(l, w, " "); n[w[1]] = 1 } }
	!($1 in n) { print $1 }' "$1"; }

T=$TMPD/trace
run_workload 1 0 "$T"
moves_by_pid "$T" >"$TMPD/bypid"
ktap_print_msg "  event_fork 1: $(wc -l <"$LIST") descendants," \
	"$(wc -l <"$TMPD/bypid") pids moved, $(mt_migrations "$T" | wc -l) moves"
check "the header states the pid and event_fork" \
	"$(sed -n 's/^# pid_filter //p; s/^# event_fork //p' "$T" | tr '\n' ' ')" \
	"$(cat "$TMPD/top") 1 "
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
check "nothing was lost" "$(mt_lost "$T")" "0 0"
check "every move is of the workload or a descendant" \
	"$(not_in "$TMPD/top" "$LIST" <"$TMPD/bypid" | head -3)" ""
check "the workload's shell moved" "$(unmoved "$TMPD/top" "$TMPD/bypid")" ""
check "each child moved" "$(unmoved "$LIST.children" "$TMPD/bypid" | head -3)" ""
check "each grandchild moved" "$(unmoved "$LIST.leaves" "$TMPD/bypid" | head -3)" ""

run_workload 0 0 "$T"
moves_by_pid "$T" >"$TMPD/bypid"
check "event_fork 0: the header has no event_fork line" "$(grep -c '^# event_fork' "$T")" 0
check "event_fork 0: only the workload's shell moved" \
	"$(awk '{ print $1 }' "$TMPD/bypid" | tr '\n' ' ')" "$(cat "$TMPD/top") "

if [ -d "$EV" ]; then
	run_workload 1 1 "$T"
	moves_by_pid "$T" >"$TMPD/bypid"
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) print substr($i, 5) }' "$TMPD/ev" |
		awk '{ n[$1]++ } END { for (p in n) print p, n[p] }' | sort >"$TMPD/ev_bypid"
	# The event saw every move: the workload's are the trace's.
	not_in "$TMPD/top" "$LIST" <"$TMPD/ev_bypid" >"$TMPD/others"
	awk -v f="$TMPD/others" 'BEGIN { while ((getline p <f) > 0) o[p] = 1 }
		!($1 in o)' "$TMPD/ev_bypid" >"$TMPD/ev_ours"
	ktap_print_msg "  the event saw $(awk '{ s += $2 } END { print s + 0 }' "$TMPD/ev_bypid")" \
		"moves of $(wc -l <"$TMPD/ev_bypid") pids;" \
		"$(wc -l <"$TMPD/others") not the workload's"
	check "with the event on, the trace's moves are the workload's" \
		"$(not_in "$TMPD/top" "$LIST" <"$TMPD/bypid" | head -3)" ""
	if [ -s "$TMPD/bypid" ] && cmp -s "$TMPD/bypid" "$TMPD/ev_ours"; then
		ktap_test_pass "per pid, the workload's moves in the trace equal the event's"
	else
		ktap_test_fail "per pid, the workload's moves in the trace equal the event's"
		diff "$TMPD/bypid" "$TMPD/ev_ours" | head -8 | sed 's/^/#   /'
	fi
else
	ktap_test_skip "no sched_migrate_reason event"
	ktap_test_skip "no sched_migrate_reason event"
fi

mt_start
mt_stop
mt_save "$T"
check "a trace of every task has no pid_filter line" "$(grep -c '^# pid_filter' "$T")" 0
mt_reset

ktap_finished
