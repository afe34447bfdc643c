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
# A splat's header may match nothing above (an RCU stall's, a failed
# allocation's): show the lines before each match, for the record.
[ -z "$bad" ] || dmesg | awk -v re="$splat" '{ l[NR] = $0 }
	$0 ~ re { for (i = NR - 4; i <= NR; i++) if (i > 0) print "#   " l[i] }' | head -40
ktap_finished
