#!/bin/bash
# On 32 CPUs in 2 NUMA nodes with SMT threads: mt_smt, as run by
# harness/guest/topo.sh.
. "$(dirname "$0")/lib.sh"
guest_tap mt_smt check-topo
