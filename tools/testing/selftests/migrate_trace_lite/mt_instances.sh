#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migration_trace/instances/: mkdir and rmdir with their refusals (names,
# the bound, an enabled or open instance); three traces at once over a
# forking workload, the top one, a flight recorder and an instance that
# selects the workload's wakeups by pid with fork-following, each
# holding exactly what the others say it should; and a storm of mkdir,
# rmdir, bad filters and starts while migrations run and the top trace
# is read through trace_pipe, which must lose nothing.

. "$(dirname "$0")/mt_lib.sh"

STORM=${MT_INSTANCES_STORM_SECONDS:-8}
ktap_print_header
mt_require
if [ "$(nproc)" -lt 2 ]; then
	ktap_skip_all "needs 2 CPUs"
	exit "$KSFT_SKIP"
fi
if [ ! -d "$MT_DIR/instances" ]; then
	ktap_skip_all "no $MT_DIR/instances: a kernel without instances"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 34

I=$MT_DIR/instances
mk() { "$HELPER" mkdir "$I/$1"; }
rm_() { "$HELPER" rmdir "$I/$1"; }
names() { ls "$I" | tr '\n' ' '; }

# ---- mkdir and rmdir ----------------------------------------------------
mt_reset
check "instances/ starts empty" "$(names)" ""
check "mkdir instances/a" "$(mk a)" ok
FILES="buffer_size_kb enable event_fork filter mark overwrite reset set_event_pid stats"
check "an instance has the top trace's files but dump_on_oops" "$(ls "$I/a" | tr '\n' ' ')" \
	"$FILES trace trace_pipe "
check "its files have the top trace's modes" \
	"$(cd "$I/a" && stat -c '%n %a' enable mark stats trace trace_pipe | tr '\n' ' ')" \
	"enable 600 mark 200 stats 400 trace 400 trace_pipe 400 "
check "a name taken is refused (EEXIST)" "$(mk a)" EEXIST
for bad in .hidden "a b" "a*b"; do
	check "the name '$bad' is refused (EINVAL)" "$(mk "$bad")" EINVAL
done
check "a name of 33 characters is refused (ENAMETOOLONG)" \
	"$(mk x12345678901234567890123456789012)" ENAMETOOLONG
made=0
for n in 1 2 3 4 5 6 7; do
	[ "$(mk b$n)" = ok ] && made=$((made + 1))
done
check "7 more instances: 8 in all" "$made $(names | wc -w)" "7 8"
check "a ninth is refused (ENOSPC)" "$(mk b8)" ENOSPC
removed=0
for n in 1 2 3 4 5 6 7; do
	[ "$(rm_ b$n)" = ok ] && removed=$((removed + 1))
done
check "rmdir of the 7" "$removed $(names)" "7 a "
check "rmdir of no instance fails (ENOENT)" "$(rm_ nothere)" ENOENT
echo 1 >"$I/a/enable"
check "an instance starts alone: the top trace stays off" "$(cat "$I/a/enable")$(mt_state)" 10
check "rmdir of an enabled instance is refused (EBUSY)" "$(rm_ a)" EBUSY
echo 0 >"$I/a/enable"
exec 3<"$I/a/stats"
check "rmdir of an instance with a file open is refused (EBUSY)" "$(rm_ a)" EBUSY
exec 3<&-
check "rmdir of a stopped instance with records, its files closed" "$(rm_ a)" ok
check "its directory is gone" "$(names)$(test -e "$I/a" && echo there)" ""
check "its name can be taken again" "$(mk a)$(rm_ a)" okok

# ---- three traces over a forking workload ---------------------------------
# The workload of mt_pidfilter (mt_fork_workload, in mt_lib.sh).
W=$TMPD/work.sh LIST=$TMPD/list FIFO=$TMPD/go
mt_fork_workload "$W"

# Migration lines of TRACE, as the trace has them.
moves() { grep -v '^#' "$1" | awk 'NF == 7 && $3 != "."'; }
# Those of the pids in the files given.
of_pids() { awk -v f="$*" 'BEGIN { n = split(f, fs, " ")
	for (i = 1; i <= n; i++) while ((getline p <fs[i]) > 0) want[p] = 1 }
	($5 in want)'; }
# The records of the rings a stream of TRACE holds: not its clocks, task
# list or lost lines.
records() {
	n=$(moves "$1" | wc -l)
	for k in copy_process set_task_comm mark clamped; do
		n=$((n + $(mt_events "$1" $k | wc -l)))
	done
	echo "$n"
}

