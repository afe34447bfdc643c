#!/bin/bash
# On the KCSAN kernel: kunit, as run by harness/guest/kcsan.sh.
. "$(dirname "$0")/lib.sh"
guest_tap kunit check-kcsan
