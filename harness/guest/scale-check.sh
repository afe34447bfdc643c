#!/bin/sh
# Guest side of "make check-scale": 64 CPUs as 2 NUMA nodes of 2 LLCs of
# 8 cores with 2 SMT threads.  The topology tests (the trace's topology
# lines, NUMA balancing and core scheduling, the SMT placements' reasons
# in an LLC and the balance between nodes), the storm of mt_stress,
# trace_pipe's order and loss checks (mt_pipe, its stream over every
# CPU), the dump's cost; then,
# after the results are written, a panic on purpose for the dump on oops
# (armed by mt_dump_on_oops=40 on the kernel's command line).
. /guest/lib.sh
kunit_tap
export MT_STRESS_SECONDS=15
# mt_pipe's stream: 2 buffers of every CPU (131,072 migrations, 1.6 x
# the 4-CPU guest's 20), by 32 processes over the 64 CPUs.
export MT_PIPE_BUFFERS=2 MT_PIPE_PROCS=32
run_tests mt_debugfs mt_topology mt_smt mt_stress mt_pipe mt_dump mt_dmesg
touch /tmp/mt-panic
