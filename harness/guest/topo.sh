#!/bin/sh
# Guest side of "make check" on a large topology: 32 CPUs as 2 NUMA nodes
# of 8 cores with 2 SMT threads.  The debugfs and full-buffer tests at
# many CPUs, the NUMA and core-scheduling workloads, a storm; then, after
# the results are written, a panic on purpose for the dump on oops.
. /guest/lib.sh
kunit_tap
export MT_STRESS_SECONDS=15
run_tests mt_debugfs mt_full mt_topology mt_stress mt_dmesg
touch /tmp/mt-panic
