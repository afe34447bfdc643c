#!/bin/bash
# On the debug kernel (lockdep, KASAN, UBSAN, atomic-sleep checks):
# kunit, as run by harness/guest/debug.sh.
. "$(dirname "$0")/lib.sh"
guest_tap kunit check-debug
