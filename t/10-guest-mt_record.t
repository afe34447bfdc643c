#!/bin/bash
# The guest's mt_record selftest (tools/testing/selftests/migrate_trace_lite/mt_record.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_record
