#!/bin/bash
# The guest's mt_schedstat selftest (tools/testing/selftests/migrate_trace_lite/mt_schedstat.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_schedstat
