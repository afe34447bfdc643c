// SPDX-License-Identifier: GPL-2.0
/*
 * Light weight migration trace (mt) and statistics (mstat): the base
 * both facilities build on.  The names of causes and reasons, the control
 * files' parsing, the mutex that serializes control, and the hooks' key
 * with the state the scheduler's note sites write under it.
 */

#include <linux/build_bug.h>
#include <linux/cleanup.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/idle.h>
#include <linux/uaccess.h>

#include "migrate_trace_lite_base.h"

DEFINE_STATIC_KEY_FALSE(mt_hooks_key);
DEFINE_STATIC_KEY_FALSE(mt_rare_key);	/* see mt_hooks_rare() */
/* Serializes every control operation of mt and mstat, and reader opens. */
DEFINE_MUTEX(mt_mutex);
/*
 * Serializes the references on mt_hooks_key and the notes' clearing.  The
 * innermost lock: taken under mt_mutex or tracepoints_mutex, it takes
 * none but the jump label's own, so that the trace event's registration
 * never waits for a control operation of mt or mstat.
 */
static DEFINE_MUTEX(mt_hooks_mutex);

/*
 * The names, from the lists of include/linux/migrate_trace_lite.h, in
 * their order after 0, which has none.  Each entry's number must be its
 * enumerator's value (the formats and the trace event spell the numbers
 * out): a list whose numbers drift fails the build here.
 */
#define MT_EM(e, n, name)	((name) + BUILD_BUG_ON_ZERO((n) != (e)))

const char * const mt_cause_names[MT_CAUSE_END] = {
	NULL,
	MT_CAUSES
};

const char * const mt_reason_names[MT_REASON_END] = {
	NULL,
	MT_REASONS
};

#undef MT_EM

/* The load balancer's reasons, by enum cpu_idle_type and migration_type. */
#define MT_LB(idle, type)	(MT_REASON_LB_FIRST + 4 * (idle) + (type))

static_assert(MT_REASON_END <= 64);

/*
 * The reasons each cause can have: mstat gives each a CAUSE/REASON column
 * and counts a cause's moves without one as CAUSE/none.
 */
const u64 mt_cause_reasons[MT_CAUSE_END] = {
	[MT_CAUSE_TRY_TO_WAKE_UP]	= MT_REASONS_WAKEUP,
	[MT_CAUSE_WAKE_UP_NEW_TASK]	= MT_REASONS_FORK,
	[MT_CAUSE_DETACH_TASKS]		= MT_REASONS_LB,
	[MT_CAUSE_DETACH_ONE_TASK]	= MT_REASONS_ACTIVE,
	[MT_CAUSE_MIGRATION_CPU_STOP]	= MT_REASONS_STOPPER,
	[MT_CAUSE_AFFINE_MOVE_TASK]	= MT_REASONS_AFFINE,
	[MT_CAUSE_PUSH_CPU_STOP]	= MT_REASONS_PUSH,
};

/* Migration types (fair.c's enum migration_type) are load, util, task, misfit. */
static_assert(CPU_MAX_IDLE_TYPES == 3);
static_assert(MT_LB(CPU_MAX_IDLE_TYPES, 0) == MT_REASON_END);
static_assert(MT_LB(__CPU_NOT_IDLE, 0) == MT_REASON_LB_BUSY_LOAD);
static_assert(MT_LB(CPU_IDLE, 1) == MT_REASON_LB_IDLE_UTIL);
static_assert(MT_LB(CPU_NEWLY_IDLE, 2) == MT_REASON_LB_NEWIDLE_TASK);
static_assert(MT_LB(CPU_NEWLY_IDLE, 3) == MT_REASON_LB_LAST);
/* The formats' numbers: the lists only grow at their ends. */
static_assert(MT_CAUSE_END == 18 && MT_REASON_LB_FIRST == 27 && MT_REASON_END == 39);

/*
 * The last decision mt_note() or mt_noted() recorded on this CPU, and for
 * which task.  A placement runs with interrupts disabled from
 * select_task_rq(), which first notes "no reason" for its task, to the
 * hook, so nothing else can note in between.  A note names its task, and
 * the next hook on the CPU consumes it (a fork's placement that kept the
 * CPU too: its hook runs); the placements of wakeups and forks and the
 * stopper's move read notes, and each begins with a fresh one.  Notes are
 * cleared before the key is turned on (mt_clear_notes()).  A stopper's
 * reason comes with its request (struct migration_arg), set by whoever
 * queued it; migration_cpu_stop() notes it right before the move.
 */
DEFINE_PER_CPU(struct mt_note, mt_notes);

/*
 * Moves left to a wakeup, by the task's pid: pid << 8 | reason, written
 * by mt_note_deferred() before a stopper or a NUMA swap may set
 * p->wake_cpu to another CPU, and taken by the next wakeup that finds
 * wake_cpu elsewhere and moves the task.  Both run under the task's
 * pi_lock.  A wakeup that keeps the task where it is leaves the entry,
 * and wake_cpu, to the next one, which completes the same deferred move.
 * A swap that moves its task at once and a fork of a task with the pid
 * take the entry too, so an entry is its task's latest deferral.  Two
 * tasks noted at once into one slot: the later stays, and the other's
 * wakeup finds no reason rather than a wrong one.  A workqueue's hint
 * also sets wake_cpu; such a wakeup finds nothing either.
 */
unsigned long mt_deferred[1 << MT_DEFERRED_BITS];

static_assert((ULONG_MAX >> 8) >= PID_MAX_LIMIT);
static_assert(MT_REASON_END <= 0xff);

