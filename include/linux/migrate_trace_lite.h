/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Light weight migration trace (mt) and migration statistics (mstat).
 *
 * The scheduler calls mt_migrate_task() right before each set_task_cpu()
 * or __set_task_cpu() that moves a task, naming the function that decided
 * the move.  When neither facility is collecting, the hooks are a patched
 * out static branch.  See Documentation/trace/migrate_trace_lite.rst.
 */
#ifndef _LINUX_MIGRATE_TRACE_LITE_H
#define _LINUX_MIGRATE_TRACE_LITE_H

#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/types.h>

struct task_struct;

/*
 * Why a task changed CPU: the scheduler function that decided the move.
 * The numbers are written into trace and stat headers, so a new cause is
 * appended at the end and the names in migrate_trace_lite.c follow.
 */
enum mt_cause {
	MT_CAUSE_NONE,			/* not a cause: 0 is never recorded */
	MT_CAUSE_TRY_TO_WAKE_UP,
	MT_CAUSE_WAKE_UP_NEW_TASK,
	MT_CAUSE_DETACH_TASKS,
	MT_CAUSE_DETACH_ONE_TASK,
	MT_CAUSE_MIGRATION_CPU_STOP,
	MT_CAUSE_AFFINE_MOVE_TASK,
	MT_CAUSE___BALANCE_PUSH_CPU_STOP,
	MT_CAUSE_PUSH_RT_TASK,
	MT_CAUSE_PULL_RT_TASK,
	MT_CAUSE_PUSH_DL_TASK,
	MT_CAUSE_PULL_DL_TASK,
	MT_CAUSE_DL_TASK_OFFLINE_MIGRATION,
	MT_CAUSE_PUSH_CPU_STOP,
	MT_CAUSE___MIGRATE_SWAP_TASK,
	MT_CAUSE_TRY_STEAL_COOKIE,
	MT_CAUSE_SCHED_TTWU_PENDING,
	MT_CAUSE_MOVE_REMOTE_TASK_TO_LOCAL_DSQ,
	MT_CAUSE_END,
};

#define MT_NR_CAUSES	(MT_CAUSE_END - 1)

#ifdef CONFIG_SNSC_LITE_MIGRATION_HOOKS

DECLARE_STATIC_KEY_FALSE(mt_hooks_key);

void __mt_migrate_task(struct task_struct *p, unsigned int new_cpu,
		       enum mt_cause cause);
void __mt_copy_process(struct task_struct *p);
void __mt_set_task_comm(struct task_struct *p);

/**
 * mt_migrate_task() - report that the scheduler is about to move a task
 * @p: the task, still on its old CPU
 * @new_cpu: the CPU it is being moved to
 * @cause: the scheduler function that decided the move
 *
 * Call with interrupts disabled, right before set_task_cpu() or
 * __set_task_cpu().  Nothing is recorded when @new_cpu is @p's current CPU.
 */
static inline void mt_migrate_task(struct task_struct *p,
				   unsigned int new_cpu, enum mt_cause cause)
{
	if (static_branch_unlikely(&mt_hooks_key))
		__mt_migrate_task(p, new_cpu, cause);
}

/**
 * mt_copy_process() - report a new task
 * @p: the task copy_process() has just created
 */
static inline void mt_copy_process(struct task_struct *p)
{
	if (static_branch_unlikely(&mt_hooks_key))
		__mt_copy_process(p);
}

/**
 * mt_set_task_comm() - report a task's new name
 * @p: the task whose comm has just changed
 */
static inline void mt_set_task_comm(struct task_struct *p)
{
	if (static_branch_unlikely(&mt_hooks_key))
		__mt_set_task_comm(p);
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_HOOKS */

static inline void mt_migrate_task(struct task_struct *p,
				   unsigned int new_cpu, enum mt_cause cause)
{
}

static inline void mt_copy_process(struct task_struct *p)
{
}

static inline void mt_set_task_comm(struct task_struct *p)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_HOOKS */

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

int mt_trace_enable(int enable, int allow_restart);
void mt_trace_mark(unsigned long mark);

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline int mt_trace_enable(int enable, int allow_restart)
{
	return -ENODEV;
}

static inline void mt_trace_mark(unsigned long mark)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#endif /* _LINUX_MIGRATE_TRACE_LITE_H */
