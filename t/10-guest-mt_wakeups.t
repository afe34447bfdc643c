#!/bin/bash
# The guest's mt_wakeups selftest (tools/testing/selftests/migrate_trace_lite/mt_wakeups.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_wakeups
