#!/bin/bash
# On the KCSAN kernel: KCSAN was on from boot, and none of its reports
# involves migrate_trace_lite (harness/guest/kcsan.sh).
. "$(dirname "$0")/lib.sh"
guest_tap kcsan check-kcsan
