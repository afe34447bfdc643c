#!/bin/bash
# The guest's mt_dmesg selftest (tools/testing/selftests/migrate_trace_lite/mt_dmesg.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_dmesg
