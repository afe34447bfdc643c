#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/filter: its forms read back, refusals that leave it as
# it was, changes only between a reset and a start, and a filtered trace
# that holds exactly the selected moves the statistics count in the same
# window, states its filter and loses nothing.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
if [ ! -d "$MS_DIR" ]; then
	ktap_skip_all "no $MS_DIR: kernel without CONFIG_SNSC_LITE_MIGRATION_STAT"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 30

F=$MT_DIR/filter
filter() { cat "$F"; }

mt_reset
check "mode of filter is 600" "$(stat -c %a "$F")" 600
check "the filter selects every move by default" "$(filter)" all
check "'0' selects nothing" "$(wr "$F" 0)$(filter)" ok0
check "a cause" "$(wr "$F" try_to_wake_up)$(filter)" oktry_to_wake_up
echo detach_tasks/lb_busy_load >>"$F"
check "'>>' adds a cause's reason" "$(filter)" "try_to_wake_up detach_tasks/lb_busy_load"
echo '!detach_tasks/lb_busy_load' >>"$F"
check "'!' takes it out" "$(filter)" try_to_wake_up
echo '!try_to_wake_up/none' >"$F"
check "'>' with '!' first starts from every move" \
	"$(filter | tr ' ' '\n' | grep -c -e '^try_to_wake_up/none$' \
		-e '^try_to_wake_up/idle_prev$' -e '^wake_up_new_task$' -e '^detach_tasks$')" 3
filter >"$TMPD/before"
for bad in bogus "try_to_wake_up bogus" detach_tasks/idle_prev try_to_wake_up/ \
	   /idle_prev '!' TRY_TO_WAKE_UP "" "!0"; do
	check "filter '$bad' is refused" "$(wr "$F" "$bad")" EINVAL
done
check "filter of 4 KiB garbage is refused" "$("$HELPER" write-garbage "$F" 4096)" EINVAL
check "filter with an embedded NUL is refused" "$("$HELPER" write-nul "$F" 5)" EINVAL
check "the filter is unchanged by refused writes" "$(filter)" "$(cat "$TMPD/before")"
filter >"$F"
check "read back and written again, it is the same filter" "$(filter)" "$(cat "$TMPD/before")"

# A filtered trace beside the statistics of the same window: wakeups but
# those to an idle previous CPU, and fork placements.
SEL="try_to_wake_up !try_to_wake_up/idle_prev wake_up_new_task"
selected() {
	awk '($2 ~ /^try_to_wake_up\// && $2 != "try_to_wake_up/idle_prev") ||
	     $2 == "wake_up_new_task"'
}
wr "$F" "$SEL" >/dev/null
wr "$MS_DIR/reset" 0 >/dev/null
wr "$MS_DIR/period_msec" 100 >/dev/null
mt_start
check "the filter is refused while tracing" "$(wr "$F" all)" EBUSY
wr "$MS_DIR/enable" 1 >/dev/null
"$HELPER" mixed 2 /bin/true
[ "$(nproc)" -ge 3 ] && "$HELPER" affinity 10 1 2 0 0x2001 0x2002 >/dev/null
sleep 0.2
wr "$MS_DIR/enable" 0 >/dev/null
mt_stop
check "the filter is refused after a trace, until a reset" "$(wr "$F" all)" EBUSY
S=$TMPD/stat T=$TMPD/trace
cat "$MS_DIR/stat" >"$S"
mt_save "$T"
check "the header states the filter" "$(sed -n 's/^# filter //p' "$T")" "$(filter)"
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
check "nothing was lost" "$(mt_lost "$T")" "0 0"
check "only the selected moves are in the trace" \
	"$(mt_migrations "$T" | awk '!(($4 == "try_to_wake_up" && $5 != "idle_prev") ||
				      $4 == "wake_up_new_task")' | head -3)" ""
ms_rows "$S" | sort >"$TMPD/s_all"
mt_rows "$T" "$S" | sort >"$TMPD/t_all"
check "the statistics counted moves the filter left out" \
	"$(awk '$2 !~ /\// && $2 != "try_to_wake_up" && $2 != "wake_up_new_task"' \
		"$TMPD/s_all" | wc -l | awk '{ print ($1 > 0) ? "yes" : "no" }')" yes
selected <"$TMPD/s_all" >"$TMPD/s_sel"
selected <"$TMPD/t_all" >"$TMPD/t_sel"
if [ -s "$TMPD/s_sel" ] && cmp -s "$TMPD/s_sel" "$TMPD/t_sel"; then
	ktap_test_pass "every period's counts of the selected moves equal the trace's"
else
	ktap_test_fail "every period's counts of the selected moves equal the trace's"
	diff "$TMPD/s_sel" "$TMPD/t_sel" | head -8 | sed 's/^/#   /'
fi
mt_reset
wr "$MS_DIR/reset" 0 >/dev/null
wr "$MS_DIR/period_msec" 1000 >/dev/null
check "after a reset the filter may change" "$(wr "$F" all)$(filter)" okall
mt_start
mt_stop
mt_save "$T"
check "a trace of every move has no filter line" "$(grep -c '^# filter' "$T")" 0
mt_reset

ktap_finished
