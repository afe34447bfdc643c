/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why tasks change CPU: the scheduler's migration causes and reasons.
 *
 * The scheduler calls mt_migrate_task() right before each set_task_cpu()
 * or __set_task_cpu() that moves a task, naming the function that decided
 * the move (the cause) and, where the caller knows it, why (the reason).
 * Decisions taken earlier, such as the idle CPU select_idle_sibling()
 * found, are noted with mt_noted() where they are made and picked up by
 * the hook.  Until a consumer collects (the trace event
 * sched_migrate_reason, the migration trace or statistics), every hook
 * and note is a patched out static branch.  See Documentation/trace/migrate_trace_lite.rst.
 */
#ifndef _LINUX_MIGRATE_TRACE_LITE_H
#define _LINUX_MIGRATE_TRACE_LITE_H

#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct task_struct;

/*
 * Why a task changed CPU: the scheduler function that decided the move
 * (the cause), and what inside it decided (the reason).  Each list below
 * is the one table of its kind, an entry MT_EM(enumerator, number, name):
 * the enum, the names the consumers print and the pairs of a trace event's
 * __print_symbolic() are made from it, each user defining MT_EM() for what
 * it takes.  The numbers are written into trace and stat headers and into
 * event records, so they are spelled out: an event's format file shows
 * them to user space as they are, with nothing to resolve at boot.  Each
 * must be its enumerator's value, which the names' table checks at build
 * time.  A new cause or reason is appended with the next number; a
 * retired one keeps its number and name.  The entries are one MT_LIST()
 * argument each: a list that is a single macro call is one expression to
 * checkpatch.
 */
#define MT_LIST(...)	__VA_ARGS__

#define MT_CAUSES MT_LIST(							\
	MT_EM(MT_CAUSE_TRY_TO_WAKE_UP, 1, "try_to_wake_up"),			\
	MT_EM(MT_CAUSE_WAKE_UP_NEW_TASK, 2, "wake_up_new_task"),		\
	MT_EM(MT_CAUSE_DETACH_TASKS, 3, "detach_tasks"),			\
	MT_EM(MT_CAUSE_DETACH_ONE_TASK, 4, "detach_one_task"),			\
	MT_EM(MT_CAUSE_MIGRATION_CPU_STOP, 5, "migration_cpu_stop"),		\
	MT_EM(MT_CAUSE_AFFINE_MOVE_TASK, 6, "affine_move_task"),		\
	MT_EM(MT_CAUSE___BALANCE_PUSH_CPU_STOP, 7, "__balance_push_cpu_stop"),	\
	MT_EM(MT_CAUSE_PUSH_RT_TASK, 8, "push_rt_task"),			\
	MT_EM(MT_CAUSE_PULL_RT_TASK, 9, "pull_rt_task"),			\
	MT_EM(MT_CAUSE_PUSH_DL_TASK, 10, "push_dl_task"),			\
	MT_EM(MT_CAUSE_PULL_DL_TASK, 11, "pull_dl_task"),			\
	MT_EM(MT_CAUSE_DL_TASK_OFFLINE_MIGRATION, 12, "dl_task_offline_migration"),	\
	MT_EM(MT_CAUSE_PUSH_CPU_STOP, 13, "push_cpu_stop"),			\
	MT_EM(MT_CAUSE___MIGRATE_SWAP_TASK, 14, "__migrate_swap_task"),		\
	MT_EM(MT_CAUSE_TRY_STEAL_COOKIE, 15, "try_steal_cookie"),		\
	MT_EM(MT_CAUSE_SCHED_TTWU_PENDING, 16, "sched_ttwu_pending"),		\
	MT_EM(MT_CAUSE_MOVE_REMOTE_TASK_TO_LOCAL_DSQ, 17, "move_remote_task_to_local_dsq"))

/* An enumerator of the lists. */
#define MT_EM(e, ...)	e

enum mt_cause {
	MT_CAUSE_NONE,			/* not a cause: 0 is never recorded */
	MT_CAUSES,
	MT_CAUSE_END,
};

#define MT_NR_CAUSES	(MT_CAUSE_END - 1)

/*
 * What inside the cause decided the move.  0 means no finer reason is
 * known.  The load balancer's reasons are lb_<idle type>_<migration
 * type>: MT_REASON_LB_FIRST + idle type * 4 + migration type.
 */
