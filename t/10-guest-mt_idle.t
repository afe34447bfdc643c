#!/bin/bash
# The guest's mt_idle selftest (tools/testing/selftests/migrate_trace_lite/mt_idle.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_idle
