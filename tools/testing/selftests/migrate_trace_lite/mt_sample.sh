#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel API's modular user, samples/migrate_trace_lite/: loaded, it
# marks the beginning and the end of its work, a kernel thread hopping
# across the online CPUs, and every hop is a migration recorded between
# the two marks.  With start=1 it starts the trace itself, and is refused
# while the trace holds an earlier one; without, its marks join the trace
# that runs, and nothing is recorded while none does.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
KO=${MT_SAMPLE_KO:-$HERE/migrate_trace_lite_sample.ko}
if [ ! -f "$KO" ]; then
	ktap_skip_all "no $KO: CONFIG_SAMPLE_MIGRATE_TRACE_LITE=m not built"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 9
HOPS=8

# load ARGS...: insmod the sample with ARGS, then rmmod; "ok" or "failed".
load() {
	if insmod "$KO" hops=$HOPS "$@" 2>"$TMPD/insmod.err"; then
		rmmod migrate_trace_lite_sample
		echo ok
	else
		echo failed
	fi
}

# window TRACE MARK: "BEGINS ENDS INSIDE AFTER": how many marks MARK and
# MARK + 1 TRACE holds, and how many moves of the sample's thread
# (named mt_sample) lie between them and after the second.
window() {
	pids=$({ mt_events "$1" copy_process; mt_events "$1" set_task_comm; } |
		awk '$3 == "mt_sample" { print $1 }' | sort -u | tr '\n' ' ')
	awk -v b="$(printf '0x%08x' "$2")" -v e="$(printf '0x%08x' $(($2 + 1)))" \
	    -v pids=" $pids" -v mark="$(mt_loc_num "$1" mark)" '
	/^#/ { next }
	$3 == "." && $6 == mark && $7 == b { nb++; where = 1; next }
	$3 == "." && $6 == mark && $7 == e { ne++; where = 2; next }
	$3 != "." && index(pids, " " $5 " ") { n[where]++ }
	END { print nb + 0, ne + 0, n[1] + 0, n[2] + 0 }' "$1"
}

# enough "B E INSIDE AFTER": the same with INSIDE replaced by whether it
# holds a move for every hop.
enough() { echo "$1 $2 $([ "$3" -ge $HOPS ] && echo all-hops || echo "only-$3") $4"; }

# ---- start=1: the module starts the trace and marks around its work -----
mt_reset
check "load with start=1 on a reset trace" "$(load start=1 mark=0x6d740000)" ok
check "the trace it started still runs" "$(mt_state)" 1
mt_stop
mt_save "$TMPD/t1"
w=$(window "$TMPD/t1" $((0x6d740000)))
ktap_print_msg "start=1: begin and end marks, moves of mt_sample between them and after: $w"
check "both marks, every hop between them, none after" "$(enough $w)" "1 1 all-hops 0"
check "every line is well formed" "$(mt_malformed "$TMPD/t1" | head -3)" ""
check "start=1 while the trace holds one is refused" \
	"$(load start=1 mark=0x6d740010)" failed

# ---- a trace the user runs: the module's marks join it -------------------
mt_reset
mt_start
check "load into a running trace" "$(load mark=0x6d740020)" ok
mt_stop
mt_save "$TMPD/t2"
w=$(window "$TMPD/t2" $((0x6d740020)))
ktap_print_msg "a user's trace: begin and end marks, moves between them and after: $w"
check "both marks, every hop between them, none after, in the user's trace" \
	"$(enough $w)" "1 1 all-hops 0"

# ---- no trace running: nothing is recorded ---------------------------------
check "load while the trace is stopped" "$(load mark=0x6d740030)" ok
mt_save "$TMPD/t3"
check "no mark of it in the stopped trace" \
	"$(window "$TMPD/t3" $((0x6d740030)) | cut -d' ' -f1-2)" "0 0"
mt_reset
ktap_finished
