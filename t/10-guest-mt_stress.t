#!/bin/bash
# The guest's mt_stress selftest (tools/testing/selftests/migrate_trace_lite/mt_stress.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_stress
