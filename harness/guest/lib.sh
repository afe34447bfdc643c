#!/bin/sh
# Shared by the guest jobs: run selftests, one KTAP file each in OUT, and
# keep the KUnit results of the boot.
export MT_KEEP=$1
cd /guest || exit 1

kunit_tap() {
	dmesg | sed 's/^\[[^]]*\] //' | awk '/^KTAP version/ { on = 1 } on' |
		grep -E '^ *(KTAP|TAP|ok|not ok|1\.\.|#)' >"$MT_KEEP/kunit.tap"
}

run_tests() {
	for t in "$@"; do
		echo "mt-guest: $t"
		sh "./$t.sh" >"$MT_KEEP/$t.tap" 2>&1
		echo "mt-guest: $t exit $?"
	done
}
