#!/bin/sh
# Shared by the guest jobs: run selftests, one KTAP file each in OUT, and
# keep the KUnit results of the boot.
export MT_KEEP=$1
cd /guest || exit 1

# The KTAP lines of the boot's log.  The lines that explain a failed
# assertion follow it unmarked, in the same printk record (so with its
# time stamp): they become diagnostics too.
kunit_tap() {
	dmesg | awk '
		{
			ts = ""
			if (match($0, /^\[[^]]*\] /)) {
				ts = substr($0, 1, RLENGTH)
				$0 = substr($0, RLENGTH + 1)
			}
		}
		/^KTAP version/ { on = 1 }
		!on { next }
		/^ *(KTAP|TAP|ok|not ok|1\.\.|#)/ {
			print
			failed = /(ASSERTION|EXPECTATION) FAILED/ ? ts : ""
			next
		}
		failed != "" && ts == failed && NF { sub(/^ */, "&# "); print }' >"$MT_KEEP/kunit.tap"
}

# Each test's exit code and seconds (of uptime) go to the job's log.
run_tests() {
	local t rc start
	for t in "$@"; do
		echo "mt-guest: $t"
		start=$(cut -d. -f1 /proc/uptime)
		sh "./$t.sh" >"$MT_KEEP/$t.tap" 2>&1
		rc=$?
		echo "mt-guest: $t exit $rc ($(($(cut -d. -f1 /proc/uptime) - start))s)"
	done
}
