#!/bin/sh
# Guest side of "make check" on the 32-bit kernel: the debugfs files, a
# full buffer, and the statistics' periods (a period of 4295 ms and more
# does not fit an unsigned long of nanoseconds here).
. /guest/lib.sh
kunit_tap
run_tests mt_debugfs mt_full mt_stat mt_dmesg
