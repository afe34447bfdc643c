// SPDX-License-Identifier: GPL-2.0
/*
 * Light weight migration trace (mt) and migration statistics (mstat):
 * the hooks, the top layer, and the init of both facilities.
 *
 * The scheduler reports each change of a task's CPU through
 * mt_migrate_task(), with the function that decided it (the cause) and,
 * where known, why (the reason).  This file resolves the reason, takes
 * one timestamp, and hands the event to the trace and to the statistics,
 * whichever collects.  See Documentation/trace/migrate_trace_lite.rst.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/deadline.h>
#include <linux/smp.h>

#include "migrate_trace_lite.h"

#define CREATE_TRACE_POINTS
#include <trace/events/migrate_trace_lite.h>

/* Whether the event's consumers hold a reference on the hooks. */
static bool mt_event_held;

/**
 * mt_event_reg() - the event's first consumer turns the hooks on
 *
 * Takes the event's reference on the hooks' static key, which their
 * other consumers share, so that the hooks fire the event with none of
 * them collecting.
 *
 * Context: tracepoint_probe_register() of the first probe, under
 * tracepoints_mutex; process context, may sleep.
 * Return: 0.
 */
int mt_event_reg(void)
{
	/* tracepoints_mutex serializes the only writers of mt_event_held. */
	if (!mt_event_held)
		static_branch_inc(&mt_rare_key);
	mt_hooks_get(&mt_event_held);
	return 0;
}

/**
 * mt_event_unreg() - the event's last consumer is gone
 *
 * Drops the event's reference on the hooks: unless another consumer
 * holds them, every hook is a NOP again.
 *
 * Context: tracepoint_probe_unregister() of the last probe, under
 * tracepoints_mutex; process context, may sleep.
 */
void mt_event_unreg(void)
{
	if (mt_event_held)
		static_branch_dec(&mt_rare_key);
	mt_hooks_put(&mt_event_held);
}

/* A placement kept the task's CPU: its note must not reach a later move. */
static __always_inline void mt_drop_note(void)
{
	raw_cpu_write(mt_notes.p, NULL);
}

static __always_inline unsigned int mt_take_note(struct task_struct *p)
{
	unsigned int reason = MT_REASON_NONE;

	if (raw_cpu_read(mt_notes.p) == p)
		reason = raw_cpu_read(mt_notes.reason);
	raw_cpu_write(mt_notes.p, NULL);
	return reason;
}

/*
 * A deferred move's reason at its wakeup: a stopper's request is named
 * by what queued it, an affinity change by its wakeup's own name.
 */
static noinline unsigned int mt_deferred_reason(struct task_struct *p)
{
	unsigned int reason = mt_take_deferred(p);

	return reason == MT_REASON_AFFINITY ? MT_REASON_AFFINITY_AT_WAKEUP : reason;
}

/* A wakeup's reason: an earlier decision first, else the placement's. */
static __always_inline unsigned int mt_wakeup_reason(struct task_struct *p,
						     unsigned int from,
						     unsigned int to,
						     unsigned int noted)
{
	unsigned int deferred = MT_REASON_NONE;

	/*
	 * A stopper or a NUMA swap left a move to this wakeup; it is this
	 * move if the task goes where they sent it.
	 */
	if (unlikely(p->wake_cpu != from))
		deferred = mt_deferred_reason(p);
	if (!cpumask_test_cpu(from, p->cpus_ptr))
		return MT_REASON_AFFINITY_AT_WAKEUP;
	if (unlikely(p->wake_cpu != from) && to == p->wake_cpu)
		return deferred;
	/* wake_affine() makes the waker's CPU the target. */
	if (unlikely(noted == MT_REASON_IDLE_TARGET ||
		     noted == MT_REASON_BUSY_TARGET) &&
	    to == raw_smp_processor_id())
		return noted == MT_REASON_IDLE_TARGET ?
		       MT_REASON_WAKE_AFFINE : MT_REASON_WAKE_AFFINE_BUSY;
	return noted;
}

