#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The flight recorder (overwrite 1): a trace that never stops by itself
# keeps, for every CPU, exactly the newest records that CPU logged (a
# suffix of what ftrace saw there); the header and a lost line count
# what was overwritten, exactly; every task of the dump has a name; the
# header's clock_offset puts ftrace's times on ours.  Overwrite switched
# while the trace runs: on, the rings recycle; off, the first full ring
# stops the trace; the counts of the two add up exactly.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 22
NCPU=$(nproc)
SKEW_US=1000
dmesg | grep -q "sched_clock: Marking unstable" && SKEW_US=50000

mt_reset
echo 16 >"$MT_DIR/buffer_size_kb"
check "overwrite 1" "$(wr "$MT_DIR/overwrite" 1):$(cat "$MT_DIR/overwrite")" ok:1
ftrace_start
mt_start
# About ten times what the buffers hold.
"$HELPER" bench-affinity $(( 10 * NCPU * 1024 / 8 )) 4 >/dev/null
check "the trace still runs after ten buffers' worth" "$(mt_state)" 1
check "and still takes marks" "$(wr "$MT_DIR/mark" 0xf11e)" ok
mt_stop
ftrace_stop "$TMPD/ftrace"
T=$TMPD/flight
mt_save "$T"
cat "$MT_DIR/stats" >"$TMPD/stats"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/flight"
ktap_print_msg "dump: $(grep -vc '^#' "$T") lines;" \
	"$(sed -n 's/^# overwritten //p' "$T") overwritten"

check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
check "events are in time order" \
	"$(grep -v '^#' "$T" | cut -d' ' -f1 | sort -c 2>&1 && echo sorted)" sorted
check "the header says overwrite 1 and counts what was overwritten" \
	"$(awk '$2 == "overwrite" { o = $3 } $2 == "overwritten" { n = $3 }
		END { print o, (n > 0) ? "some" : "none" }' "$T")" "1 some"
check "the per-CPU counts add up to the total" \
	"$(awk '$2 == "cpu_lost" { s += $5 } $2 == "overwritten" { t = $3 }
		END { print (s == t) ? "yes" : s " != " t }' "$T")" yes
# Each CPU's lost line says how many of its records are gone, as the header.
check "a lost line per CPU that lost records, with the header's count" \
	"$(awk -v lost="$(mt_loc_num "$T" lost)" '
		$2 == "cpu_lost" && $5 > 0 { want[$3] = $5 }
		!/^#/ && $6 == lost { got[$2] = $7 }
		END { for (c in want) if (got[c] != want[c]) print c, got[c], want[c]
		      for (c in got) if (!(c in want)) print c, got[c] }' "$T")" ""
# Exact: what a CPU logged is what is left of it plus what was overwritten.
check "each CPU's logged records = its records in the dump + its overwritten" \
	"$(mt_unaccounted "$TMPD/stats" "$T")" ""
check "every task in the dump has a name" "$(mt_unnamed "$T")" ""
# For each CPU, what is left of the workload's moves there is the end of
# what ftrace saw there (fork placement aside: ftrace does not see it).
# Both are cut at the mark's time, on our clock (ftrace's plus the
# header's clock_offset): an exiting thread of the helper may still move
# after mt stopped and before ftrace did.  Lines: CPU TIME PID FROM TO.
MARK_NS=$(awk -v mark="$(mt_loc_num "$T" mark)" "$MT_AWK_HEX"'
	!/^#/ && $6 == mark && $7 == "0x0000f11e" { print hex($1); exit }' "$T")
OFFSET=$(awk '$2 == "clock_offset" { print $3 }' "$T")
awk -v cut="$MARK_NS" -v off="$OFFSET" '/sched_migrate_task:/ {
	cpu = $0; sub(/^[^[]*\[/, "", cpu); sub(/\].*/, "", cpu); cpu += 0
	for (i = 1; i <= NF; i++) {
		if ($i == "sched_migrate_task:") {
			split($(i - 1), ts, /[.:]/)
			t = ts[1] * 1000000000 + ts[2] * 1000 + off
		}
		split($i, kv, "="); v[kv[1]] = kv[2]
	}
	if (v["comm"] == "mt_helper" && v["orig_cpu"] != v["dest_cpu"] && t <= cut)
		print cpu, t, v["pid"], v["orig_cpu"], v["dest_cpu"] }' \
	"$TMPD/ftrace" >"$TMPD/theirs"
awk -v f="$TMPD/theirs" -v cut="$MARK_NS" "$MT_AWK_HEX"'
	BEGIN { while ((getline l < f) > 0) { split(l, w, " "); want[w[3]] = 1 } }
	/^# cause / { cause[$3] = $4; next }
	/^#/ || $3 == "." { next }
	($5 in want) && cause[$6] != "wake_up_new_task" && hex($1) <= cut {
		print $2, hex($1), $5, $3, $4 }' "$T" >"$TMPD/ours"
bad=0 wrapped=0
: >"$TMPD/ahead"
for c in $(seq 0 $((NCPU - 1))); do
	grep "^$c " "$TMPD/ours" >"$TMPD/o.$c"
	grep "^$c " "$TMPD/theirs" >"$TMPD/t.$c"
	n=$(wc -l <"$TMPD/o.$c")
	tail -n "$n" "$TMPD/t.$c" >"$TMPD/tt.$c"
	cut -d' ' -f3- "$TMPD/o.$c" >"$TMPD/o.$c.moves"
	cut -d' ' -f3- "$TMPD/tt.$c" | cmp -s - "$TMPD/o.$c.moves" || {
		bad=$((bad + 1))
		cut -d' ' -f3- "$TMPD/tt.$c" | diff - "$TMPD/o.$c.moves" >"$TMPD/diff"
		head -6 "$TMPD/diff" | sed "s/^/#   cpu$c ftrace|mt /"
		# The first lines that differ go into the check's message too.
		echo "cpu$c: $(grep -E '^[-+<>]( |[0-9])' "$TMPD/diff" | head -4 |
			tr '\n' ' ')" >>"$TMPD/diffs"
	}
	# How much earlier than ftrace we stamped each move, in ns.
	paste -d' ' "$TMPD/o.$c" "$TMPD/tt.$c" | awk '{ print $7 - $2 }' >>"$TMPD/ahead"
	[ "$n" -lt "$(wc -l <"$TMPD/t.$c")" ] && wrapped=$((wrapped + 1))
	ktap_print_msg "  cpu$c: $n of ftrace's $(wc -l <"$TMPD/t.$c") moves kept"
