#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run last: the kernel log holds no warning, bug or lockdep/KASAN report.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
ktap_set_plan 1
splat='WARNING:|BUG:|Oops|Call Trace:|possible .*deadlock|KASAN:|UBSAN:'
# Our one expected line: a start refused for want of memory (mt_alloc).
ours='migrate_trace_lite: buffers of [0-9]* KiB for [0-9]* online CPUs .* refused$'
bad=$(dmesg | grep -E "$splat|\] migrate_trace_lite: " | grep -v "$ours" | head -5)
check "dmesg holds no WARN, BUG or splat" "$bad" ""
ktap_finished