static unsigned int mt_reason(struct task_struct *p, unsigned int from,
			      unsigned int to, unsigned int cause)
{
	unsigned int noted = mt_take_note(p);

	switch (cause) {
	case MT_CAUSE_TRY_TO_WAKE_UP:
		return mt_wakeup_reason(p, from, to, noted);
	case MT_CAUSE_WAKE_UP_NEW_TASK:
	case MT_CAUSE_MIGRATION_CPU_STOP:
		return noted;
	case MT_CAUSE_AFFINE_MOVE_TASK:
		return MT_REASON_AFFINITY;
	case MT_CAUSE_PUSH_CPU_STOP:
		return dl_task(p) ? MT_REASON_PUSH_DL : MT_REASON_PUSH_RT;
	case MT_CAUSE___MIGRATE_SWAP_TASK:
		/* Moved at once: nothing is left to its wakeup. */
		mt_take_deferred(p);
		return MT_REASON_NONE;
	default:
		return MT_REASON_NONE;
	}
}

/* The stat's part of a move the trace stamped: the last of the hook's work. */
static __always_inline void mt_count(unsigned int why, u64 now)
{
	if (ms_stat_running())
		ms_count(why, now);
}

/*
 * The hooks' rare cases are out of their line and reached by tail calls,
 * so that the fast path calls nothing but the clock and keeps few values
 * in registers that need saving.  Each ends the writer's busy section.
 */

/*
 * The ring needs its slow path: a new chunk (which also wakes a waiting
 * reader) or time base, a clock that stepped back, or it is full.
 */
static noinline __cold void mt_log_slow_and_count(struct task_struct *p,
						  unsigned int to,
						  unsigned int why, u64 now)
{
	mt_log_migration_slow(p->pid, task_cpu(p), to, why, now);
	mt_writer_end();
	mt_count(why, now);
}

/*
 * The hooks' fast path filled a record whose delta needs the ring's slow
 * path: a gap past 32 bits, or a clock that stepped back.  The slow path
 * may write before it where it lies: its fields are taken first.
 */
static noinline __cold void mt_log_filled_slow_and_count(u64 now)
{
	struct mt_rec_migrate m = *mt_migration_filled();
	unsigned int why = mt_rec_why(&m.hdr);

	mt_log_migration_slow(m.pid, m.from, m.to, why, now);
	mt_writer_end();
	mt_count(why, now);
}

/* An exiting task moves: name it first (see mt_name_exiting()). */
static noinline __cold void mt_log_exiting_and_count(struct task_struct *p,
						     unsigned int to,
						     unsigned int why, u64 now)
{
	if (!mt_top_name_exiting(p, now)) {
		mt_writer_end();
		mt_count(why, now);
		return;
	}
	if (unlikely(!mt_log_migration_fast(p, to, why, now))) {
		mt_log_slow_and_count(p, to, why, now);
		return;
	}
	mt_writer_end();
	mt_count(why, now);
}

/* Log a move at @now, and count it; the writer is busy. */
static __always_inline void mt_log_and_count_at(struct task_struct *p,
						unsigned int to,
						unsigned int why, u64 now)
{
	if (unlikely(p->flags & PF_EXITING)) {
		mt_log_exiting_and_count(p, to, why, now);
		return;
	}
	if (unlikely(!mt_log_migration_fast(p, to, why, now))) {
		mt_log_slow_and_count(p, to, why, now);
		return;
	}
	mt_writer_end();
	mt_count(why, now);
}

/*
 * A traced move begins: the writer is busy, and the time is read.  One
 * timestamp serves both facilities: the trace and the stat put the move
 * in one period.  The hooks' fast path (mt_move_fast()) fills the record
 * before it, so that none of their values lives across the call.  The
 * stat alone reads no clock (ms_count_untimed()).
 */
static __always_inline u64 mt_move_begin(void)
{
	mt_writer_begin();
	return local_clock();
}

/* mt_move_rare() of an exiting task, which each trace names first. */
static noinline __cold void mt_move_rare_exiting(struct task_struct *p,
						 unsigned int to,
						 unsigned int why, bool top,
						 unsigned long armed)
{
	u64 now = mt_move_begin();

	if (armed)
		mt_instances_log(p, to, why, now, armed, true);
	if (top) {
		mt_log_exiting_and_count(p, to, why, now);
		return;
	}
	mt_writer_end();
	mt_count(why, now);
}

