#!/bin/sh
# Guest side of "make check" on a large topology: 32 CPUs as 2 NUMA nodes
# of 8 cores with 2 SMT threads.  The debugfs and full-buffer tests at
# many CPUs, the NUMA and core-scheduling workloads, the reasons of SMT
# placements and of balancing across nodes, a storm, the dump's
# cost at two buffer sizes; then, after the results are written, a panic
# on purpose for the dump on oops (armed by mt_dump_on_oops=40 on the
# kernel's command line).
. /guest/lib.sh
kunit_tap
export MT_STRESS_SECONDS=15
run_tests mt_debugfs mt_full mt_topology mt_smt mt_stress mt_dump mt_dmesg
touch /tmp/mt-panic
