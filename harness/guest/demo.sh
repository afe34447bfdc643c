#!/bin/sh
# Guest side of "make run": the mixed demo workload under migration_trace
# and migration_stat (100 ms periods); trace and stat saved for the
# host-side report.
out=$1
MT=/sys/kernel/debug/migration_trace
MS=/sys/kernel/debug/migration_stat
SECS=${MT_DEMO_SECONDS:-8}
echo 0 >$MT/reset
echo 0 >$MS/reset
echo 100 >$MS/period_msec
echo 1 >$MT/enable || exit 1
echo 1 >$MS/enable || exit 1
echo 1 >$MT/mark
/guest/mt_helper mixed "$SECS" /bin/true
echo 2 >$MT/mark
sleep 0.2
echo 0 >$MS/enable
echo 0 >$MT/enable
cat $MT/trace >"$out/trace"
cat $MS/stat >"$out/stat"
# The trace does not name its kernel: the report takes it from here.
uname -a >"$out/uname"
