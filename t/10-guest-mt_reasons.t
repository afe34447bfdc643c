#!/bin/bash
# The guest's mt_reasons selftest (tools/testing/selftests/migrate_trace_lite/mt_reasons.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_reasons
