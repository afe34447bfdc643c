#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a machine with NUMA nodes and SMT threads: the trace's topology lines
# describe it; NUMA balancing and core scheduling run their paths
# (migrate_task_to, __migrate_swap_task, try_steal_cookie) and the trace
# names them; the trace reads out at many CPUs.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
NCPU=$(nproc)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -lt 2 ] || [ ! -f /proc/sys/kernel/numa_balancing ] ||
   ! grep -q '[,-]' /sys/devices/system/cpu/cpu0/topology/thread_siblings_list; then
	ktap_skip_all "needs 2 NUMA nodes, NUMA balancing and SMT threads"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 10
node_cpus() { cat "/sys/devices/system/node/node$1/cpulist"; }
# The first two cores (four SMT threads) of node 0.
smt_cpus=$(for c in 0 1 2 3 4 5 6 7; do
	cat "/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"; done |
	sort -u | head -2 | tr '\n' ',' | sed 's/,$//')
ktap_print_msg "$NCPU CPUs, $nodes nodes; node0 $(node_cpus 0); SMT pairs $smt_cpus"

SCHED=/sys/kernel/debug/sched/numa_balancing
echo 1 >/proc/sys/kernel/numa_balancing
echo 100 >"$SCHED/scan_delay_ms"
echo 100 >"$SCHED/scan_period_min_ms"
echo 400 >"$SCHED/scan_period_max_ms"

# segment NAME RE COMMAND...: the workload COMMAND in a trace of its own,
# TMPD/NAME, run again in a new trace (five runs at most) while it has no
# move whose CAUSE/REASON matches RE.  NUMA balancing scans by the tasks'
# run time, and core scheduling steals at their switches: a loaded host,
# whose one QEMU thread runs the 32 vCPUs, gives them much less of either
# in the same seconds.  Once the move is there, no more runs: an unloaded
# host needs one.  (A stopped trace does not start again before a reset,
# hence a trace each.)
SEGMENTS=
segment() {
	local name=$1 re=$2 i
	shift 2
	for i in 1 2 3 4 5; do
		mt_reset
		mt_start
		"$@"
		mt_stop
		mt_save "$TMPD/$name"
		reason_counts "$TMPD/$name" >"$TMPD/$name.counts"
		[ "$(has_moves "$TMPD/$name.counts" "$re")" = yes ] && break
		ktap_print_msg "$name: run $i had no move of $re"
	done
	SEGMENTS="$SEGMENTS $TMPD/$name"
}

# Memory bound to its node, tasks free on every CPU: NUMA balancing has
# to move each task back to its memory, to an idle CPU there.  By its
# stopper, or by the wakeup that completes the move when the task was
# already asleep waiting for that stopper.
NUMA_MIGRATE='^(migration_cpu_stop|try_to_wake_up)/numa_migrate'
segment numa "$NUMA_MIGRATE" \
	"$HELPER" numa 20 32 2 "$(node_cpus 0)" "$(node_cpus 1)" "0-$((NCPU - 1))"
# Two CPUs of each node for two tasks of each, every other CPU busy: a
# task's node has no idle CPU and no spare capacity, so NUMA balancing
# swaps it with a task that wants the other node.
a0=$(node_cpus 0 | sed 's/[-,].*//') a1=$(node_cpus 1 | sed 's/[-,].*//')
spinners=""
for c in $(seq 0 $((NCPU - 1))); do
	case $c in $a0|$((a0 + 1))|$a1|$((a1 + 1))) continue ;; esac
	taskset -c "$c" sh -c 'while :; do :; done' &
	spinners="$spinners $!"
done
segment swap '^__migrate_swap_task/' \
	"$HELPER" numa 30 16 2 "$a0-$((a0 + 1))" "$a1-$((a1 + 1))" "$a0-$((a0 + 1)),$a1-$((a1 + 1))"
kill $spinners
wait $spinners 2>/dev/null
segment cookies '^try_steal_cookie/' "$HELPER" cookies 10 2 3 "$smt_cpus"
# The last trace is still in the buffers, for the read-out below.
T=$TMPD/cookies
# The NUMA workload's trace, for the host's tools (t/44).
# The NUMA workload's trace, for the host's tools (t/44).
[ -n "${MT_KEEP:-}" ] && cat "$TMPD/numa" >"$MT_KEEP/topology"
# shellcheck disable=SC2086
cat $(for f in $SEGMENTS; do echo "$f.counts"; done) |
	awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort >"$TMPD/counts"
ktap_print_msg "migrations by cause/reason:"
sed 's/^/#   /' "$TMPD/counts"

check "a topology line for every possible CPU" \
	"$(grep -c '^# topology ' "$T")" "$(sed -n 's/^# nr_cpus //p' "$T")"
check "the topology lines show the $nodes NUMA nodes" \
	"$(awk '$2 == "topology" { n[$6] = 1 } END { print length(n) }' "$T")" "$nodes"
check "SMT siblings share their core id: half as many cores as CPUs" \
	"$(awk '$2 == "topology" { c[$4] = 1; n++ }
		END { print length(c) * 2 == n ? "yes" : length(c) }' "$T")" yes
check "each CPU's node agrees with sysfs" \
	"$(awk '$2 == "topology" { print $3, $6 }' "$T" | while read -r c n; do
		[ -d "/sys/devices/system/cpu/cpu$c/node$n" ] || echo "cpu$c node$n"
	   done | head -3)" ""
check "NUMA balancing moved a task toward its memory (numa_migrate)" \
	"$(has_moves "$TMPD/counts" "$NUMA_MIGRATE")" yes
check "NUMA balancing swapped two tasks (__migrate_swap_task)" \
	"$(has_moves "$TMPD/counts" '^__migrate_swap_task/')" yes
check "core scheduling stole a task of the same cookie (try_steal_cookie)" \
	"$(has_moves "$TMPD/counts" '^try_steal_cookie/')" yes
# shellcheck disable=SC2086
check "every line is well formed" "$(for f in $SEGMENTS; do mt_malformed "$f"; done | head -3)" ""
set -- $("$HELPER" read-time "$MT_DIR/trace")
ktap_print_msg "read-out at $NCPU CPUs: $3 lines in $(( $1 / 1000000 )) ms," \
	"$(( $1 / ($3 + 1) )) ns a line"
check "the trace reads out whole at $NCPU CPUs" \
	"$([ "$3" -eq "$(wc -l <"$T")" ] && echo yes)" yes
# shellcheck disable=SC2086
lost=$(for f in $SEGMENTS; do sed -n 's/^# \(dropped\|overwritten\) //p' "$f"; done)
check "no record was lost" "$(echo "$lost" | sort -u | tr '\n' ' ')" "0 "
mt_reset

ktap_finished