/*
 * A move on the hooks' out-of-line path, its reason known: the top
 * trace's filters, the instances, the stat.  A move that the top trace
 * leaves out reads no clock unless an instance runs; one that several
 * traces record reads it once, in one busy section of the CPU's writer.
 */
static __always_inline void mt_move_rare(struct task_struct *p, unsigned int to,
					 unsigned int why)
{
	bool top = mt_trace_running() &&
		   (!mt_filtering() || mt_trace_selects(p, why));
	unsigned long armed = mt_instances_running();
	u64 now;

	if (!top && !armed) {
		if (ms_stat_running())
			ms_count_untimed(why);
		return;
	}
	if (unlikely(p->flags & PF_EXITING)) {
		mt_move_rare_exiting(p, to, why, top, armed);
		return;
	}
	now = mt_move_begin();
	if (armed)
		mt_instances_log(p, to, why, now, armed, false);
	if (top && unlikely(!mt_log_migration_fast(p, to, why, now))) {
		mt_log_slow_and_count(p, to, why, now);
		return;
	}
	mt_writer_end();
	mt_count(why, now);
}

/* A move the trace records, off the hooks' fast path. */
static noinline void mt_move_traced(struct task_struct *p, unsigned int to,
				    unsigned int why)
{
	u64 now = mt_move_begin();

	mt_log_and_count_at(p, to, why, now);
}

/*
 * Log a move the trace records from @from, and count it: the hooks' fast
 * path.  The record is filled before the clock is read and dated after
 * (mt_migration_fill()), so that no value lives across that call; every
 * other case is a tail call.
 */
static __always_inline void mt_move_fast(struct task_struct *p,
					 unsigned int from, unsigned int to,
					 unsigned int cause,
					 unsigned int reason)
{
	u64 now;

	/* An exiting task is named first (mt_log_exiting_and_count()). */
	if (unlikely(p->flags & PF_EXITING) ||
	    unlikely(!mt_migration_fill(p, from, to, cause, reason))) {
		mt_move_traced(p, to, MT_WHY(cause, reason));
		return;
	}
	now = mt_move_begin();
	if (unlikely(!mt_migration_stamp(now))) {
		mt_log_filled_slow_and_count(now);
		return;
	}
	mt_writer_end();
	if (ms_stat_may_run() && ms_stat_running())
		ms_count(mt_migration_stamped_why(), now);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * mt_log_move_at() - log and count a move at a given time, for KUnit
 * @p: the task that moves
 * @to: the CPU it moves to
 * @why: MT_WHY(cause, reason) of the move
 * @now: the time stamp the test chooses
 *
 * Does the hook's work for a move, so that tests control the clock.
 *
 * Context: any; disables interrupts itself.
 */
void mt_log_move_at(struct task_struct *p, unsigned int to, unsigned int why,
		    u64 now)
{
	unsigned long flags;

	local_irq_save(flags);
	if (mt_trace_running()) {
		mt_writer_begin();
		mt_log_and_count_at(p, to, why, now);
	}
	local_irq_restore(flags);
}
#endif

/*
 * A wakeup's cause and reason.  Every hook runs right before
 * set_task_cpu() or its equivalent, under what serializes it (p->pi_lock
 * for a task on no runqueue, its runqueue's lock for a queued one), with
 * interrupts off; writers never nest.
 */
static __always_inline unsigned int mt_wakeup_why(struct task_struct *p,
						  unsigned int new_cpu)
{
	unsigned int reason = mt_wakeup_reason(p, task_cpu(p), new_cpu,
					       mt_take_note(p));

	return MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, reason);
}

/*
 * A move while sched_migrate_reason is enabled: the event, then what mt
 * and mstat do with the move.  The hooks branch here first, out of line,
 * so that with the event disabled their code is what it is without the
 * event but for that static branch.  The event fires before mt's writer
 * is busy: a probe's work does not hold back trace_pipe's reader.
 */
