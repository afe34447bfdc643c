#!/bin/bash
# The KUnit suites of kernel/migrate_trace_lite*_test.c, run at the guest's
# boot; its KTAP comes from the kernel log.
. "$(dirname "$0")/lib.sh"
guest_tap kunit
