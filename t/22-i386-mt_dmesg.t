#!/bin/bash
# On the 32-bit (i386, SMP) kernel: mt_dmesg, as run by harness/guest/i386.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_dmesg check-i386
