#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the migrate_trace_lite selftests: paths, control helpers and
# trace queries.  Source after ktap_helpers.sh.

MT_DIR=/sys/kernel/debug/migration_trace
TRACING=/sys/kernel/tracing
HERE=$(cd "$(dirname "$0")" && pwd)
HELPER=$HERE/mt_helper
TMPD=${TMPDIR:-/tmp}/mt_selftest.$$
mkdir -p "$TMPD"
trap 'rm -rf "$TMPD"' EXIT

# Skip the whole test (exit 4) unless this kernel has the facility.
mt_require() {
	if [ "$(id -u)" != 0 ]; then
		ktap_skip_all "must be run as root"
		exit "$KSFT_SKIP"
	fi
	if [ ! -d "$MT_DIR" ]; then
		ktap_skip_all "no $MT_DIR: kernel without CONFIG_SNSC_LITE_MIGRATION_TRACE or debugfs not mounted"
		exit "$KSFT_SKIP"
	fi
	if [ ! -x "$HELPER" ]; then
		ktap_skip_all "mt_helper not built"
		exit "$KSFT_SKIP"
	fi
}

# wr FILE DATA: one write(2); prints "ok" or the errno name.
wr() { "$HELPER" write "$1" "$2"; }

mt_reset() { echo 0 >"$MT_DIR/reset"; }
mt_start() { echo 1 >"$MT_DIR/enable"; }
mt_stop() { echo 0 >"$MT_DIR/enable"; }
mt_state() { cat "$MT_DIR/enable"; }

# Save the trace to FILE.
mt_save() { cat "$MT_DIR/trace" >"$1"; }

# check DESCRIPTION VALUE EXPECTED: one KTAP result.
check() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
		ktap_print_msg "  got '$2', expected '$3'"
	fi
}

# Migration lines of TRACE as "PID FROM TO CAUSE_NAME", in trace order.
mt_migrations() {
	awk '
	/^# cause / { cause[$3] = $4; next }
	/^#/ { next }
	$3 != "." && NF == 6 { print $5, $3, $4, cause[$6] }
	' "$1"
}

# Number of the event kind NAME ("mark", "copy_process", ...) in TRACE.
mt_loc_num() { awk -v n="$2" '$1 == "#" && $2 == "loc" && $4 == n { print $3 }' "$1"; }

# Events of kind NAME as "PID REST-OF-LINE".
mt_events() {
	awk -v k="$(mt_loc_num "$1" "$2")" '
	/^#/ { next }
	$3 == "." && $6 == k { pid = $5; $1 = $2 = $3 = $4 = $5 = $6 = ""
			       sub(/^ +/, ""); print pid, $0 }
	' "$1"
}

# Lines of TRACE that do not follow trace format 1.x; prints them.
mt_malformed() {
	awk '
	/^# / { next }
	$1 !~ /^0x[0-9a-f]{16}$/ || $2 !~ /^[0-9]+$/ { print; next }
	$3 != "." { if (NF != 6 || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ ||
			$5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/ || $3 == $4) print
		    next }
	$5 == "." { if (NF != 8 || $6 != "start_sched_clock") print; next }
	$7 == ":" { next }
	$7 ~ /^0x[0-9a-f]{8,}$/ && NF == 7 { next }
	{ print }
	' "$1"
}

MS_DIR=/sys/kernel/debug/migration_stat

# Data rows of a stat file as "PERIOD_INDEX CAUSE_NAME COUNT", nonzero only.
ms_rows_by_cause() {
	awk '
	/^# field / { name[$3] = $4; last = $3; next }
	/^#/ { next }
	{ for (i = 2; i < last; i++) if ($i > 0) print NR_DATA + 0, name[i], $i
	  NR_DATA++ }
	' "$1"
}

# Migrations of TRACE bucketed into the periods of STAT, as
# "PERIOD_INDEX CAUSE_NAME COUNT"; only periods STAT shows.
mt_rows_by_cause() {
	awk -v stat="$2" '
	function hex(s,   i, n) {
		n = 0
		s = substr(s, 3)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	BEGIN {
		while ((getline l < stat) > 0) {
			split(l, w, " ")
			if (w[2] == "sched_clock") start = hex(w[3])
			else if (w[2] == "period_msec") period = w[3] * 1000000
			else if (l !~ /^#/) rows++
		}
	}
	/^# cause / { cause[$3] = $4; next }
	/^#/ || $3 == "." { next }
	{ t = hex($1)
	  if (t < start) next
	  p = int((t - start) / period)
	  if (p < rows) n[p " " cause[$6]]++ }
	END { for (k in n) print k, n[k] }
	' "$1"
}
