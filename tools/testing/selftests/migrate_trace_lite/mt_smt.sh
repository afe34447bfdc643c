#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reasons that need SMT threads and NUMA nodes (the 32-CPU guest), on
# workloads that leave the scheduler one choice.  In node 0's LLC a task
# sleeps on the first thread of its third core, busy with a spinner, and
# is woken from node 1, where it may not run (no wake_affine: its own CPU
# is the target); spinners run on the first thread of:
#   every core but the last, whose second thread has just run a task and
#   gone idle (the LLC knows it has an idle core): idle_core, to the
#   last core;
#   every core: the idle sibling of its CPU, idle_smt_sibling (the first
#   round may find the LLC's idle-core hint still set from before the
#   spinners: the scan for an idle core then clears it and takes that
#   same sibling, idle_cpu);
#   every core, and its own core's second thread: the scan takes the
#   next idle thread, idle_cpu, whatever the hint says.
# Then node 1 runs one spinner more than it has CPUs, and the spinners may
# also use the last CPU of node 0 from a mark on: the first to go there is
# moved by the balance between the nodes, by utilization (lb_idle_util).

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -lt 2 ] ||
   ! grep -q '[,-]' /sys/devices/system/cpu/cpu0/topology/thread_siblings_list; then
	ktap_skip_all "needs 2 NUMA nodes and SMT threads"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 7
ROUNDS=${MT_SMT_ROUNDS:-2}
WANT_MARK=0x5300
NB=/proc/sys/kernel/numa_balancing
old_nb=$(cat "$NB" 2>/dev/null || echo 0)

# The CPUs of a CPU list, space separated.
expand() { echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-")
	for (c = r[1]; c <= r[n]; c++) { printf "%s%d", s, c; s = " " } } }'; }
node0=$(cat /sys/devices/system/node/node0/cpulist)
node1=$(cat /sys/devices/system/node/node1/cpulist)
# The LLC of node 0's first CPU: the wakeups' scans stay in it.  It is
# the whole node on the 32-CPU guest, half of it on the 64-CPU one.
llc0=$(cat "/sys/devices/system/cpu/cpu${node0%%[-,]*}/cache/index3/shared_cpu_list" \
	2>/dev/null || echo "$node0")
# Its cores as "FIRST SECOND" threads, in CPU order.
for c in $(expand "$llc0"); do
	tr ',-' '  ' <"/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
done | grep . | sort -un >"$TMPD/cores"
ncores=$(wc -l <"$TMPD/cores")
first() { awk -v n="$1" 'NR == n { print $1 }' "$TMPD/cores"; }
second() { awk -v n="$1" 'NR == n { print $2 }' "$TMPD/cores"; }
# The first threads of cores FROM to TO, comma separated.
firsts() {
	awk -v a="$1" -v b="$2" 'NR >= a && NR <= b { printf "%s%s", s, $1; s = "," }' "$TMPD/cores"
}
# The first CPU of the list CPUS (space separated) but those of BUSY
# (comma separated) after FROM, wrapping around: where a scan of the
# LLC that starts after FROM stops.
wrap_first() {
	echo "$2" | tr ' ' '\n' | sort -n | awk -v from="$1" -v busy=",$3," '
		index(busy, "," $1 ",") { next }
		$1 > from && !after { after = $1 }
		!seen++ { low = $1 }
		END { print after ? after : low }'
}
waker=$(echo "$node1" | sed 's/[-,].*//')
prev=$(first 3) sib=$(second 3)
ktap_print_msg "node0 $node0, its LLC $llc0: $ncores cores;" \
	"the task sleeps on $prev, woken from $waker"

echo 0 >"$NB" 2>/dev/null
# Node 0 to the workloads alone: the rest, and this shell, on node 1's last CPU.
kthreads_to "$(cpu_mask "$(expand "$node1" | awk '{ print $NF }')")"
mt_reset
mt_start
# FORK PREV MASK WAKER SPINNERS KICK ROUNDS: see mt_place's wakeup.
# Where the LLC's scans, from the CPU after prev, stop: at the idle last
# core, and at the first idle thread when prev's sibling is busy too.
core=$(wrap_first "$prev" "$(sed -n "${ncores}p" "$TMPD/cores")")
thread=$(wrap_first "$prev" "$(expand "$llc0")" "$(firsts 1 "$ncores"),$sib")
want idle_core "try_to_wake_up/idle_core $prev $core" \
	wakeup "$waker" "$prev" "$llc0" "$waker" "$(firsts 1 $((ncores - 1)))" \
	"$(second "$ncores")" "$ROUNDS"
want idle_smt_sibling "try_to_wake_up/idle_smt_sibling $prev $sib" \
	wakeup "$waker" "$prev" "$llc0" "$waker" "$(firsts 1 "$ncores")" -1 $((ROUNDS + 1))
want idle_cpu "try_to_wake_up/idle_cpu $prev $thread" \
	wakeup "$waker" "$prev" "$llc0" "$waker" "$(firsts 1 "$ncores"),$sib" -1 "$ROUNDS"
last=$(echo "$node0" | sed 's/.*[-,]//')
n1=$(expand "$node1" | wc -w)
want util "" balance-util "$node1" "$last" $((n1 + 1))
mt_stop
kthreads_back
echo "$old_nb" >"$NB" 2>/dev/null
T=$TMPD/smt
mt_save "$T"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/smt"

check "idle_core: an idle core found, in each of $ROUNDS rounds" \
	"$(unwanted "$T" idle_core | head -3)" ""
# The first round of the half busy cores may meet a stale idle-core hint:
# the scan for an idle core clears it, and takes the same sibling.
awk -F@ -v OFS=@ '$1 == "idle_smt_sibling" && !n++ {
	$1 = "first_sibling"; sub(/idle_smt_sibling/, "idle_(smt_sibling|cpu)", $2) } { print }' \
	"$TMPD/wanted" >"$TMPD/w" && mv "$TMPD/w" "$TMPD/wanted"
check "idle_smt_sibling: its core's idle sibling, in each of $ROUNDS rounds" \
	"$(unwanted "$T" idle_smt_sibling | head -3)" ""
check "the first round: the idle sibling, as idle_smt_sibling or idle_cpu" \
	"$(unwanted "$T" first_sibling)" ""
check "idle_cpu: the next idle thread, in each of $ROUNDS rounds" \
	"$(unwanted "$T" idle_cpu | head -3)" ""
IFS=@ read -r x x pids b e <<EOF
$(grep '^util@' "$TMPD/wanted")
EOF
# shellcheck disable=SC2086
check "the first move to CPU $last of node 1's spinners: the balance across nodes, by utilization" \
	"$(moves_of "$T" "$b" "$e" $pids |
	   awk -v d="$last" '$4 == d { print $2, "to", $4; exit }')" \
	"detach_tasks/lb_idle_util to $last"
check "the trace lost nothing" "$(mt_lost "$T")" "0 0"
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
mt_reset

ktap_finished