static void mt_event_log(struct task_struct *p, unsigned int new_cpu,
			 unsigned int why)
{
	trace_sched_migrate_reason(p, new_cpu, why & 0xff, why >> 8);
	/* The traces' filters are theirs: the event saw every move. */
	mt_move_rare(p, new_cpu, why);
}

static noinline __cold void mt_event_wakeup(struct task_struct *p,
					    unsigned int new_cpu)
{
	mt_event_log(p, new_cpu, mt_wakeup_why(p, new_cpu));
}

/*
 * Whether a wakeup's reason is its note, as mt_wakeup_reason() has it:
 * nothing was left to this wakeup, its CPU is allowed, and the note is
 * no wake_affine() target.  The hook's fast path takes only those.
 */
static __always_inline bool mt_wakeup_plain(struct task_struct *p,
					    unsigned int from,
					    unsigned int noted)
{
	return likely(p->wake_cpu == from) &&
	       likely(cpumask_test_cpu(from, p->cpus_ptr)) &&
	       likely(noted != MT_REASON_IDLE_TARGET &&
		      noted != MT_REASON_BUSY_TARGET);
}

/* A wakeup whose reason is not its note: the trace's or the stat's. */
static noinline void mt_wakeup_rare(struct task_struct *p, unsigned int to,
				    unsigned int noted)
{
	unsigned int why = MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP,
				  mt_wakeup_reason(p, task_cpu(p), to, noted));

	if (mt_trace_running())
		mt_move_traced(p, to, why);
	else if (ms_stat_running())
		ms_count_untimed(why);
}

/*
 * Take a wakeup's note: its reason in @*reason if the note is the
 * reason, else false having handed the move to mt_wakeup_rare().
 */
static __always_inline bool mt_wakeup_noted(struct task_struct *p,
					    unsigned int from,
					    unsigned int to,
					    unsigned int *reason)
{
	unsigned int noted = mt_take_note(p);

	if (unlikely(!mt_wakeup_plain(p, from, noted))) {
		mt_wakeup_rare(p, to, noted);
		return false;
	}
	*reason = noted;
	return true;
}

/* A wakeup on the hooks' out-of-line path: a filter, an instance. */
static noinline void mt_wakeup_out_of_line(struct task_struct *p,
					   unsigned int new_cpu)
{
	mt_move_rare(p, new_cpu, mt_wakeup_why(p, new_cpu));
}

/**
 * __mt_migrate_wakeup() - hook: a waking task moves to another CPU
 * @p: the waking task
 * @new_cpu: the CPU try_to_wake_up() chose
 *
 * Logs the move if the trace runs, else counts it if the stat runs.  A
 * task that stays drops the note its wakeup left.
 *
 * Fires sched_migrate_reason first if it is enabled.
 *
 * Context: irqs off, under @p->pi_lock.
 */
void __mt_migrate_wakeup(struct task_struct *p, unsigned int new_cpu)
{
	unsigned int from = task_cpu(p), reason;

	lockdep_assert_irqs_disabled();
	if (from == new_cpu) {
		mt_drop_note();
		return;
	}
	if (mt_hooks_rare()) {
		if (trace_sched_migrate_reason_enabled()) {
			mt_event_wakeup(p, new_cpu);
			return;
		}
		/*
		 * A filter without wakeups leaves them out at once: the move
		 * only drops what resolving its reason would take.
		 */
		if (mt_trace_running() && mt_filtering() && !mt_instances_on() &&
		    mt_trace_rejects_cause(MT_CAUSE_TRY_TO_WAKE_UP) &&
		    !ms_stat_running() && likely(p->wake_cpu == from)) {
			mt_drop_note();
			return;
		}
		mt_wakeup_out_of_line(p, new_cpu);
		return;
	}
	if (mt_trace_running()) {
		if (mt_wakeup_noted(p, from, new_cpu, &reason))
			mt_move_fast(p, from, new_cpu,
				     MT_CAUSE_TRY_TO_WAKE_UP, reason);
	} else if (ms_stat_running()) {
		if (mt_wakeup_noted(p, from, new_cpu, &reason))
			ms_count_untimed(MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP,
						reason));
	}
}

