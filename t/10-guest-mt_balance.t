#!/bin/bash
# The guest's mt_balance selftest (tools/testing/selftests/migrate_trace_lite/mt_balance.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_balance