rm -f "$LIST" "$LIST.children" "$LIST.leaves"
mkfifo "$FIFO"
mk fr >/dev/null
mk ad >/dev/null
echo 1 >"$I/fr/overwrite"
echo 8192 >"$I/fr/buffer_size_kb"
echo 8192 >"$MT_DIR/buffer_size_kb"
sh "$W" top "$LIST" "$FIFO" &
top=$!
echo "$top" >"$TMPD/top"
echo try_to_wake_up >"$I/ad/filter"
echo "$top" >"$I/ad/set_event_pid"
echo 1 >"$I/ad/event_fork"
# The flight recorder's window holds the top trace's, which holds the
# instance's; the workload runs inside all three.
echo 1 >"$I/fr/enable"
mt_start
echo 1 >"$I/ad/enable"
echo go >"$FIFO"
wait "$top"
echo 0 >"$I/ad/enable"
mt_stop
echo 0 >"$I/fr/enable"
cat "$I/fr/trace" >"$TMPD/fr"
cat "$I/ad/trace" >"$TMPD/ad"
mt_save "$TMPD/top.t"
moves "$TMPD/fr" >"$TMPD/fr.m"
moves "$TMPD/ad" >"$TMPD/ad.m"
moves "$TMPD/top.t" >"$TMPD/top.m"
ktap_print_msg "  moves: top $(wc -l <"$TMPD/top.m"), flight recorder $(wc -l <"$TMPD/fr.m")," \
	"instance $(wc -l <"$TMPD/ad.m"); workload $(wc -l <"$LIST") descendants"
check "no trace lost a record" \
	"$(mt_lost "$TMPD/fr") $(mt_lost "$TMPD/ad") $(mt_lost "$TMPD/top.t")" "0 0 0 0 0 0"
check "every line of each trace is well formed" \
	"$(mt_malformed "$TMPD/fr"; mt_malformed "$TMPD/ad"; mt_malformed "$TMPD/top.t")" ""
check "the instance's header states its name and filters" \
	"$(sed -n 's/^# instance //p; s/^# filter //p; s/^# pid_filter //p; s/^# event_fork //p' \
		"$TMPD/ad" | tr '\n' ' ')" "ad try_to_wake_up $top 1 "
check "the top trace's header names no instance" "$(grep -c '^# instance' "$TMPD/top.t")" 0
check "the instance recorded some moves, all of them wakeups" \
	"$(some "$(wc -l <"$TMPD/ad.m")") $(mt_migrations "$TMPD/ad" |
		awk '$4 != "try_to_wake_up"' | head -3)" "yes "
# The same move in two traces is the same line: one clock read serves all.
of_pids "$TMPD/top" "$LIST" <"$TMPD/fr.m" | awk '$6 == 1' >"$TMPD/fr.want"
if [ -s "$TMPD/ad.m" ] && cmp -s "$TMPD/ad.m" "$TMPD/fr.want"; then
	ktap_test_pass "the instance holds exactly the flight recorder's wakeups of the workload"
else
	ktap_test_fail "the instance holds exactly the flight recorder's wakeups of the workload"
	diff "$TMPD/ad.m" "$TMPD/fr.want" | head -8 | sed 's/^/#   /'
fi
# The children and grandchildren that woke up on another CPU (whether a
# move is a wakeup's depends on the timing of taskset).
cat "$LIST.children" "$LIST.leaves" >"$TMPD/kids"
woke() { of_pids "$TMPD/kids" <"$1" | awk '$6 == 1 { print $5 }' | sort -u | tr '\n' ' '; }
check "fork-following caught the wakeups of the children and grandchildren" \
	"$(some "$(woke "$TMPD/ad.m" | wc -w)") $(woke "$TMPD/ad.m")" "yes $(woke "$TMPD/fr.m")"
first=$(head -1 "$TMPD/top.m" | cut -d' ' -f1) last=$(tail -1 "$TMPD/top.m" | cut -d' ' -f1)
awk -v a="$first" -v b="$last" '$1 >= a && $1 <= b' "$TMPD/fr.m" >"$TMPD/fr.window"
if [ -s "$TMPD/top.m" ] && cmp -s "$TMPD/top.m" "$TMPD/fr.window"; then
	ktap_test_pass "over the top trace's window, the flight recorder holds exactly its moves"
