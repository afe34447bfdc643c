#!/bin/sh
# Guest side of "make run": the mixed demo workload under migration_trace,
# trace and CPU list saved for the host-side report.
out=$1
MT=/sys/kernel/debug/migration_trace
SECS=${MT_DEMO_SECONDS:-8}
echo 0 >$MT/reset
echo 1 >$MT/enable || exit 1
echo 1 >$MT/mark
/guest/mt_helper mixed "$SECS" /bin/true
echo 2 >$MT/mark
echo 0 >$MT/enable
cat $MT/trace >"$out/trace"
nproc >"$out/nr_cpus"
