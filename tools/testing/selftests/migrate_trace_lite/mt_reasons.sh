#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reasons (format 1.2): workloads whose reason is known get it.  An
# affinity change of a sleeping task shows at its wakeup as an affinity
# reason; of a running one, in the stopper; wakeups name the placement
# select_task_rq() chose; a task whose only CPU goes offline is placed
# by the fallback; exec and fork balancing, and the load balancer's kind
# of balance, are named.  No
# migration of a cause that has reasons is left without one.  The RT and
# deadline classes' pushes run here; their wakeup placements
# (rt_lowest_rq, dl_later_rq) depend on timing in a mixed load, and
# mt_wakeups asserts each on a workload with one outcome instead.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
ktap_set_plan 13
NCPU=$(nproc)
HP=/sys/devices/system/cpu/cpu1/online

# Moves of PID between marks BEGIN and END of TRACE, as "CAUSE/REASON".
moves_between() {
	awk -v b="$2" -v e="$3" -v pid="$4" '
	/^# cause / { cause[$3] = $4; next }
	/^# reason / { reason[$3] = $4; next }
	/^#/ { next }
	$7 == b { on = 1 } $7 == e { on = 0 }
	on && $3 != "." && $5 == pid {
		print cause[$6] "/" (($7 in reason) ? reason[$7] : "none") }
	' "$1"
}

mt_reset
mt_start
sleeper=$("$HELPER" affinity-sleep 40 1 2 0x3001 0x3002)
runner=$("$HELPER" affinity 40 1 2 0 0x3003 0x3004)
"$HELPER" pingpong 2000
"$HELPER" fifo 6 1500
# Two more deadline processes than CPUs: 2 ms every 10 ms each fits.
deadline=$("$HELPER" deadline $((NCPU + 2)) 2000)
"$HELPER" forkexec 200 /bin/true
# Spinners started on one CPU, then let loose: the load balancer spreads them.
for i in 1 2 3 4; do taskset -c 0 sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' & done
sleep 0.5
for j in $(jobs -p); do taskset -p -a ff "$j" >/dev/null 2>&1; done
# A task allowed only on CPU 1 sleeps while CPU 1 goes away: its wakeup
# can only fall back to another CPU.  It sleeps in the open of a FIFO and
# is woken only once the unplug has returned, however long that took; it
# must be seen asleep on CPU 1 twice in a row first, as /proc shows "S"
# before the task has left its runqueue.
offlined=no
asleep_on() {
	n=0 seen=0
	while [ $n -lt 300 ] && [ $seen -lt 2 ]; do
		if [ "$(cut -d' ' -f3,39 "/proc/$1/stat" 2>/dev/null)" = "S $2" ]; then
			seen=$((seen + 1))
		else
			seen=0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	[ $seen -ge 2 ]
}
if [ -w "$HP" ]; then
	mkfifo "$TMPD/wake"
	taskset -c 1 sh -c 'read -r x <"$1"' sh "$TMPD/wake" &
	sleepy=$!
	asleep_on "$sleepy" 1 && echo 0 >"$HP" && offlined=yes
	# Opened read-write: never blocks, even if the sleeper is gone.
	echo wake 1<>"$TMPD/wake"
fi
wait
mt_stop
[ $offlined = yes ] && echo 1 >"$HP"
T=$TMPD/reasons
mt_save "$T"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/reasons"
reason_counts "$T" >"$TMPD/counts"
ktap_print_msg "migrations by cause/reason:"
sed 's/^/#   /' "$TMPD/counts"

# /proc shows the sleeper "S" from the moment it sets its state, before
# it leaves the runqueue: an affinity change in that window moves it as a
# queued task (affine_move_task/affinity).  Every move must still be named
# an affinity one, and nearly all of them at the wakeup.
check "a sleeping task's 80 affinity moves are all named affinity, at least 72 at its wakeup" \
	"$(moves_between "$T" 0x00003001 0x00003002 "$sleeper" |
	   awk '{ n++ } /\/affinity(_at_wakeup)?$/ { a++ }
		$0 == "try_to_wake_up/affinity_at_wakeup" { w++ }
		END { print n + 0, a + 0, (w >= 72 ? "yes" : "no " w) }')" "80 80 yes"
# Once its mask allows the new CPU, the task can be pulled there by an
# idle balance, if it is not running, before the stopper moves it: the
# move is then the balancer's, and named so.
check "a running task's 80 affinity moves have the reason affinity (or lb_*, at most 4)" \
	"$(moves_between "$T" 0x00003003 0x00003004 "$runner" | awk -F/ '
	   { n++ } $2 == "affinity" { a++ } $2 ~ /^lb_/ { l++ }
	   END { ok = a + l == n && l <= 4
		 print n + 0, (ok ? "yes" : "no: " a + 0 " affinity, " l + 0 " lb_*") }')" \
	"80 yes"
check "wakeups name where select_task_rq() placed the task (wake_affine or idle_*)" \
	"$(has_moves "$TMPD/counts" '^try_to_wake_up/(wake_affine|idle_)')" yes
check "fork balancing: wake_up_new_task/slow_path" \
	"$(has_moves "$TMPD/counts" '^wake_up_new_task/slow_path$')" yes
check "exec balancing: migration_cpu_stop/exec_balance" \
	"$(has_moves "$TMPD/counts" '^migration_cpu_stop/exec_balance$')" yes
check "the load balancer names its balance (detach_tasks/lb_*)" \
	"$(has_moves "$TMPD/counts" '^detach_tasks/lb_')" yes
check "CPU 1 went offline" "$offlined" yes
# Its wakeup, not its last move: once awake, the load balancer may move
# it again before it exits.
check "the task it held woke up from CPU 1 on another CPU by the fallback, once" \
	"$(mt_migrations "$T" | awk -v p="${sleepy:-x}" '$1 == p && $2 == 1 && $3 != 1 &&
		$4 "/" $5 == "try_to_wake_up/fallback" { n++ } END { print n + 0 }')" 1
check "RT push: push_rt_task moves" \
	"$(has_moves "$TMPD/counts" '^push_rt_task/')" yes
check "the SCHED_DEADLINE processes ran" "$deadline" ok
check "deadline push: push_dl_task moves" \
	"$(has_moves "$TMPD/counts" '^push_dl_task/')" yes
# Causes with reasons never leave one out (sched_ext aside: not run here).
REASONED="try_to_wake_up|wake_up_new_task|detach_tasks|detach_one_task|migration_cpu_stop"
REASONED="$REASONED|affine_move_task|push_cpu_stop"
check "no migration of a cause with reasons has reason 0" \
	"$(grep -E "^($REASONED)/none " "$TMPD/counts")" ""
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
mt_reset

ktap_finished