#define MT_REASONS MT_LIST(							\
	/* select_task_rq() for a wakeup or a fork, noted where it decided */	\
	/* idle target was the waker's CPU */					\
	MT_EM(MT_REASON_WAKE_AFFINE, 1, "wake_affine"),				\
	/* nothing idle: the waker's CPU */					\
	MT_EM(MT_REASON_WAKE_AFFINE_BUSY, 2, "wake_affine_busy"),		\
	MT_EM(MT_REASON_IDLE_TARGET, 3, "idle_target"),				\
	MT_EM(MT_REASON_BUSY_TARGET, 4, "busy_target"),				\
	MT_EM(MT_REASON_IDLE_PREV, 5, "idle_prev"),				\
	/* stacked on a per-CPU kthread */					\
	MT_EM(MT_REASON_KTHREAD_PREV, 6, "kthread_prev"),			\
	MT_EM(MT_REASON_IDLE_RECENT, 7, "idle_recent"),				\
	MT_EM(MT_REASON_IDLE_CAPACITY, 8, "idle_capacity"),			\
	MT_EM(MT_REASON_IDLE_SMT, 9, "idle_smt_sibling"),			\
	MT_EM(MT_REASON_IDLE_CORE, 10, "idle_core"),				\
	MT_EM(MT_REASON_IDLE_CPU, 11, "idle_cpu"),				\
	/* sched_balance_find_dst_cpu() */					\
	MT_EM(MT_REASON_SLOW_PATH, 12, "slow_path"),				\
	MT_EM(MT_REASON_ENERGY_AWARE, 13, "energy_aware"),			\
	MT_EM(MT_REASON_WAKE_CURRENT_CPU, 14, "wake_current_cpu"),		\
	MT_EM(MT_REASON_RT_LOWEST_RQ, 15, "rt_lowest_rq"),			\
	MT_EM(MT_REASON_DL_LATER_RQ, 16, "dl_later_rq"),			\
	/* select_fallback_rq() */						\
	MT_EM(MT_REASON_FALLBACK, 17, "fallback"),				\
	/* a wakeup that completes a move decided while the task slept */	\
	/* its CPU is no longer allowed */					\
	MT_EM(MT_REASON_AFFINITY_AT_WAKEUP, 18, "affinity_at_wakeup"),		\
	/* p->wake_cpu set by a NUMA swap */					\
	MT_EM(MT_REASON_NUMA_AT_WAKEUP, 19, "numa_at_wakeup"),			\
	/* migration_cpu_stop() and affine_move_task() */			\
	/* set_cpus_allowed: setaffinity, cpuset */				\
	MT_EM(MT_REASON_AFFINITY, 20, "affinity"),				\
	MT_EM(MT_REASON_MIGRATE_ENABLE, 21, "migrate_enable"),	/* retired */	\
	MT_EM(MT_REASON_EXEC_BALANCE, 22, "exec_balance"),			\
	MT_EM(MT_REASON_NUMA_MIGRATE, 23, "numa_migrate"),			\
	/* push_cpu_stop() */							\
	MT_EM(MT_REASON_PUSH_RT, 24, "rt"),					\
	MT_EM(MT_REASON_PUSH_DL, 25, "dl"),					\
	/* the load balancer: detach_one_task(), then detach_tasks() */		\
	MT_EM(MT_REASON_ACTIVE_BALANCE, 26, "active_balance"),			\
	/* lb_<idle type>_<migration type>, from MT_REASON_LB_FIRST */		\
	MT_EM(MT_REASON_LB_BUSY_LOAD, 27, "lb_busy_load"),			\
	MT_EM(MT_REASON_LB_BUSY_UTIL, 28, "lb_busy_util"),			\
	MT_EM(MT_REASON_LB_BUSY_TASK, 29, "lb_busy_task"),			\
	MT_EM(MT_REASON_LB_BUSY_MISFIT, 30, "lb_busy_misfit"),			\
	MT_EM(MT_REASON_LB_IDLE_LOAD, 31, "lb_idle_load"),			\
	MT_EM(MT_REASON_LB_IDLE_UTIL, 32, "lb_idle_util"),			\
	MT_EM(MT_REASON_LB_IDLE_TASK, 33, "lb_idle_task"),			\
	MT_EM(MT_REASON_LB_IDLE_MISFIT, 34, "lb_idle_misfit"),			\
	MT_EM(MT_REASON_LB_NEWIDLE_LOAD, 35, "lb_newidle_load"),		\
	MT_EM(MT_REASON_LB_NEWIDLE_UTIL, 36, "lb_newidle_util"),		\
	MT_EM(MT_REASON_LB_NEWIDLE_TASK, 37, "lb_newidle_task"),		\
	MT_EM(MT_REASON_LB_NEWIDLE_MISFIT, 38, "lb_newidle_misfit"))

enum mt_reason {
	MT_REASON_NONE,
	MT_REASONS,
	MT_REASON_END,
	MT_REASON_LB_FIRST = MT_REASON_LB_BUSY_LOAD,
	MT_REASON_LB_LAST = MT_REASON_LB_NEWIDLE_MISFIT,
};

