#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_debugfs as run by harness/guest/scale-check.sh:
# the control files' behaviour and refusals at 64 CPUs.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_debugfs check-scale
