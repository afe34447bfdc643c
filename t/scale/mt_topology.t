#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_topology as run by harness/guest/scale-check.sh:
# the trace's topology lines (core, LLC, node of every CPU), NUMA balancing
# and core scheduling.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_topology check-scale
