#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The load balancer's reasons, and its idle types against the kernel's
# own counters.  Each workload of mt_place's balance (spinners on CPU 0
# that may use one more CPU from a mark on) lets one kind of balance
# move one of them:
#   newidle  CPU 1's spinner goes to sleep: detach_tasks/lb_newidle_task
#            (or CPU 1's busy balance, just before)
#   idle     CPU 2 idle, the movable spinner queued: detach_tasks/lb_idle_task
#   active   CPU 1 idle, the movable spinner running: active balancing,
#            detach_one_task/active_balance (or, if a preemption let an
#            idle balance take it first, detach_tasks/lb_idle_*)
#   busy     every CPU busy, CPU 3 most (one of its spinners may use CPU 0): CPU
#            0's busy balance by load, detach_tasks/lb_busy_load
# and between the marks the spinners' moves must be exactly that one.
# Around them, with schedstats on, /proc/schedstat's lb_gained per CPU
# (summed over its domains) and idle type must agree with the trace's
# balancer moves to that CPU of that type (detach_one_task's count as
# idle): each snapshot is bracketed by two marks, so that the kernel's
# count lies between the trace's moves inside the inner marks and those
# inside the outer ones, whatever the balancer does while it is read.
# A balance reported with another idle type fails there even where no
# workload above names it.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
SS=/proc/sys/kernel/sched_schedstats
if [ "$(nproc)" -lt 4 ] || [ ! -w "$SS" ]; then
	ktap_skip_all "needs 4 CPUs and CONFIG_SCHEDSTATS"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 10
ROUNDS=${MT_BALANCE_ROUNDS:-2}
WANT_MARK=0x5200
old_ss=$(cat "$SS")

# lb_gained per CPU and idle type of /proc/schedstat (version 16: per
# domain "domainN MASK", then 8 counts per idle type busy, idle, newly
# idle, lb_gained the fifth) as "CPU TYPE COUNT".
lb_gained() {
	awk '
	$1 == "version" && $2 != 16 { print "version", $2; exit }
	$1 ~ /^cpu[0-9]+$/ { cpu = substr($1, 4); for (t = 0; t < 3; t++) g[cpu " " t] += 0 }
	$1 ~ /^domain[0-9]+$/ { for (t = 0; t < 3; t++) g[cpu " " t] += $(7 + 8 * t) }
	END { for (k in g) print k, g[k] }
	' "$1" | sort
}

# CPUs 0 to 2 to the workloads alone: the rest, and this shell, on CPU 3.
kthreads_to 8
mt_reset
mt_start
echo 1 >"$SS"
echo 0x52f0 >"$MT_DIR/mark"
cat /proc/schedstat >"$TMPD/before"
echo 0x52f1 >"$MT_DIR/mark"
i=0
while [ $i -lt "$ROUNDS" ]; do
	# Without CONFIG_PREEMPTION a newly idle balance may take two of
	# the three at once (an imbalance of two tasks): both its own.  In
	# the 20 ms between the mark and CPU 1's going idle (longer when a
	# loaded host does not run that vCPU), CPU 1's own busy balance may
	# take one first (seen once in a loaded make check): the move is
	# then that balance's, which the schedstat check below still pins.
	newidle="detach_tasks/lb_newidle_task 0 1"
	want newidle "$newidle(;$newidle)?|detach_tasks/lb_busy_load 0 1" balance newidle
	want idle "detach_tasks/lb_idle_task 0 2" balance idle
	# A kernel thread that preempts the spinner for a moment lets an
	# idle balance take it first (1 boot in 8): the move is then that
	# balance's, which the schedstat check below still pins.
	want active "detach_one_task/active_balance 0 1|detach_tasks/lb_idle_[a-z]+ 0 1" \
		balance active
	want busy "detach_tasks/lb_busy_load 3 0" balance busy
	i=$((i + 1))
done
echo 0x52f2 >"$MT_DIR/mark"
cat /proc/schedstat >"$TMPD/after"
echo 0x52f3 >"$MT_DIR/mark"
echo "$old_ss" >"$SS"
mt_stop
kthreads_back
T=$TMPD/balance
mt_save "$T"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/balance"

for name in newidle idle active busy; do
	exp=$(awk -F@ -v n="$name" '$1 == n { print $2; exit }' "$TMPD/wanted")
	check "$name: $exp in each of $ROUNDS rounds" "$(unwanted "$T" "$name" | head -3)" ""
done

# The kernel's moves per CPU and idle type: after - before.
lb_gained "$TMPD/before" >"$TMPD/g0"
lb_gained "$TMPD/after" >"$TMPD/g1"
# The trace's balancer moves per CPU and idle type between two marks.
lb_moves() {
	awk -v b="$(printf '0x%08x' "$2")" -v e="$(printf '0x%08x' "$3")" '
	/^# cause / { cause[$3] = $4; next }
	/^# reason / { reason[$3] = $4; next }
	/^#/ { next }
	$3 == "." && $7 == b { on = 1 }
	$3 == "." && $7 == e { on = 0 }
	!on || $3 == "." { next }
	cause[$6] == "detach_one_task" { n[$4 " 1"]++ }
	cause[$6] == "detach_tasks" {
		r = reason[$7]
		t = r ~ /^lb_busy_/ ? 0 : r ~ /^lb_idle_/ ? 1 : r ~ /^lb_newidle_/ ? 2 : "?"
		n[$4 " " t]++ }
	END { for (k in n) print k, n[k] }
	' "$1"
}
lb_moves "$T" 0x52f1 0x52f2 >"$TMPD/inner"
lb_moves "$T" 0x52f0 0x52f3 >"$TMPD/outer"
# CPU TYPE KERNEL INNER OUTER, for every CPU and type either counts.
awk '
	FILENAME ~ /g0$/ { k0[$1 " " $2] = $3; all[$1 " " $2] = 1; next }
	FILENAME ~ /g1$/ { k1[$1 " " $2] = $3; all[$1 " " $2] = 1; next }
	FILENAME ~ /inner$/ { in_[$1 " " $2] = $3; all[$1 " " $2] = 1; next }
	{ out[$1 " " $2] = $3; all[$1 " " $2] = 1 }
	END { for (k in all) print k, k1[k] - k0[k], in_[k] + 0, out[k] + 0 }
' "$TMPD/g0" "$TMPD/g1" "$TMPD/inner" "$TMPD/outer" | sort -n >"$TMPD/cmp"
ktap_print_msg "cpu type(0 busy, 1 idle, 2 newidle) lb_gained trace-inner trace-outer"
sed 's/^/#   /' "$TMPD/cmp"
check "/proc/schedstat is version 16" "$(grep -c '^version' "$TMPD/g0")" 0
check "the trace names an idle type for every balancer move" \
	"$(awk '$2 == "?"' "$TMPD/outer" "$TMPD/inner" | head -3)" ""
check "lb_gained per CPU and idle type lies within the trace's moves around its reads" \
	"$(awk '$3 < $4 || $3 > $5 {
		print "cpu" $1 " type " $2 ": " $3 " not in [" $4 ", " $5 "]" }' "$TMPD/cmp" |
	   head -5)" ""
check "the workloads balanced in all three idle types" \
	"$(awk '$3 > 0 { t[$2] = 1 } END { print length(t) }' "$TMPD/cmp")" 3
check "the trace lost nothing" "$(mt_lost "$T")" "0 0"
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
mt_reset

ktap_finished
