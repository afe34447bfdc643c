#!/bin/sh
# Guest side of "make check": run every selftest, one KTAP file each.
out=$1
export MT_KEEP=$out
cd /guest || exit 1
for t in mt_debugfs.sh mt_migrations.sh mt_full.sh mt_dmesg.sh; do
	[ -f "$t" ] || continue
	echo "mt-guest: $t"
	sh "./$t" >"$out/${t%.sh}.tap" 2>&1
	echo "mt-guest: $t exit $?"
done
