#!/bin/bash
# The guest's mt_event selftest (tools/testing/selftests/migrate_trace_lite/mt_event.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_event
