#!/bin/sh
# Guest side of "make check" on the debug kernel (lockdep, KASAN, UBSAN):
# the focused pass.  mt_dmesg.sh, last, fails on any report they made.
out=$1
export MT_KEEP=$out
cd /guest || exit 1
dmesg | sed 's/^\[[^]]*\] //' | awk '/^KTAP version/ { on = 1 } on' |
	grep -E '^ *(KTAP|TAP|ok|not ok|1\.\.|#)' >"$out/kunit.tap"
for t in mt_debugfs.sh mt_full.sh mt_stress.sh mt_dmesg.sh; do
	echo "mt-guest: $t"
	sh "./$t" >"$out/${t%.sh}.tap" 2>&1
	echo "mt-guest: $t exit $?"
done
# The checkers were really on, and lockdep still validated at the end
# (it turns itself off after its first report).
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
