#!/bin/bash
# On the KCSAN kernel: mt_flight, as run by harness/guest/kcsan.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_flight check-kcsan
