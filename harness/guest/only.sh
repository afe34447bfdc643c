#!/bin/sh
# Guest side of "make guest-only TESTS=...": the selftests named on the
# kernel command line (mttests=a,b), for a quick look during development.
. /guest/lib.sh
kunit_tap
tests=$(sed -n 's/.*mttests=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
# shellcheck disable=SC2086
run_tests $tests
