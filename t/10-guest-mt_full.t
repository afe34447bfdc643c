#!/bin/bash
# The guest's mt_full selftest (tools/testing/selftests/migrate_trace_lite/mt_full.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_full
