#!/bin/bash
# The bench initramfs carries working peers for make bench: on the test
# kernel, Debian's perf, trace-cmd and bpftrace each attach once and
# receive every sched_migrate_task event fired through the bench path
# (harness/guest/peers.sh; make bench measures them).
. "$(dirname "$0")/lib.sh"
guest_tap peers check-peers
