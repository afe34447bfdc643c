#!/bin/sh
# Guest side of "make check" on the test kernel: every selftest.
. /guest/lib.sh
kunit_tap
run_tests mt_debugfs mt_migrations mt_reasons mt_wakeups mt_balance mt_full mt_pipe mt_event \
	mt_idle mt_filter mt_pidfilter mt_instances mt_flight mt_record mt_stat mt_schedstat mt_alloc mt_stress mt_sample mt_dmesg
