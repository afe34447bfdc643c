#!/bin/bash
# The guest's mt_filter selftest (tools/testing/selftests/migrate_trace_lite/mt_filter.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_filter
