#!/bin/bash
# The debug kernel really ran KASAN and lockdep, and lockdep was still
# validating when the focused pass ended.
. "$(dirname "$0")/lib.sh"
guest_tap checkers check-debug
