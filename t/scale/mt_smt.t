#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_smt as run by harness/guest/scale-check.sh:
# the SMT placements' reasons in an LLC (idle_core, idle_smt_sibling,
# idle_cpu) and the balance between nodes.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_smt check-scale
