#!/bin/bash
# The guest's mt_migrations selftest (tools/testing/selftests/migrate_trace_lite/mt_migrations.sh).
. "$(dirname "$0")/lib.sh"
guest_tap mt_migrations
