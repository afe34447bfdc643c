#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_dmesg as run by harness/guest/scale-check.sh:
# a clean kernel log.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_dmesg check-scale