done
check "ftrace lost nothing" \
	"$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$TMPD/ftrace.stats")" 0
check "on every CPU the moves left are the end of ftrace's sequence there" \
	"$bad$([ "$bad" = 0 ] || echo "; $(tr '\n' ' ' <"$TMPD/diffs")")" 0
check "and the flight recorder did drop the oldest on some CPU" \
	"$([ "$wrapped" -gt 0 ] && [ -s "$TMPD/ours" ] && echo yes)" yes
# ftrace stamps a move in the same call, microseconds after the hook (a
# host may stall the guest in between): with the header's offset, the
# median gap is that, a wrong offset shows in every move.
AHEAD_US=$(sort -n "$TMPD/ahead" | awk '{ d[NR] = $1 }
	END { printf "%d\n", NR ? d[int((NR + 1) / 2)] / 1000 : 999999 }')
ktap_print_msg "ftrace stamped the moves ${AHEAD_US} us after us (median)"
check "with clock_offset, ftrace's times are ours within $SKEW_US us" \
	"$([ "${AHEAD_US#-}" -le "$SKEW_US" ] && echo yes || echo "$AHEAD_US us")" yes
mt_reset
check "overwrite back to 0 after the reset" \
	"$(wr "$MT_DIR/overwrite" 0):$(cat "$MT_DIR/overwrite")" ok:0

# ---- overwrite switched while the trace runs ----------------------------
# Started with 0, switched to 1: ten buffers' worth go through, the
# oldest chunks recycled.  Switched to 0 with the rings full and no
# reader: the next chunk switch of any CPU drops its record and stops
# the trace, which keeps the newest records of before.
mt_start
check "overwrite 1 while the trace runs" \
	"$(wr "$MT_DIR/overwrite" 1):$(cat "$MT_DIR/overwrite")" ok:1
"$HELPER" bench-affinity $(( 10 * NCPU * 1024 / 8 )) 4 >/dev/null
check "the trace runs on through ten buffers' worth" "$(mt_state)" 1
check "overwrite 0 while the trace runs" "$(wr "$MT_DIR/overwrite" 0)" ok
"$HELPER" bench-affinity $(( 2 * NCPU * 1024 / 8 )) 4 >/dev/null
check "then a full ring stops the trace by itself" "$(mt_state)" 0
mt_stop
T=$TMPD/switched
mt_save "$T"
cat "$MT_DIR/stats" >"$TMPD/stats"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/switched"
ktap_print_msg "switched: $(grep -vc '^#' "$T") lines;" \
	"$(sed -n 's/^# overwritten //p' "$T") overwritten," \
	"$(sed -n 's/^# dropped //p' "$T") dropped"
check "every line is well formed, in time order" \
	"$(mt_malformed "$T" | head -3)$(grep -v '^#' "$T" | cut -d' ' -f1 | sort -c 2>&1)" ""
check "records were both overwritten and dropped" \
	"$(awk '$2 == "overwrite" { o = $3 } $2 == "overwritten" { n = $3 }
		$2 == "dropped" { d = $3 }
		END { print o, (n > 0) ? "some" : "none", (d > 0) ? "some" : "none" }' "$T")" \
	"0 some some"
# Each CPU's lost lines: what it lost to the flight recorder (first) and
# what it dropped (last), as the header's cpu_lost counts.
check "per CPU: logged = left + overwritten; lost lines = dropped + overwritten" \
	"$(mt_unaccounted "$TMPD/stats" "$T")$(awk -v lost="$(mt_loc_num "$T" lost)" '
		$2 == "cpu_lost" && $4 + $5 > 0 { want[$3] = $4 + $5 }
		!/^#/ && $6 == lost { got[$2] += $7 }
		END { for (c in want) if (got[c] != want[c]) print c, got[c], want[c]
		      for (c in got) if (!(c in want)) print c, got[c] }' "$T")" ""
mt_reset
echo 0 >"$MT_DIR/overwrite"
echo 1024 >"$MT_DIR/buffer_size_kb"
mt_reset

ktap_finished
