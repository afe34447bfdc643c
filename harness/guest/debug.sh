#!/bin/sh
# Guest side of "make check" on the debug kernel (lockdep, KASAN, UBSAN):
# the focused pass.  mt_dmesg.sh, last, fails on any report they made.
. /guest/lib.sh
out=$1
kunit_tap
# trace_pipe's stream over 5 buffers, not 20: under KASAN and lockdep each
# event costs so much that 20 took 7 of the job's 15 minutes; the check
# guest streams 20.
export MT_PIPE_BUFFERS=5
run_tests mt_debugfs mt_full mt_pipe mt_flight mt_alloc mt_filter mt_pidfilter mt_instances mt_stress \
	mt_event mt_dmesg
# The checkers were really on, and lockdep still validated at the end
# (it turns itself off after its first report).  kmemleak is left out:
# under TCG it slowed the boot so much that ACPI's AML loops timed out.
{
	echo "TAP version 13"
	echo "1..3"
	n=0
	for what in "KernelAddressSanitizer initialized:KASAN is active" \
		    "Lock dependency validator:lockdep is active"; do
		n=$((n + 1))
		if dmesg | grep -q "${what%%:*}"; then
			echo "ok $n ${what#*:}"
		else
			echo "not ok $n ${what#*:}"
		fi
	done
	if [ "$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats 2>/dev/null)" = 1 ]; then
		echo "ok 3 lockdep still validating at the end (debug_locks 1)"
	else
		echo "not ok 3 lockdep still validating at the end (debug_locks 1)"
	fi
} >"$out/checkers.tap"
