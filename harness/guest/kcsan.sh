#!/bin/sh
# Guest side of "make check" on the KCSAN kernel: readers and writers at
# once (trace_pipe, the flight recorder, the storm); then whether KCSAN
# ran and what it reported about our code.
. /guest/lib.sh
kunit_tap
# trace_pipe's stream over 5 buffers, not 20 (5 of the job's 8 minutes):
# 20,000 migrations read while written; the check guest streams 20.
export MT_PIPE_BUFFERS=5
run_tests mt_pipe mt_flight mt_filter mt_pidfilter mt_instances mt_stress

# ours_in FILE: print the KCSAN reports of the kernel log FILE that are
# ours, each followed by a line "@@", then "REPORTS OURS" on the last line.
# A report is ours when its title or a frame of its stacks names a function
# of our files (/guest/our-functions), "mt_log_slow_and_count+0x.." say,
# with a ".cold" or ".isra.0" part or not; not when a task of ours is just
# the one that ran ("Comm: mt_helper"), nor for the maple tree's mt_find().
# Nor when our function is only below an interrupt's entry in a stack
# (asm_sysvec_*, asm_common_interrupt, asm_exc_*): the unwinder goes on
# into the code the interrupt stopped, which took no part in the access.
ours_in() {
	awk -v names=/guest/our-functions '
		BEGIN { while ((getline n < names) > 0) ours[n] = 1 }
		function check(fn) { sub(/[.+].*/, "", fn); if (fn in ours) mine = 1 }
		{ line = $0; sub(/^\[[^]]*\] */, "", line) }
		line ~ /^BUG: KCSAN: / {
			on = 1; rep = ""; mine = 0; all++; below = 0
			t = line; sub(/^BUG: KCSAN: [^ ]+ in /, "", t)
			n = split(t, f, " / ")
			for (i = 1; i <= n; i++)
				check(f[i])
		}
		!on { next }
		{ rep = rep $0 "\n" }
		# Each access has a stack of its own, after a line that says which.
		line ~ / to 0x[0-9a-f]+ of [0-9]+ bytes by / { below = 0 }
		line ~ /^(\? )?asm_(sysvec_|common_interrupt|exc_)/ { below = 1 }
		!below && line ~ /^(\? )?[A-Za-z_][A-Za-z0-9_.]*\+0x/ {
			fn = line; sub(/^\? /, "", fn); check(fn)
		}
		line ~ /^=====/ { on = 0; if (mine) { n_ours++; printf "%s@@\n", rep } }
		END { print all + 0, n_ours + 0 }' "$1"
}

# A report of ours in a made-up log: the check can tell.
sample_log() {
	fn=$(head -n 1 /guest/our-functions)
	cat <<-LOG
	[   1.000000] ==================================================================
	[   1.000001] BUG: KCSAN: data-race in find_vma / mt_find
	[   1.000002]  mt_find+0x1f/0x40
	[   1.000003] ==================================================================
	[   2.000000] ==================================================================
	[   2.000001] BUG: KCSAN: data-race in get_page_from_freelist / hrtimer_wakeup
	[   2.000002]  $fn.isra.0+0x1f/0x40
	[   2.000003] ==================================================================
	[   3.000000] ==================================================================
	[   3.000001] BUG: KCSAN: data-race in __tmigr_cpu_activate / tmigr_handle_remote
	[   3.000002] read to 0xffff88803e91f2c4 of 1 bytes by interrupt on cpu 0:
	[   3.000003]  tmigr_handle_remote+0x1f/0x40
	[   3.000004]  asm_sysvec_apic_timer_interrupt+0x1a/0x20
	[   3.000005]  $fn+0x1f/0x40
	[   3.000006] ==================================================================
	LOG
}

dmesg >/tmp/kmsg.txt
ours_in /tmp/kmsg.txt >/tmp/kcsan.ours
set -- $(tail -n 1 /tmp/kcsan.ours)
all=$1 ours=$2
sample_log >/tmp/sample.txt
{
	echo "TAP version 13"
	echo "1..4"
	if [ "$(cat /sys/kernel/debug/kcsan 2>/dev/null | sed -n 's/^enabled: //p')" = 1 ]; then
		echo "ok 1 KCSAN is enabled"
	else
		echo "not ok 1 KCSAN is enabled"
	fi
	if [ "$ours" = 0 ]; then
		echo "ok 2 no KCSAN report involves migrate_trace_lite ($all about other code)"
	else
		echo "not ok 2 no KCSAN report involves migrate_trace_lite: $ours of $all do"
		sed '$d' /tmp/kcsan.ours | head -n 60 | sed 's/^/# /'
	fi
	if dmesg | grep -q 'kcsan: enabled early'; then
		echo "ok 3 KCSAN watched from boot"
	else
		echo "not ok 3 KCSAN watched from boot"
	fi
	if [ -s /guest/our-functions ] &&
	   [ "$(ours_in /tmp/sample.txt | tail -n 1)" = "3 1" ]; then
		echo "ok 4 the check tells a report of ours from the maple tree's and an interrupt's"
	else
		echo "not ok 4 the check tells a report of ours from the maple tree's and an interrupt's"
	fi
} >"$MT_KEEP/kcsan.tap"
# Every report, in full, for whoever looks into one.
awk '{ l = $0; sub(/^\[[^]]*\] */, "", l) }
     l ~ /^BUG: KCSAN: / { on = 1 } on { print } on && l ~ /^=====/ { on = 0 }' \
	/tmp/kmsg.txt >"$MT_KEEP/kcsan-reports.txt"
grep 'BUG: KCSAN:' /tmp/kmsg.txt | sed 's/^\[[^]]*\] //' | sort | uniq -c >"$MT_KEEP/kcsan-others.txt"
