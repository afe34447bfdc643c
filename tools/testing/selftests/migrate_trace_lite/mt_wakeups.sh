#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Placements whose reason is known.  Each workload of mt_place leaves
# the scheduler one choice: CPU 0 wakes the task (a pipe write, a
# synchronous wakeup, from a waker alone there but in wake_affine_weight),
# CPU 1 is idle, and the task sleeps on CPU 2, busy with spinners (or with
# a task of the woken task's class that it may not preempt).  The task's
# moves between the workload's two marks must be exactly these, cause,
# reason and CPUs:
#   wake_affine       woken by a timer it armed on the idle CPU 1, which
#                     it may use: wake_affine() picks the waker's CPU
#   wake_affine_busy  allowed on CPUs 0 and 2 only, both busy: the waker's
#                     (CPU 2 runs three spinners: when a kworker is queued
#                     beside the waker, wake_affine_weight() decides, and
#                     it must pick the waker's CPU too)
#   wake_affine_weight  the same beside a spinner on CPU 0: by load
#   idle_recent       forked on CPU 1, its recently used CPU, still idle
#   idle_cpu          forked on CPU 2: the LLC's scan finds CPU 1
#   (idle_prev)       asleep on the idle CPU 1: it stays, and no move shows
#   rt_lowest_rq      SCHED_FIFO; CPU 2 runs a higher SCHED_FIFO task
#   dl_later_rq       SCHED_DEADLINE; CPU 2 runs an earlier deadline (both
#                     allowed everywhere, as deadline tasks must be: to
#                     any CPU without a deadline task)
#   slow_path         forked on CPU 0, busy with its parent, allowed on 1
#   exec_balance      exec on CPU 0 beside a spinner, allowed on 1
#   push_rt_task      SCHED_FIFO on CPU 2, preempted by a higher one there
# Each ROUNDS times with fresh tasks, and every round must agree: a
# reason named for another decision, a move the decision does not make or
# a missing one fails.  The reasons no workload here can produce are in
# harness/reasons-tested.

. "$(dirname "$0")/mt_lib.sh"

ktap_print_header
mt_require
if [ "$(nproc)" -lt 4 ]; then
	ktap_skip_all "needs 4 CPUs"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 13
ROUNDS=${MT_WAKEUP_ROUNDS:-3}
WANT_MARK=0x5100

# For wake_affine's wakeup from an interrupt (first: this shell is still
# allowed everywhere, and so is the task it wakes).
wakee_flips_calm
# CPUs 0 to 2 to the workloads alone: the rest, and this shell, on CPU 3.
kthreads_to 8
mt_reset
mt_start
# FORK PREV MASK WAKER SPINNERS KICK ROUNDS: see mt_place's wakeup.
want wake_affine_busy "try_to_wake_up/wake_affine_busy 2 0" wakeup 2 2 0,2 0 2,2,2 -1 "$ROUNDS"
want wake_affine_weight "try_to_wake_up/wake_affine_busy 2 0" wakeup 2 2 0,2 0 0,2,2,2 -1 "$ROUNDS"
want idle_recent "try_to_wake_up/idle_recent 2 1" wakeup 1 2 0-2 0 2 -1 "$ROUNDS"
want idle_cpu "try_to_wake_up/idle_cpu 2 1" wakeup 2 2 0-2 0 2 -1 "$ROUNDS"
want idle_prev "" wakeup 1 1 0-2 0 2 -1 "$ROUNDS"
i=0
while [ $i -lt "$ROUNDS" ]; do
	want wake_affine "try_to_wake_up/wake_affine 2 1" place-wake affine
	want rt_lowest_rq "try_to_wake_up/rt_lowest_rq 2 1" place-wake rt
	want dl_later_rq "try_to_wake_up/dl_later_rq 2 [013]" place-wake dl
	want slow_path "wake_up_new_task/slow_path 0 1" place-fork
	want exec_balance "migration_cpu_stop/exec_balance 0 1" place-exec
	want push_rt_task "push_rt_task/none 2 1" place-push
	i=$((i + 1))
done
mt_stop
kthreads_back
T=$TMPD/wakeups
mt_save "$T"
[ -n "${MT_KEEP:-}" ] && cp "$T" "$MT_KEEP/wakeups"

for name in wake_affine wake_affine_busy wake_affine_weight idle_recent idle_cpu \
	    idle_prev rt_lowest_rq dl_later_rq slow_path exec_balance push_rt_task; do
	exp=$(awk -F@ -v n="$name" '$1 == n { print $2; exit }' "$TMPD/wanted")
	bad=$(unwanted "$T" "$name")
	check "$name: ${exp:-no move} in each of $ROUNDS rounds" "$(echo "$bad" | head -3)" ""
done
check "the trace lost nothing" "$(mt_lost "$T")" "0 0"
check "every line is well formed" "$(mt_malformed "$T" | head -3)" ""
mt_reset

ktap_finished