/**
 * __mt_note_deferred() - note the reason of a move left to a wakeup
 * @p: the task whose move is deferred
 * @why: the reason its next wakeup is given if it moves
 *
 * Context: under @p->pi_lock, before p->wake_cpu changes.
 */
void __mt_note_deferred(struct task_struct *p, unsigned int why)
{
	WRITE_ONCE(*mt_deferred_slot(p), (unsigned long)p->pid << 8 | why);
}

/*
 * Forget every CPU's note, while the key is 0 and after a grace period:
 * notes are written with interrupts off, so no CPU is still inside a
 * note site that saw the key on (with or without jump labels), nothing
 * races the stores, and no hook of the next trace can take a note of an
 * earlier one, for a task_struct that may since have been reused.
 */
static void mt_clear_notes(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct mt_note *note = per_cpu_ptr(&mt_notes, cpu);

		note->p = NULL;
		note->reason = MT_REASON_NONE;
	}
	memset(mt_deferred, 0, sizeof(mt_deferred));
}

/**
 * mt_hooks_get() - take a consumer's reference on the shared hooks
 * @held: whether the consumer holds one; set on return
 *
 * Idempotent.  The first reference clears the notes of an earlier
 * collection, after a grace period.
 *
 * Context: process context, may sleep; takes mt_hooks_mutex.
 */
void mt_hooks_get(bool *held)
{
	guard(mutex)(&mt_hooks_mutex);
	if (!*held) {
		if (!static_key_enabled(&mt_hooks_key)) {
			synchronize_rcu();
			mt_clear_notes();
		}
		static_branch_inc(&mt_hooks_key);
		*held = true;
	}
}

/**
 * mt_hooks_put() - drop a consumer's reference on the shared hooks
 * @held: whether the consumer holds one; cleared on return
 *
 * Idempotent, like mt_hooks_get().
 *
 * Context: process context, may sleep; takes mt_hooks_mutex.
 */
void mt_hooks_put(bool *held)
{
	guard(mutex)(&mt_hooks_mutex);
	if (*held) {
		static_branch_dec(&mt_hooks_key);
		*held = false;
	}
}

/**
 * mt_parse_ulong() - parse a control file's write as one number
 * @ubuf: the user buffer written
 * @count: its length
 * @hex_ok: also accept 0x-prefixed hex
 * @val: the number, on success
 *
 * Decimal, or hex if @hex_ok, with an optional trailing newline.
 *
 * Return: 0, -EFAULT, or -EINVAL for anything else (empty, an embedded
 * NUL, an overflow); the caller then changes nothing.
 */
int mt_parse_ulong(const char __user *ubuf, size_t count, bool hex_ok,
		   unsigned long *val)
{
	char buf[24];

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;
	if (hex_ok && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		return kstrtoul(buf, 16, val) ? -EINVAL : 0;
	return kstrtoul(buf, 10, val) ? -EINVAL : 0;
}

/**
 * mt_parse_enable() - parse an enable file's write
 * @ubuf: the user buffer written
 * @count: its length
 * @on: false for "0", true for "1", on success
 *
 * Return: 0, or an error of mt_parse_ulong(); -EINVAL for other numbers.
 */
int mt_parse_enable(const char __user *ubuf, size_t count, bool *on)
{
	unsigned long val = 0;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && val > 1)
		ret = -EINVAL;
	if (!ret)
		*on = val;
	return ret;
}

/**
 * mt_read_ulong() - a control file's read: one number and a newline
 * @ubuf: the user buffer to fill
 * @count: its size
 * @ppos: the file position
 * @val: the number to show, in decimal
 *
 * Return: the bytes copied, or -EFAULT.
 */
ssize_t mt_read_ulong(char __user *ubuf, size_t count, loff_t *ppos,
		      unsigned long val)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%lu\n", val);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/**
 * mt_parse_reset() - parse a reset file's write, which must be "0"
 * @ubuf: the user buffer written
 * @count: its length
 *
 * Return: 0, or an error of mt_parse_ulong(); -EINVAL for other numbers.
 */
int mt_parse_reset(const char __user *ubuf, size_t count)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && val != 0)
		ret = -EINVAL;
	return ret;
}

/**
 * mt_write_reset() - a reset file's write: "0" runs @reset
 * @ubuf: the user buffer written
 * @count: its length
 * @reset: the reset, run under mt_mutex
 *
 * Context: process context; takes mt_mutex.
 * Return: @count, or an error of mt_parse_reset() or @reset.
 */
ssize_t mt_write_reset(const char __user *ubuf, size_t count,
		       int (*reset)(void))
{
	int ret;

	ret = mt_parse_reset(ubuf, count);
	if (!ret) {
		mutex_lock(&mt_mutex);
		ret = reset();
		mutex_unlock(&mt_mutex);
	}
	return ret ? ret : count;
}

/**
 * mt_clock_offset_now() - local_clock() minus sched_clock() on this CPU
 *
 * sched_clock() is ftrace's "local" clock, read on both sides of
 * local_clock(): subtracted from our times, the offset gives that clock's,
 * so that a trace-cmd recording of the same run lines up with ours.
 *
 * Return: the offset in nanoseconds.
 */
s64 mt_clock_offset_now(void)
{
	unsigned long flags;
	u64 before, now, after;

	local_irq_save(flags);
	before = sched_clock();
	now = local_clock();
	after = sched_clock();
	local_irq_restore(flags);
	return now - (before + (after - before) / 2);
}
