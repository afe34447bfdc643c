#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_stat/: files and refusals; counts equal to a trace of the same
# window, period by period, cause by cause and reason by reason; rows
# shown while collecting never change; idle periods; a full history stops
# the collection with every row kept; reset refused while stat is open;
# a reader prints the collection it opened.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
if [ ! -d "$MS_DIR" ]; then
	ktap_skip_all "no $MS_DIR: kernel without CONFIG_SNSC_LITE_MIGRATION_STAT"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 58

ms_state() { cat "$MS_DIR/enable"; }
ms_period() { cat "$MS_DIR/period_msec"; }
ms_data_rows() { grep -vc '^#' "$1"; }

for f in enable:600 period_msec:600 reset:200 stat:400; do
	check "mode of ${f%%:*} is ${f##*:}" "$(stat -c %a "$MS_DIR/${f%%:*}")" "${f##*:}"
done
check "reset" "$(wr "$MS_DIR/reset" 0)" ok
check "period_msec defaults to 1000" "$(ms_period)" 1000
for bad in "" 0 -1 abc 3600001 99999999999999999999999 "10 "; do
	check "period_msec '$bad' is refused" "$(wr "$MS_DIR/period_msec" "$bad")" EINVAL
done
check "period_msec of 4 KiB garbage is refused" \
	"$("$HELPER" write-garbage "$MS_DIR/period_msec" 4096)" EINVAL
check "period_msec with an embedded NUL is refused" \
	"$("$HELPER" write-nul "$MS_DIR/period_msec" 5)" EINVAL
check "period_msec unchanged by refused writes" "$(ms_period)" 1000
check "period_msec 100" "$(wr "$MS_DIR/period_msec" 100)" ok
check "period_msec reads 100" "$(ms_period)" 100

# Collection together with a trace of the same window.
mt_reset
mt_start
check "start" "$(wr "$MS_DIR/enable" 1)" ok
check "enable reads 1" "$(ms_state)" 1
check "start while collecting is a no-op" "$(wr "$MS_DIR/enable" 1)" ok
check "period_msec is refused while collecting" "$(wr "$MS_DIR/period_msec" 10)" EBUSY
for bad in "" 2 -1 abc; do
	check "enable '$bad' is refused" "$(wr "$MS_DIR/enable" "$bad")" EINVAL
done
child=
[ "$(nproc)" -ge 3 ] && child=$("$HELPER" affinity 20 1 2 0 0x2001 0x2002)
sleep 0.3
cat "$MS_DIR/stat" >"$TMPD/live"
[ -n "$child" ] && child2=$("$HELPER" affinity 30 2 1 0 0x2003 0x2004)
"$HELPER" mixed 2 /bin/true
sleep 0.2
check "stop" "$(wr "$MS_DIR/enable" 0)" ok
mt_stop
S=$TMPD/stat T=$TMPD/trace
cat "$MS_DIR/stat" >"$S"
mt_save "$T"
ktap_print_msg "stat: $(ms_data_rows "$S") periods; trace: $(mt_migrations "$T" | wc -l) migrations"
# Keep the stat for host-side checks of the analysis tools.
[ -n "${MT_KEEP:-}" ] && cp "$S" "$MT_KEEP/stat" && cp "$T" "$MT_KEEP/stat_window_trace"

check "header: version 1.x, period_msec, ts_field, gettimeofday" \
	"$(grep -c -e '^# version 1\.' -e '^# period_msec 100$' -e '^# ts_field 1$' \
		-e '^# gettimeofday [0-9]* [0-9]*$' "$S")" 4
# The clock, named as in the trace's header; its offset from
# sched_clock() the trace's (one value while the kernel keeps one clock
# for all CPUs; 1 ms allows for a TSC found unstable); the legacy
# sched_clock line holds local_clock() when the stat started, between the
# trace's start and its last record (same width hex: compared as text).
offset='^# clock_offset -\{0,1\}[0-9]\{1,19\}$'
check "header: clock local_clock and its clock_offset" \
	"$(grep -c -e '^# clock local_clock$' -e "$offset" "$S")" 2
check "the stat's clock_offset is the trace's, within 1 ms" \
	"$(awk '$2 == "clock_offset" { o[n++] = $3 }
		END { d = o[0] - o[1]; if (n == 2 && d < 1000000 && d > -1000000) print "yes" }' \
		"$S" "$T")" yes
