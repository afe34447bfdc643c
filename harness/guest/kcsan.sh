#!/bin/sh
# Guest side of "make check" on the KCSAN kernel: readers and writers at
# once (trace_pipe, the flight recorder, the storm); then whether KCSAN
# ran and what it reported about our code.
. /guest/lib.sh
kunit_tap
run_tests mt_pipe mt_flight mt_stress
# A report is ours when its stack names our functions (a frame such as
# "mt_log_slow_and_count+0x..") or files; not when a task of ours is just the
# one that ran ("Comm: mt_helper").
dmesg | awk '/BUG: KCSAN:/ { on = 1; rep = "" }
	     on { rep = rep $0 "\n" }
	     on && /^[^ ]*\[[^]]*\] ==========/ && rep ~ /====.*\n.*====/ { on = 0; print rep "@@" }' \
	>/tmp/kcsan.reports
{
	echo "TAP version 13"
	echo "1..3"
	if [ "$(cat /sys/kernel/debug/kcsan 2>/dev/null | sed -n 's/^enabled: //p')" = 1 ]; then
		echo "ok 1 KCSAN is enabled"
	else
		echo "not ok 1 KCSAN is enabled"
	fi
	n=$(grep -c 'BUG: KCSAN:' /tmp/kcsan.reports)
	ours=$(awk 'BEGIN { RS = "@@" } /[ _]m[ts]_[A-Za-z0-9_]+\+0x|migrate_trace_lite/ { n++ } END { print n + 0 }' \
		/tmp/kcsan.reports)
	if [ "$ours" = 0 ]; then
		echo "ok 2 no KCSAN report involves migrate_trace_lite ($n about other code)"
	else
		echo "not ok 2 no KCSAN report involves migrate_trace_lite: $ours do"
		awk 'BEGIN { RS = "@@" } /[ _]m[ts]_[A-Za-z0-9_]+\+0x|migrate_trace_lite/' /tmp/kcsan.reports |
			head -40 | sed 's/^/# /'
	fi
	if dmesg | grep -q 'kcsan: enabled early'; then
		echo "ok 3 KCSAN watched from boot"
	else
		echo "not ok 3 KCSAN watched from boot"
	fi
} >"$MT_KEEP/kcsan.tap"
grep 'BUG: KCSAN:' /tmp/kcsan.reports | sort | uniq -c >"$MT_KEEP/kcsan-others.txt"
