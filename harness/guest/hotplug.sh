#!/bin/sh
# Guest side of "make check" on the test kernel booted with 2 of its 4
# CPUs online (maxcpus=2): CPUs 2 and 3 are possible but offline.  The
# buffers follow the online CPUs, and a CPU brought online under a
# running trace gets its own (mt_hotplug).  KUnit is off (kunit.enable=0):
# the check guest runs it.
. /guest/lib.sh
run_tests mt_hotplug
