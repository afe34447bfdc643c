#!/bin/bash
# On the debug kernel (lockdep, KASAN, UBSAN, atomic-sleep checks):
# mt_instances, as run by harness/guest/debug.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_instances check-debug
