#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A full buffer stops the trace by itself with every record intact; the
# names of the tasks a trace starts with do not take buffer space.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 14

mt_reset
mt_start
set -- $("$HELPER" marks 10000000 0)
written=$1 err=$2
ktap_print_msg "$written marks written before: $err"
check "marks are refused with ENOSPC once the buffer is full" "$err" ENOSPC
check "tracing stopped by itself" "$(mt_state)" 0
T=$TMPD/trace
t0=$(cut -d' ' -f1 /proc/uptime)
mt_save "$T"
t1=$(cut -d' ' -f1 /proc/uptime)
secs=$(awk "BEGIN { print $t1 - $t0 }")
ktap_print_msg "read $(wc -l <"$T") lines ($(wc -c <"$T") bytes) in $secs s"
check "the header counts dropped records" \
	"$(sed -n 's/^# dropped //p' "$T" | awk '{ print ($1 > 0) ? "yes" : $1 }')" yes
mt_events "$T" mark | awk '$1 != "" { print $2 }' >"$TMPD/marks"
check "every accepted mark is in the trace" "$(wc -l <"$TMPD/marks")" "$written"
check "marks are 1..n in order, none lost or torn" \
	"$(awk '{ if ($1 != sprintf("0x%08x", NR)) bad++ } END { print bad + 0 }' "$TMPD/marks")" 0
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
kib=$(awk '$2 == 0' "$T" | wc -l)
check "CPU 0's buffer was really used (>= 40000 records of 24 bytes)" \
	"$([ "$kib" -ge 40000 ] && echo yes)" yes
check "a full trace cannot be restarted" "$(wr "$MT_DIR/enable" 1)" EBUSY
check "reset empties it" "$(wr "$MT_DIR/reset" 0)" ok
check "and tracing can start again" "$(wr "$MT_DIR/enable" 1)" ok
mt_reset

# Many tasks and small buffers: their names are kept aside, not logged.
echo 16 >"$MT_DIR/buffer_size_kb"
# They sleep until killed: forking 2000 takes long under TCG, and a
# sleeper that timed out would leave before the trace starts.
: >"$TMPD/sleepers"
"$HELPER" sleepers 2000 3600 >"$TMPD/sleepers" &
s=$!
i=0
while [ "$(cat "$TMPD/sleepers")" != ready ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
ls /proc | grep -E '^[0-9]+$' >"$TMPD/before"
tasks=$(wc -l <"$TMPD/before")
check "a start with $tasks tasks and 16 KiB buffers works" "$(wr "$MT_DIR/enable" 1)" ok
check "and the trace runs" "$(mt_state)" 1
mt_stop
# The processes alive before the start and after the stop were there the
# whole time: each must be named (a process counted before the start may
# have exited since, such as the ls above).
for p in $(cat "$TMPD/before"); do [ -d "/proc/$p" ] && echo "$p"; done >"$TMPD/alive"
kill $s
wait $s 2>/dev/null
mt_save "$T"
mt_events "$T" task_list | awk '{ print $1 }' >"$TMPD/listed"
echo "# $(wc -l <"$TMPD/listed") tasks listed; $tasks processes before the start"
alive=$(wc -l <"$TMPD/alive")
check "its task list names all $alive processes that lived through it, untruncated" \
	"$([ "$(wc -l <"$TMPD/alive")" -gt 2000 ] && echo yes):$(
	   awk 'NR == FNR { l[$1] = 1; next } !($1 in l)' "$TMPD/listed" "$TMPD/alive" | wc -l):$(
	   grep -c '^# task_list_truncated' "$T")" "yes:0:0"
check "nothing was dropped" "$(sed -n 's/^# dropped //p' "$T")" 0
mt_reset
echo 1024 >"$MT_DIR/buffer_size_kb"

ktap_finished