#undef MT_EM

/* A hook's cause and reason in one argument. */
#define MT_WHY(cause, reason)	((cause) | (reason) << 8)

#ifdef CONFIG_SNSC_LITE_MIGRATION_HOOKS

DECLARE_STATIC_KEY_FALSE(mt_hooks_key);

/*
 * The last decision noted on this CPU, and for which task; read and
 * cleared by the next hook.  Written inline by mt_note() and mt_noted():
 * a note is one or two stores behind its static branch, not a call.
 */
struct mt_note {
	struct task_struct *p;
	unsigned int reason;
};

DECLARE_PER_CPU(struct mt_note, mt_notes);

void __mt_migrate_task(struct task_struct *p, unsigned int new_cpu,
		       unsigned int why);
void __mt_migrate_wakeup(struct task_struct *p, unsigned int new_cpu);
void __mt_note_deferred(struct task_struct *p, unsigned int why);
void __mt_copy_process(struct task_struct *p);
void __mt_set_task_comm(struct task_struct *p);

/**
 * mt_migrate_task() - report that the scheduler is about to move a task
 * @p: the task, still on its old CPU
 * @new_cpu: the CPU it is being moved to
 * @why: the cause, or MT_WHY(cause, reason)
 *
 * Call with interrupts disabled once the move is certain: right before
 * set_task_cpu() or __set_task_cpu(), before the deactivate_task() that
 * starts it, or before the helper that calls them (move_queued_task(),
 * detach_task()), which then needs no cause parameter.  Nothing is
 * recorded when @new_cpu is @p's current CPU.  Without a reason in @why,
 * the reason is the one noted for @p on this CPU by mt_noted(), or what
 * @p's state tells.
 */
static inline void mt_migrate_task(struct task_struct *p,
				   unsigned int new_cpu, unsigned int why)
{
	if (static_branch_unlikely(&mt_hooks_key)) {
		/*
		 * Most moves are wakeups: they have a hook of their own,
		 * chosen at compile time where @why is a constant.
		 */
		if (why == MT_CAUSE_TRY_TO_WAKE_UP)
			__mt_migrate_wakeup(p, new_cpu);
		else
			__mt_migrate_task(p, new_cpu, why);
	}
}

/**
 * mt_placed() - mt_migrate_task() for a CPU chosen within an expression
 * @p: the task, still on its old CPU
 * @new_cpu: the CPU it is being moved to
 * @why: the cause, or MT_WHY(cause, reason)
 *
 * Return: @new_cpu.
 */
static inline int mt_placed(struct task_struct *p, int new_cpu,
			    unsigned int why)
{
	mt_migrate_task(p, new_cpu, why);
	return new_cpu;
}

/**
 * mt_migrate_task_lb() - mt_migrate_task() for the load balancer
 * @p: the task, still on its old CPU
 * @new_cpu: the CPU it is being moved to
 * @cause: MT_CAUSE_DETACH_TASKS or MT_CAUSE_DETACH_ONE_TASK
 * @idle: the balance's enum cpu_idle_type
 * @type: the balance's enum migration_type
 *
 * The reason is computed only when a consumer collects.
 */
static inline void mt_migrate_task_lb(struct task_struct *p,
				      unsigned int new_cpu, unsigned int cause,
				      unsigned int idle, unsigned int type)
{
	if (static_branch_unlikely(&mt_hooks_key))
		__mt_migrate_task(p, new_cpu, cause == MT_CAUSE_DETACH_TASKS ?
				  MT_WHY(cause, MT_REASON_LB_FIRST + idle * 4 + type) :
				  MT_WHY(cause, MT_REASON_ACTIVE_BALANCE));
}

/**
 * mt_noted() - note why a CPU was chosen for a task, and return the CPU
 * @p: the task being placed
 * @cpu: the CPU chosen
 * @why: enum mt_reason
 *
 * For the sched_class select_task_rq() methods and their helpers:
 * ``return mt_noted(p, cpu, R);``.  The last note for @p on this CPU
 * becomes the reason of the move that follows, if one does.  Call with
 * interrupts disabled.  Only @why is stored: both callers of the methods,
 * select_task_rq() and sched_exec(), note @p first with mt_note(), and
 * keeping @p out of the many return paths keeps their code as it was.  A
 * macro, so that @why is computed only when a consumer collects.
 *
 * Return: @cpu.
 */
#define mt_noted(p, cpu, why)						\
({									\
	int __mt_cpu = (cpu);						\
									\
	(void)(p);							\
	if (static_branch_unlikely(&mt_hooks_key))			\
		raw_cpu_write(mt_notes.reason, (why));			\
	__mt_cpu;							\
})

