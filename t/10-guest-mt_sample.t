#!/bin/bash
# The guest's mt_sample selftest (tools/testing/selftests/migrate_trace_lite/mt_sample.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_sample
