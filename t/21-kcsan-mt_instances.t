#!/bin/bash
# On the KCSAN kernel: mt_instances, as run by harness/guest/kcsan.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_instances check-kcsan