check "sched_clock is local_clock() at the stat's start, within the trace" \
	"$(awk 'FNR == NR { if ($2 == "sched_clock") s = $3; next }
		$1 ~ /^0x[0-9a-f]{16}$/ { if (first == "" && $6 == "start_sched_clock") first = $1
					 last = $1 }
		END { if (s ~ /^0x[0-9a-f]{16}$/ && first != "" && first < s && s < last)
			print "yes" }' \
		"$S" "$T")" yes
check "fields are the trace's causes in order, then migrate" \
	"$(awk '$2 == "field" { printf "%s ", $4 } $4 == "migrate" { exit }' "$S")" \
	"$(awk '$2 == "cause" { printf "%s ", $4 } END { printf "migrate " }' "$T")"
check "the fields after migrate are CAUSE/REASON of the trace's names, or CAUSE/none" \
	"$(awk 'FNR == NR { if ($2 == "cause" || $2 == "reason") known[$2 " " $4] = 1; next }
		$2 == "field" && after { split($4, cr, "/")
			if (!known["cause " cr[1]] ||
			    (cr[2] != "none" && !known["reason " cr[2]])) print $4 }
		$2 == "field" && $4 == "migrate" { after = 1 }' "$T" "$S" | head -3)" ""
check "every row: migrate is the sum of the causes, a cause of its reasons" \
	"$(ms_bad_sums "$S" | head -2)" ""
# A row shown while collecting is final: the stop changes none of them.
n=$(ms_data_rows "$TMPD/live")
grep -v '^#' "$TMPD/live" >"$TMPD/live_rows"
grep -v '^#' "$S" | head -n "$n" >"$TMPD/final_rows"
check "the $n rows shown while collecting are unchanged at the end" \
	"$([ "$n" -ge 2 ] && cmp -s "$TMPD/live_rows" "$TMPD/final_rows" && echo same)" same
check "rows are consecutive periods from 0.000" \
	"$(awk '/^#/ { next } { want = sprintf("%d.%03d", n * 100 / 1000, (n * 100) % 1000);
		if ($1 != want) bad++; n++ } END { print bad + 0 }' "$S")" 0
ms_rows "$S" | sort >"$TMPD/s_all"
mt_rows "$T" "$S" | sort >"$TMPD/t_all"
grep -v / "$TMPD/s_all" >"$TMPD/s_rows"
grep -v / "$TMPD/t_all" >"$TMPD/t_rows"
grep / "$TMPD/s_all" >"$TMPD/s_reasons"
grep / "$TMPD/t_all" >"$TMPD/t_reasons"
for what in cause reason; do
	a=$TMPD/s_rows b=$TMPD/t_rows
	[ $what = reason ] && a=$TMPD/s_reasons b=$TMPD/t_reasons
	if cmp -s "$a" "$b" && [ -s "$a" ]; then
		ktap_test_pass "every period's per-$what counts equal the trace's"
	else
		ktap_test_fail "every period's per-$what counts equal the trace's"
		diff "$a" "$b" | head -8 | sed 's/^/#   /'
	fi
done
check "per-cause totals equal the trace's" \
	"$(awk '{ n[$2] += $3 } END { for (c in n) print c, n[c] }' "$TMPD/s_rows" | sort)" \
	"$(awk '{ n[$2] += $3 } END { for (c in n) print c, n[c] }' "$TMPD/t_rows" | sort)"
if [ -n "$child" ]; then
	# The known tasks: their 100 moves are in the stat, in their periods.
	# Between their marks: each child first pins itself to its start CPU.
	awk -v a="$child" -v b="$child2" '
		/^#/ { print; next }
		$7 == "0x00002001" || $7 == "0x00002003" { on = 1 }
		$7 == "0x00002002" || $7 == "0x00002004" { on = 0 }
		on && ($5 == a || $5 == b)' "$T" >"$TMPD/child"
	mt_rows_by_cause "$TMPD/child" "$S" |
		awk '$2 == "migration_cpu_stop" || $2 == "affine_move_task" { n[$1] += $3 }
		     END { for (p in n) print p, n[p] }' | sort >"$TMPD/child_rows"
	check "the known tasks' 20 + 30 round trips are 100 moves in the window" \
		"$(awk '{ s += $2 } END { print s + 0 }' "$TMPD/child_rows")" 100
	check "the stat's affinity reason columns hold at least their 100 moves" \
		"$(awk '$2 ~ /^(migration_cpu_stop|affine_move_task)\/affinity$/ { s += $3 }
			END { print (s >= 100) ? "yes" : s + 0 }' "$TMPD/s_all")" yes
else
	ktap_test_skip "affinity ping-pong needs 3 CPUs"
	ktap_test_skip "affinity ping-pong needs 3 CPUs"
