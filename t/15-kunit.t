#!/bin/bash
# The KUnit suite of kernel/migrate_trace_lite_test.c, run at the guest's
# boot; its KTAP comes from the kernel log.
. "$(dirname "$0")/lib.sh"
guest_tap kunit