/* A move's cause and reason: what the hook site passed, else found out. */
static __always_inline unsigned int mt_move_why(struct task_struct *p,
						unsigned int new_cpu,
						unsigned int why)
{
	if (why >> 8)
		return why;
	return MT_WHY(why, mt_reason(p, task_cpu(p), new_cpu, why));
}

static noinline __cold void mt_event_task(struct task_struct *p,
					  unsigned int new_cpu, unsigned int why)
{
	mt_event_log(p, new_cpu, mt_move_why(p, new_cpu, why));
}

/* The event, a filter or an instance, with the move's cause and reason. */
static noinline void mt_task_rare(struct task_struct *p, unsigned int new_cpu,
				  unsigned int why)
{
	if (trace_sched_migrate_reason_enabled())
		mt_event_task(p, new_cpu, why);
	else
		mt_move_rare(p, new_cpu, mt_move_why(p, new_cpu, why));
}

/**
 * __mt_migrate_task() - hook: a task moves to another CPU
 * @p: the task that moves
 * @new_cpu: the CPU it moves to
 * @why: the cause, or MT_WHY(cause, reason) if the hook site knows it
 *
 * Logs the move if the trace runs, else counts it if the stat runs.  A
 * bad cause or reason warns once and is ignored.
 *
 * Fires sched_migrate_reason first if it is enabled.
 *
 * Context: irqs off, under @p->pi_lock or its runqueue's lock.
 */
void __mt_migrate_task(struct task_struct *p, unsigned int new_cpu,
		       unsigned int why)
{
	unsigned int old_cpu = task_cpu(p);
	unsigned int cause = why & 0xff, reason = why >> 8;

	lockdep_assert_irqs_disabled();
	if (old_cpu == new_cpu) {
		mt_drop_note();
		return;
	}
	/* A hook site passed something that is not a cause: a kernel bug. */
	if (WARN_ON_ONCE(cause == MT_CAUSE_NONE || cause >= MT_CAUSE_END ||
			 reason >= MT_REASON_END))
		return;
	if (mt_hooks_rare()) {
		mt_task_rare(p, new_cpu, why);
		return;
	}
	if (mt_trace_running()) {
		why = mt_move_why(p, new_cpu, why);
		mt_move_fast(p, old_cpu, new_cpu, why & 0xff, why >> 8);
	} else if (ms_stat_running()) {
		ms_count_untimed(mt_move_why(p, new_cpu, why));
	}
}

/**
 * __mt_copy_process() - hook: a new task is in the task list
 * @p: the new task
 *
 * Logs @p's name, and drops a deferral noted for an earlier task of its
 * pid.  The barrier pairs with a starting trace's walk of the task list,
 * so that the task is named by one or the other.  A trace that follows
 * forks selects @p if its parent (current) is selected.
 */
void __mt_copy_process(struct task_struct *p)
{
	/*
	 * @p is linked into the task list: a trace starting now either
	 * finds it there or is seen naming tasks here.  Pairs with the
	 * smp_mb() of mt_start_new_locked().
	 */
	smp_mb();
	/* A deferral noted for an earlier task of this pid is not @p's. */
	mt_take_deferred(p);
	/* Selected before its first move, which is wake_up_new_task()'s. */
	if (mt_filtering() || mt_instances_on())
		mt_follow_fork(p);
	mt_log_comm(MT_EV_COPY_PROCESS, p);
}

/**
 * __mt_set_task_comm() - hook: a task changed its name
 * @p: the renamed task
 *
 * Logs @p's new name.  No barrier: a rename that races a start's walk of
 * the task list may leave the old name; the task has a name, if not its
 * newest one.
 */
void __mt_set_task_comm(struct task_struct *p)
{
	mt_log_comm(MT_EV_SET_TASK_COMM, p);
}

static int __init migrate_trace_lite_init(void)
{
	struct dentry *dir = NULL;

	if (IS_ENABLED(CONFIG_SNSC_LITE_MIGRATION_TRACE))
		dir = debugfs_create_dir("migration_trace", NULL);
	mt_instances_init(dir);
	mt_oops_init(dir);
	mt_bench_init(dir);
	ms_stat_init();
	return 0;
}
late_initcall(migrate_trace_lite_init);