fi
check "a stopped collection cannot restart" "$(wr "$MS_DIR/enable" 1)" EBUSY
check "period_msec is refused while the stat holds data" "$(wr "$MS_DIR/period_msec" 10)" EBUSY
for bad in 1 abc; do
	check "reset '$bad' is refused" "$(wr "$MS_DIR/reset" "$bad")" EINVAL
done
cat "$MS_DIR/stat" >"$TMPD/again"
check "refused writes changed nothing" "$(cmp -s "$S" "$TMPD/again" && echo same)" same

# Idle periods are written, as zeros.
mt_reset
wr "$MS_DIR/reset" 0 >/dev/null
wr "$MS_DIR/period_msec" 10 >/dev/null
wr "$MS_DIR/enable" 1 >/dev/null
sleep 1
wr "$MS_DIR/enable" 0 >/dev/null
cat "$MS_DIR/stat" >"$TMPD/idle"
n=$(ms_data_rows "$TMPD/idle")
check "1 s at 10 ms: about 100 rows" "$([ "$n" -ge 90 ] && [ "$n" -le 130 ] && echo yes)" yes
check "none skipped: rows are consecutive 10 ms periods from 0.000" \
	"$(awk '/^#/ { next } { want = sprintf("%d.%03d", n * 10 / 1000, (n * 10) % 1000);
		if ($1 != want) bad++; n++ } END { print bad + 0 }' "$TMPD/idle")" 0
check "idle periods are rows of zeros" \
	"$(awk '/^#/ { next } $NF == 0 { z++ }
		END { print (z > 0) ? "yes" : "none" }' "$TMPD/idle")" yes

# A period of 4295 ms is more than 2^32 ns (32-bit unsigned long): after
# 1 s not one period is complete.
wr "$MS_DIR/reset" 0 >/dev/null
wr "$MS_DIR/period_msec" 4295 >/dev/null
wr "$MS_DIR/enable" 1 >/dev/null
sleep 1
cat "$MS_DIR/stat" >"$TMPD/long"
wr "$MS_DIR/enable" 0 >/dev/null
check "a 4295 ms period: no row after 1 s" "$(ms_data_rows "$TMPD/long")" 0

# A full history stops the collection, every row kept.
wr "$MS_DIR/reset" 0 >/dev/null
wr "$MS_DIR/period_msec" 1 >/dev/null
wr "$MS_DIR/enable" 1 >/dev/null
"$HELPER" pingpong 3000
# The history holds DATA_SIZE hours at 1 s (the default, 1, unless the
# kernel says otherwise in /proc/config.gz).
hours=$(zcat /proc/config.gz 2>/dev/null |
	sed -n 's/^CONFIG_SNSC_LITE_MIGRATION_STAT_DATA_SIZE=//p')
max=$(( ${hours:-1} * 3600 ))
sleep $(( max / 1000 + 1 ))
check "a full history stops the collection" "$(ms_state)" 0
cat "$MS_DIR/stat" >"$TMPD/full"
check "the full history holds all $max rows" "$(ms_data_rows "$TMPD/full")" "$max"
check "its rows are consecutive and consistent" \
	"$(awk '/^#/ { next } { if ($1 != sprintf("%d.%03d", n / 1000, n % 1000)) bad++; n++ }
		END { print bad + 0 }' "$TMPD/full"):$(ms_bad_sums "$TMPD/full" | wc -l)" 0:0
# An open stat keeps its reader's rows: reset waits for the close.
exec 3<"$MS_DIR/stat"
check "reset while stat is open is refused (EBUSY)" "$(wr "$MS_DIR/reset" 0)" EBUSY
exec 3<&-
check "reset after a full history" "$(wr "$MS_DIR/reset" 0)" ok
wr "$MS_DIR/enable" 1 >/dev/null
wr "$MS_DIR/reset" 0 >/dev/null
check "reset while collecting stops it" "$(ms_state)" 0
cat "$MS_DIR/stat" >"$TMPD/empty"
check "and empties the stat" "$(ms_data_rows "$TMPD/empty")" 0
# A reader prints what it opened: not a collection started after the open.
exec 3<"$MS_DIR/stat"
wr "$MS_DIR/period_msec" 1000 >/dev/null
wr "$MS_DIR/enable" 1 >/dev/null
check "a stat opened before a start keeps its header" \
	"$(sed -n 's/^# period_msec //p' <&3)" 1
exec 3<&-
wr "$MS_DIR/enable" 0 >/dev/null
wr "$MS_DIR/reset" 0 >/dev/null
mt_reset

ktap_finished
