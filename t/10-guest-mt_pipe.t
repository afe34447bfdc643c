#!/bin/bash
# The guest's mt_pipe selftest (tools/testing/selftests/migrate_trace_lite/mt_pipe.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_pipe
