#!/bin/sh
# Guest side of "make check": run every selftest, one KTAP file each.
out=$1
export MT_KEEP=$out
cd /guest || exit 1
# The KUnit suites ran at boot; their KTAP is in the kernel log.
dmesg | sed 's/^\[[^]]*\] //' | awk '/^KTAP version/ { on = 1 } on' |
	grep -E '^ *(KTAP|TAP|ok|not ok|1\.\.|#)' >"$out/kunit.tap"
for t in mt_debugfs.sh mt_migrations.sh mt_full.sh mt_stat.sh mt_stress.sh mt_dmesg.sh; do
	[ -f "$t" ] || continue
	echo "mt-guest: $t"
	sh "./$t" >"$out/${t%.sh}.tap" 2>&1
	echo "mt-guest: $t exit $?"
done
