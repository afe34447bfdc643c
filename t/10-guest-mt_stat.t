#!/bin/bash
# The guest's mt_stat selftest (tools/testing/selftests/migrate_trace_lite/mt_stat.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_stat
