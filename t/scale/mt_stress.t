#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_stress as run by harness/guest/scale-check.sh:
# the storm of migrations, control writes and readers.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_stress check-scale