/**
 * mt_note() - note why a task is about to move
 * @task: the task
 * @why: enum mt_reason
 *
 * As mt_noted(), for a decision that is not a CPU number; this one also
 * records @task.  A macro too: @why is read only when a consumer collects.
 */
#define mt_note(task, why)						\
do {									\
	if (static_branch_unlikely(&mt_hooks_key)) {			\
		raw_cpu_write(mt_notes.p, (task));			\
		raw_cpu_write(mt_notes.reason, (why));			\
	}								\
} while (0)

/**
 * mt_note_deferred() - note why a task may move at its next wakeup
 * @p: a task that a stopper or a NUMA swap is placing
 * @why: enum mt_reason
 *
 * A stopper or a NUMA swap that finds its task asleep sets p->wake_cpu
 * and leaves the move to the task's next wakeup, which is named by @why
 * if it takes @p there.  Call with @p->pi_lock held, before p->wake_cpu
 * changes; a note for a task that moved at once is never read.  A macro:
 * @why is read only when a consumer collects.
 */
#define mt_note_deferred(p, why)					\
do {									\
	if (static_branch_unlikely(&mt_hooks_key))			\
		__mt_note_deferred((p), (why));				\
} while (0)

/**
 * mt_arg_set_reason() - give a stopper's request the reason of its move
 * @arg: the struct migration_arg of kernel/sched/core.c
 * @why: enum mt_reason
 *
 * Its mt_reason field exists with the hooks only; without them this and
 * mt_arg_reason() leave no trace, and the scheduler's code is unchanged.
 * With them, the store is behind the static branch too: a request queued
 * before a consumer started may carry no reason (0) to its move.  The
 * request is zeroed when it is made, so that is all it may carry.
 */
#define mt_arg_set_reason(arg, why)					\
do {									\
	if (static_branch_unlikely(&mt_hooks_key))			\
		(arg)->mt_reason = (why);				\
} while (0)
#define mt_arg_reason(arg)		((arg)->mt_reason)

/**
 * mt_copy_process() - report a new task
 * @p: the task copy_process() has just created
 */
static inline void mt_copy_process(struct task_struct *p)
{
	/* Without jump labels the key is a load: not before @p is linked. */
	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		smp_mb();	/* as in __mt_copy_process() */
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

/*
 * Macros that call an empty function under if (0): the arguments are
 * type-checked as the hooks' are, but not evaluated, so a reason that
 * reads scheduler state with READ_ONCE() leaves no load behind, and
 * without the hooks the scheduler compiles to the same code as without
 * the series (the build matrix compares the objects).
 */
struct migration_arg;

static inline void mt_off_task(struct task_struct *p, unsigned int cpu,
			       unsigned int why)
{
}

static inline void mt_off_lb(struct task_struct *p, unsigned int cpu,
			     unsigned int cause, unsigned int idle,
			     unsigned int type)
{
}

static inline void mt_off_arg(struct migration_arg *arg, unsigned int why)
{
}

#define mt_migrate_task(p, new_cpu, why)				\
	do { if (0) mt_off_task(p, new_cpu, why); } while (0)
#define mt_placed(p, new_cpu, why)					\
	({ if (0) mt_off_task(p, 0, why); (new_cpu); })
#define mt_migrate_task_lb(p, new_cpu, cause, idle, type)		\
	do { if (0) mt_off_lb(p, new_cpu, cause, idle, type); } while (0)
#define mt_noted(p, cpu, why)						\
	({ if (0) mt_off_task(p, 0, why); (cpu); })
#define mt_note(task, why)						\
	do { if (0) mt_off_task(task, 0, why); } while (0)
#define mt_note_deferred(p, why)					\
	do { if (0) mt_off_task(p, 0, why); } while (0)
#define mt_arg_set_reason(arg, why)					\
	do { if (0) mt_off_arg(arg, why); } while (0)
#define mt_arg_reason(arg)						\
	({ if (0) mt_off_arg(arg, 0); MT_REASON_NONE; })
#define mt_copy_process(p)						\
	do { if (0) mt_off_task(p, 0, 0); } while (0)
#define mt_set_task_comm(p)						\
	do { if (0) mt_off_task(p, 0, 0); } while (0)

#endif /* CONFIG_SNSC_LITE_MIGRATION_HOOKS */

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

int mt_trace_enable(bool enable, bool allow_restart);
void mt_trace_mark(unsigned long mark);

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline int mt_trace_enable(bool enable, bool allow_restart)
{
	return -ENODEV;
}

static inline void mt_trace_mark(unsigned long mark)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#endif /* _LINUX_MIGRATE_TRACE_LITE_H */
