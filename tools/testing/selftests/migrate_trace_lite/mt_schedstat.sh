#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The trace against the kernel's own migration counters (CONFIG_SCHEDSTATS):
# long-lived tasks that a load balancer, wakeups and affinity changes
# move, stopped (SIGSTOP) whenever the trace is not running, recorded by
# migrate_record --schedstat.  For each of them se.nr_migrations must
# equal its moves in the trace but its fork placement, and
# nr_wakeups_migrate its try_to_wake_up moves, exactly.  The files go to
# MT_KEEP for the host's migrate_schedstat test (t/47-migrate_schedstat.t).

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
RECORD=$HERE/migrate_record
if [ ! -w /proc/sys/kernel/sched_schedstats ] || [ ! -x "$RECORD" ]; then
	ktap_skip_all "needs CONFIG_SCHEDSTATS and migrate_record"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 6
NCPU=$(nproc)
S=$TMPD/schedstat T=$TMPD/trace

# The workload, stopped until the trace runs: CPU hogs for the balancer,
# sleepers for wakeups, and a hog whose affinity changes.
pids=
i=0
while [ $i -lt $((NCPU + 2)) ]; do
	sh -c 'kill -STOP $$; while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
for i in 1 2 3; do
	sh -c 'kill -STOP $$; while :; do sleep 0.01; done' &
	pids="$pids $!"
done
sh -c 'kill -STOP $$; while :; do :; done' &
hopper=$!
pids="$pids $hopper"

# stopped_all: every workload task is in state T.
stopped_all() {
	for p in $pids; do
		[ "$(awk '{ print $3 }' "/proc/$p/stat")" = T ] || return 1
	done
}
until stopped_all; do sleep 0.1; done

cat >"$TMPD/run" <<EOF
kill -CONT $pids
c=0
for i in 1 2 3 4 5 6 7 8; do
	taskset -p \$((1 << c)) $hopper >/dev/null
	c=\$(((c + 1) % $NCPU))
	sleep 0.5
done
kill -STOP $pids
for p in $pids; do
	until [ "\$(awk '{ print \$3 }' /proc/\$p/stat)" = T ]; do sleep 0.05; done
done
EOF
"$RECORD" -q --schedstat "$S" -o "$T" -- sh "$TMPD/run" 2>"$TMPD/err"
check "migrate_record --schedstat records" "$?:$(cat "$TMPD/err" | grep -v ' events to ')" "0:"
kill -9 $pids 2>/dev/null
wait 2>/dev/null

# PID KERNEL_MIGRATIONS KERNEL_WAKEUP_MIGRATIONS TRACE_MOVES TRACE_WAKEUP_MOVES
# for each workload task.
awk -v pids="$pids" '
	BEGIN { n = split(pids, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1 }
	FILENAME ~ /schedstat/ && /^# when / { when = $3; next }
	FILENAME ~ /schedstat/ && $1 == "task" && ($2 in want) {
		sign = when == "before" ? -1 : 1
		m[$2] += sign * $3
		w[$2] += sign * $4
		if (when == "after")
			seen[$2] = 1
		next
	}
	FILENAME !~ /schedstat/ && $1 == "#" && $2 == "cause" { cause[$3] = $4; next }
	FILENAME !~ /schedstat/ && /^0x/ && $3 != "." && ($5 in want) {
		if (cause[$6] != "wake_up_new_task") tm[$5]++
		if (cause[$6] == "try_to_wake_up") tw[$5]++
	}
	END { for (p in want) print p, m[p] + 0, w[p] + 0, tm[p] + 0, tw[p] + 0, seen[p] + 0 }
' "$S" "$T" >"$TMPD/counts"
ktap_print_msg "pid nr_migrations nr_wakeups_migrate trace_moves trace_wakeup_moves"
sed 's/^/#   /' "$TMPD/counts"
check "every workload task is in both snapshots" \
	"$(awk '!$6 { print $1 }' "$TMPD/counts")" ""
check "the trace lost nothing" \
	"$(awk '$1 == "#" && ($2 == "dropped" || $2 == "overwritten") { s += $3 }
		END { print s + 0 }' "$T")" 0
check "the workload moved: balancer, wakeups, affinity" \
	"$(awk '{ m += $4; w += $5 }
		END { print (m > 20 && w > 5) ? "yes" : m " " w }' "$TMPD/counts")" yes
check "se.nr_migrations of every task equals its moves but forks, exactly" \
	"$(awk '$2 != $4 { print $1 ": " $2 " != " $4 }' "$TMPD/counts")" ""
check "nr_wakeups_migrate of every task equals its try_to_wake_up moves, exactly" \
	"$(awk '$3 != $5 { print $1 ": " $3 " != " $5 }' "$TMPD/counts")" ""
if [ -n "${MT_KEEP:-}" ]; then
	cp "$S" "$MT_KEEP/schedstat.snap"
	cp "$T" "$MT_KEEP/schedstat.trace"
	echo $pids >"$MT_KEEP/schedstat.pids"
fi
ktap_finished
