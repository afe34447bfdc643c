#!/bin/bash
# The guest's mt_debugfs selftest (tools/testing/selftests/migrate_trace_lite/mt_debugfs.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_debugfs
