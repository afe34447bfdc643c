#!/bin/bash
# make check-scale: on 64 CPUs (2 NUMA nodes of 2 LLCs of 8 cores of 2
# SMT threads), mt_pipe as run by harness/guest/scale-check.sh:
# trace_pipe in time order, equal to ftrace, nothing lost, over twenty times
# the buffers.
. "$(dirname "$0")/../lib.sh"
guest_tap mt_pipe check-scale
