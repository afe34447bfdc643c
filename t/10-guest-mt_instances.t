#!/bin/bash
# The guest's mt_instances selftest (tools/testing/selftests/migrate_trace_lite/mt_instances.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_instances
