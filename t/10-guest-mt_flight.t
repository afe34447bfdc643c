#!/bin/bash
# The guest's mt_flight selftest (tools/testing/selftests/migrate_trace_lite/mt_flight.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_flight
