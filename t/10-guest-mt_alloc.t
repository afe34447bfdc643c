#!/bin/bash
# The guest's mt_alloc selftest (tools/testing/selftests/migrate_trace_lite/mt_alloc.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_alloc
