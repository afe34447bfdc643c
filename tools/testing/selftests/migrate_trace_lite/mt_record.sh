#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/migrate_record: a recording ten times longer than the buffer
# equals ftrace; the statistics come along; the settings it changes are
# put back after a normal end, SIGINT and SIGTERM; the flight recorder
# dumps at the end and on SIGUSR1; refusals of bad options.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 22
NCPU=$(nproc)
REC=$HERE/migrate_record
[ -x "$REC" ] || REC=$HERE/../../../../scripts/migrate_record

# Settings that are not the defaults, so that putting them back shows.
settings() {
	echo "$(cat "$MT_DIR/enable") $(cat "$MT_DIR/overwrite") $(cat "$MT_DIR/buffer_size_kb")" \
	     "$(cat "$MS_DIR/enable") $(cat "$MS_DIR/period_msec")"
}
mt_reset
echo 0 >"$MS_DIR/reset"
echo 512 >"$MT_DIR/buffer_size_kb"
echo 250 >"$MS_DIR/period_msec"
before=$(settings)

# ---- a recording ten times the buffer, against ftrace ---------------------
want=$(( 10 * NCPU * 16 * 1024 / 16 ))
ftrace_start
"$REC" -o "$TMPD/rec" --stat "$TMPD/rec.stat" --period 100 --size 16 -- \
	"$HELPER" bench-affinity $(( want / 8 + 100 )) 4 >/dev/null 2>"$TMPD/rec.err"
rc=$?
ftrace_stop "$TMPD/ftrace"
n=$(mt_migrations "$TMPD/rec" | wc -l)
ktap_print_msg "recorded $n migrations (wanted $want)"
check "the recorder exits with the command's status" "$rc" 0
check "the recording holds ten buffers of migrations" "$([ "$n" -ge "$want" ] && echo yes)" yes
check "it is a well-formed trace" "$(head -1 "$TMPD/rec"):$(mt_malformed "$TMPD/rec" | head -3)" \
	"# version 1.2.0:"
check "nothing was dropped or overwritten" \
	"$(tail -1 "$TMPD/rec.err" |
	   sed -n 's/.*(dropped \([0-9]*\), overwritten \([0-9]*\))$/\1 \2/p')" "0 0"
check "a progress line every second on stderr" \
	"$(some "$(grep -c 'events/s, [0-9]* dropped, [0-9]* overwritten' "$TMPD/rec.err")")" yes
mt_ftrace_compare "$TMPD/rec" "$TMPD/ftrace"
check "the statistics were collected with the asked period" \
	"$(sed -n 's/^# period_msec //p' "$TMPD/rec.stat"):$(
	   some "$(grep -vc '^#' "$TMPD/rec.stat")")" "100:yes"
check "the settings are put back after a normal end" "$(settings)" "$before"
[ -n "${MT_KEEP:-}" ] && cp "$TMPD/rec" "$MT_KEEP/record"

# ---- signals -----------------------------------------------------------------
for sig in INT TERM; do
	# As from a terminal: in a background job SIGINT would be ignored.
	"$HELPER" sigdfl "$REC" -o "$TMPD/sig" -q --stat "$TMPD/sig.stat" -- sleep 60 2>/dev/null &
	r=$!
	sleep 2
	kill -$sig $r
	check "SIG$sig: the recorder ends at once" "$(wait_for $r 20)" ended
	check "SIG$sig: the trace it wrote is whole" \
		"$(head -1 "$TMPD/sig"):$(mt_malformed "$TMPD/sig" | head -1)" "# version 1.2.0:"
	check "SIG$sig: the settings are put back" "$(settings)" "$before"
done

# ---- the flight recorder --------------------------------------------------------
"$REC" -o "$TMPD/fl" --flight --size 16 -q -- \
	sh -c "$HELPER bench-affinity 4000 2; kill -USR1 \$PPID; sleep 1
	       $HELPER bench-affinity 2000 2" \
	>/dev/null 2>&1
check "--flight: the dump at SIGUSR1 is a flight recorder's" \
	"$(sed -n 's/^# overwrite //p' "$TMPD/fl.1" 2>/dev/null):$(
	   some "$(mt_events "$TMPD/fl.1" lost | wc -l)")" "1:yes"
check "--flight: the dump at the end too" \
	"$(sed -n 's/^# overwrite //p' "$TMPD/fl"):$(mt_malformed "$TMPD/fl" | head -1)" "1:"
check "--flight: the settings are put back" "$(settings)" "$before"

# ---- refusals ---------------------------------------------------------------------
for bad in "--period 5 -- true" "--size x -- true" "--bogus -- true" ""; do
	# shellcheck disable=SC2086
	"$REC" -o "$TMPD/bad" $bad >/dev/null 2>"$TMPD/bad.err"
	check "refused with status 2 and one line: '$bad'" "$?:$(wc -l <"$TMPD/bad.err")" "2:1"
done
mt_reset
echo 0 >"$MS_DIR/reset"
echo 1024 >"$MT_DIR/buffer_size_kb"
echo 1000 >"$MS_DIR/period_msec"

ktap_finished
