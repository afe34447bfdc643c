#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/trace_pipe: a consuming reader while tracing, in time
# order, equal to ftrace over a run of twenty times the buffer's capacity
# (MT_PIPE_BUFFERS) with nothing dropped; blocking, O_NONBLOCK, poll, end
# of file, one reader at a time, and the buffer settings with their
# refusals.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 41
NCPU=$(nproc)
P=$MT_DIR/trace_pipe

for f in trace_pipe:400 overwrite:600 buffer_size_kb:600 stats:400 dump_on_oops:600; do
	check "mode of ${f%%:*} is ${f##*:}" "$(stat -c %a "$MT_DIR/${f%%:*}")" "${f##*:}"
done

# ---- settings -----------------------------------------------------------
mt_reset
size=$(cat "$MT_DIR/buffer_size_kb")
for bad in "" 0 abc -1 1048577 99999999999999999999; do
	check "buffer_size_kb '$bad' is refused" "$(wr "$MT_DIR/buffer_size_kb" "$bad")" EINVAL
done
check "buffer_size_kb unchanged by refused writes" "$(cat "$MT_DIR/buffer_size_kb")" "$size"
check "buffer_size_kb 16" "$(wr "$MT_DIR/buffer_size_kb" 16):$(cat "$MT_DIR/buffer_size_kb")" ok:16
for bad in 2 abc; do
	check "overwrite '$bad' is refused" "$(wr "$MT_DIR/overwrite" "$bad")" EINVAL
done
check "overwrite reads 0" "$(cat "$MT_DIR/overwrite")" 0

# ---- a stream many times the buffer, against ftrace ----------------------
# A 16 KiB buffer holds about 1000 migrations per CPU.  Twenty buffers by
# default; fewer where a checker (KASAN, KCSAN) slows every event or
# where the CPUs are many.  Four processes move between CPUs 0 and 1;
# MT_PIPE_PROCS (more than 4) spreads that many over every CPU, two
# CPUs each, so that every ring is read from (the 64-CPU guest).
buffers=${MT_PIPE_BUFFERS:-20}
want=$(( buffers * NCPU * 16 * 1024 / 16 ))
procs=${MT_PIPE_PROCS:-4}
spread=
[ "$procs" -gt 4 ] && spread=$NCPU
rounds=$(( want / (2 * procs) + 100 ))
ftrace_start
cat "$P" >"$TMPD/stream" &
reader=$!
check "start while trace_pipe is open" "$(wr "$MT_DIR/enable" 1)" ok
# shellcheck disable=SC2086
"$HELPER" bench-affinity $rounds $procs $spread >/dev/null &
work=$!
sleep 1
check "a second reader is refused (EBUSY)" "$("$HELPER" read "$P")" EBUSY
check "reset while trace_pipe is open is refused (EBUSY)" "$(wr "$MT_DIR/reset" 0)" EBUSY
check "buffer_size_kb while a trace runs is refused (EBUSY)" \
	"$(wr "$MT_DIR/buffer_size_kb" 64)" EBUSY
# Overwrite may change at any time (mt_flight switches it): the same
# value here, for the stream to stay equal to ftrace.
check "overwrite while a trace runs and is read is accepted" \
	"$(wr "$MT_DIR/overwrite" 0):$(cat "$MT_DIR/overwrite")" ok:0
wait $work
mt_stop
check "the reader ends by itself once the trace stops" "$(wait_for $reader 60)" ended
ftrace_stop "$TMPD/ftrace"
cat "$MT_DIR/stats" >"$TMPD/stats"
S=$TMPD/stream
n=$(mt_migrations "$S" | wc -l)
ktap_print_msg "stream: $(wc -l <"$S") lines, $n migrations (wanted $want)"
check "the stream holds at least $buffers buffers of migrations" \
	"$([ "$n" -ge "$want" ] && echo yes)" yes
check "nothing was dropped or overwritten" \
	"$(mt_stat_total dropped):$(mt_stat_total overwritten)" 0:0
check "the stream has no lost line" "$(mt_events "$S" lost | head -1)" ""
check "the stream starts with the header" "$(head -1 "$S")" "# version 1.2.0"
check "every line is well formed" "$(mt_malformed "$S" | head -3)" ""
check "events are in time order" \
	"$(grep -v '^#' "$S" | cut -d' ' -f1 | sort -c 2>&1 && echo sorted)" sorted
check "the stream holds every record each CPU logged" \
	"$(mt_unaccounted "$TMPD/stats" "$S")" ""
# Clamps: the rings' (a CPU's clock stepped back) and the reader's own (a
# record came later than the busy marks and the 10 us slack allow), from
# stats, and the clamped lines the stream holds, one for each.
# shellcheck disable=SC2046
set -- $(mt_stat_clamped "$TMPD/stats") $(mt_clamped "$S")
ktap_print_msg "clamped: $(( ${1:-0} + ${2:-0} )) (ring ${1:-?}, trace_pipe ${2:-?};" \
	"clamped lines in the stream ${4:-?})"
check "nothing was clamped (ring, trace_pipe, lines of the stream)" "${1:-}:${2:-}:${4:-}" 0:0:0
unnamed=$(mt_unnamed "$S")
check "the stream names every task it moves" "$unnamed" ""
[ -n "$unnamed" ] && grep " $unnamed " "$S" | head -4 | sed 's/^/#   /'
mt_ftrace_compare "$S" "$TMPD/ftrace"
[ -n "${MT_KEEP:-}" ] && cp "$S" "$MT_KEEP/pipe_stream"

# ---- blocking, O_NONBLOCK, poll, a killed reader, end of file -------------------
mt_reset
echo 16 >"$MT_DIR/buffer_size_kb"
mt_start
check "O_NONBLOCK: a drained trace_pipe answers EAGAIN" \
	"$("$HELPER" pipe-nonblock "$P" | cut -d' ' -f1)" EAGAIN
set -- $("$HELPER" pipe-mark "$P" 0x5151)
check "poll() and read() hand out a mark written after the drain" \
	"$1 $2 $3" "drained=EAGAIN poll=POLLIN mark=found"
# The reader looks every 10 ms; under TCG, a few rounds of that.
ktap_print_msg "the mark came out after $4 ms"
check "an idle machine holds the mark back for less than 100 ms" \
	"$([ "${4:-9999}" -lt 100 ] && echo yes)" yes
cat "$P" >"$TMPD/blocked" &
r=$!
sleep 1
check "a reader with nothing to read blocks" "$(ended $r || echo blocked)" blocked
kill -9 $r
wait $r 2>/dev/null
check "after a reader was killed, another may open" \
	"$("$HELPER" pipe-nonblock "$P" | cut -d' ' -f1)" EAGAIN
check "the header is handed out once per trace" "$(grep -c '^#' "$TMPD/blocked")" 0
cat "$P" >"$TMPD/end" &
r=$!
echo 7777 >"$MT_DIR/mark"
mt_stop
check "a blocked reader gets the rest, then end of file" \
	"$(wait_for $r 20):$(awk '$3 == "." && $7 == "0x00001e61" { print $7 }' "$TMPD/end")" \
	"ended:0x00001e61"
check "a reader opened after the end gets end of file at once" \
	"$("$HELPER" pipe-nonblock "$P" | cut -d' ' -f1)" EOF
mt_reset
echo "$size" >"$MT_DIR/buffer_size_kb"

ktap_finished