else
	ktap_test_fail "over the top trace's window, the flight recorder holds exactly its moves"
	diff "$TMPD/top.m" "$TMPD/fr.window" | head -8 | sed 's/^/#   /'
fi
check "rmdir of both" "$(rm_ fr)$(rm_ ad)$(names)" okok
mt_reset

# ---- the storm ----------------------------------------------------------------
# Migrations on every CPU; the top trace read through trace_pipe; two
# loops that make, filter, start, read, stop and remove instances and try
# bad names, bad filters, the bound and refused removals.
mt_reset
echo 8192 >"$MT_DIR/buffer_size_kb"
mt_start
cat "$MT_DIR/trace_pipe" >"$TMPD/pipe" &
reader=$!
end=$(($(cut -d. -f1 /proc/uptime) + STORM))
for c in $(seq 0 $(($(nproc) - 1))); do
	(while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		taskset -c "$c" true
		taskset -c $(( (c + 1) % $(nproc) )) true
	done) &
	echo $! >>"$TMPD/hoppers"
done
storm() {
	n=0 odd=0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		d=$I/$1$n
		r=$(mk "$1$n")
		if [ "$r" != ok ] && [ "$r" != ENOSPC ]; then
			odd=$((odd + 1))
			echo "mkdir $r" >>"$TMPD/odd.$1"
		fi
		if [ "$r" = ok ]; then
			[ "$(wr "$d/filter" bogus)" = EINVAL ] || odd=$((odd + 1))
			[ "$(wr "$d/buffer_size_kb" 0)" = EINVAL ] || odd=$((odd + 1))
			echo "try_to_wake_up detach_tasks" >"$d/filter"
			[ $((n % 2)) = 1 ] && echo 1 >"$d/overwrite"
			echo 1 >"$d/enable"
			[ "$(wr "$d/filter" all)" = EBUSY ] || odd=$((odd + 1))
			[ "$(rm_ "$1$n")" = EBUSY ] || odd=$((odd + 1))
			echo $n >"$d/mark"
			cat "$d/stats" >/dev/null
			echo 0 >"$d/enable"
			grep -vc '^#' "$d/trace" >/dev/null
			r=$(rm_ "$1$n")
			[ "$r" = ok ] || { odd=$((odd + 1)); echo "rmdir $r" >>"$TMPD/odd.$1"; }
		fi
		n=$((n + 1))
	done
	echo "$n $odd" >"$TMPD/storm.$1"
}
storm s &
s1=$!
storm t &
s2=$!
# A third hand makes instances up to the bound and leaves them, disabled.
for n in 1 2 3 4; do mk keep$n >/dev/null; done
wait $s1 $s2
for p in $(cat "$TMPD/hoppers"); do wait "$p"; done
mt_stop
sleep 1
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
ktap_print_msg "  storm: $(cut -d' ' -f1 "$TMPD/storm.s") + $(cut -d' ' -f1 "$TMPD/storm.t")" \
	"rounds, $(grep -vc '^#' "$TMPD/pipe") lines through the top trace's trace_pipe"
odd_ones() { cat "$TMPD"/odd.* 2>/dev/null | sort -u | head -3; }
check "every refusal had its errno, every removal of a stopped instance worked" \
	"$(cut -d' ' -f2 "$TMPD/storm.s") $(cut -d' ' -f2 "$TMPD/storm.t") $(odd_ones)" "0 0 "
rounds() { some "$(cut -d' ' -f1 "$TMPD/storm.$1")"; }
check "both loops ran" "$(rounds s) $(rounds t)" "yes yes"
check "only the instances left standing remain" "$(names)" "keep1 keep2 keep3 keep4 "
check "the top trace lost nothing meanwhile" \
	"$(awk '$1 == "total" { print $3, $4 }' "$MT_DIR/stats") $(mt_events "$TMPD/pipe" lost |
		head -2)" "0 0 "
check "its trace_pipe handed out every record it logged" "$(records "$TMPD/pipe")" \
	"$(awk '$1 == "total" { print $2 }' "$MT_DIR/stats")"
removed=0
for n in 1 2 3 4; do [ "$(rm_ keep$n)" = ok ] && removed=$((removed + 1)); done
check "rmdir of those" "$removed $(names)" "4 "
mt_reset
echo 1024 >"$MT_DIR/buffer_size_kb"

ktap_finished
