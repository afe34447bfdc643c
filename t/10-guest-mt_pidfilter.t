#!/bin/bash
# The guest's mt_pidfilter selftest (tools/testing/selftests/migrate_trace_lite/mt_pidfilter.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_pidfilter
