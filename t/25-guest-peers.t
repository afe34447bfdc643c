#!/bin/bash
# The bench initramfs carries working peers for make bench: on the test
# kernel, Debian's perf, trace-cmd and bpftrace each attach once and
# receive every sched_migrate_task event fired through the bench path
# (harness/guest/peers.sh; make bench measures them); then all of them
# and two filtering ftrace instances read sched_migrate_reason at once,
# beside mt over a real workload, and their counts per (cause, reason)
# equal mt's but for the windows' edges (harness/guest/peers-why.sh).
. "$(dirname "$0")/lib.sh"
guest_tap peers check-peers
