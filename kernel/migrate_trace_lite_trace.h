/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's state (migrate_trace_lite_trace.c): whether it
 * runs, the names of its tasks, its start, stop and reset; the top trace
 * and its instances.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_TRACE_H
#define _KERNEL_MIGRATE_TRACE_LITE_TRACE_H

#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "migrate_trace_lite_filter.h"
#include "migrate_trace_lite_readers.h"

/* The most instances there can be besides the top trace. */
#define MT_INSTANCES_MAX	8

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

struct mt_task_name {
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

struct mt_comm_slot;

/* The longest name of an instance. */
#define MT_INSTANCE_NAME_MAX	32

/*
 * A trace: the top one (migration_trace/, mt_top), whose hooks' path is
 * inline, or an instance (migration_trace/instances/NAME), which the
 * hooks' out-of-line path records into.  Each has its own buffer,
 * readers, settings and task names.  Its settings change under mt_mutex.
 */
struct mt_trace {
	bool tracing;			/* hooks record; read locklessly */
	/* Names are logged while a start walks the tasks (mt_start_new_locked()). */
	bool naming;
	struct mt_buffer buf;
	struct mt_readers rd;
	/*
	 * The moves the trace records, by cause and reason and by task;
	 * they change only while no writer runs.  @pid_bits, the pids
	 * selected (NULL: every task), is set from @pids when a trace
	 * starts, and fork adds to it (mt_follow_fork()).
	 */
	struct mt_filter filter;
	unsigned long *pid_bits;
	unsigned long buf_size_kb;	/* the size asked for */
	unsigned int trace_readers;	/* trace file opens, under mt_mutex */
	s64 clock_offset;		/* local_clock() - sched_clock() */
	/* Names of the tasks when the trace started. */
	struct mt_task_name *task_list;
	unsigned int task_list_len;
	unsigned int task_list_cap;
	u64 task_list_ts;
	int task_list_cpu;
	unsigned long task_list_truncated;
	struct mt_comm_slot *comm_cache;	/* the last name of each pid */
	/* Under mt_mutex: */
	bool holds_hooks;
	bool started;			/* a trace ran since the reset */
	bool armed;			/* a start armed its keys */
	bool dumps;			/* the dump on oops reads it: the top trace */
	bool removing;			/* rmdir takes it away: no more opens */
	unsigned int files;		/* its files open */
	int id;				/* the instance's slot; -1 for the top */
	struct dentry *dir;
	char name[MT_INSTANCE_NAME_MAX + 1];
	/* A writer that found its buffer full stops the trace through these. */
	struct work_struct release_work;
	struct irq_work full_irq_work;
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
	unsigned long starts;		/* new traces since boot, for the benchmark */
#endif
	struct mt_pids pids;		/* 4 KiB, last */
};

extern struct mt_trace mt_top;

/* Whether @tr's writers record; the buffers set up before a start are seen. */
static inline bool mt_tr_running(struct mt_trace *tr)
{
	/* Pairs with the releases of a start. */
	return smp_load_acquire(&tr->tracing);
}

/* Whether the top trace's writers record: the hooks' fast path. */
static inline bool mt_trace_running(void)
{
	return mt_tr_running(&mt_top);
}

DECLARE_STATIC_KEY_FALSE(mt_filter_key);
DECLARE_STATIC_KEY_FALSE(mt_instances_key);

/* Whether the top trace's filters leave some moves out. */
static __always_inline bool mt_filtering(void)
{
	return static_branch_unlikely(&mt_filter_key);
}

/* Whether an instance started since its reset: the hooks look at them. */
static __always_inline bool mt_instances_on(void)
{
	return static_branch_unlikely(&mt_instances_key);
}

/*
 * Whether @tr records @p's move of @why, MT_WHY(cause, reason).
 * A de_thread() may change the pid of a task that moves: read it once.
 */
static __always_inline bool mt_tr_selects(struct mt_trace *tr,
					  struct task_struct *p,
					  unsigned int why)
{
	return mt_filter_match(&tr->filter, why) &&
	       (!tr->pid_bits || mt_pids_match(tr->pid_bits, READ_ONCE(p->pid)));
}

/* Whether the top trace records @p's move of @why. */
static __always_inline bool mt_trace_selects(struct task_struct *p,
					     unsigned int why)
{
	return mt_tr_selects(&mt_top, p, why);
}

/* Whether the top trace records no move of @cause, whatever its reason. */
static __always_inline bool mt_trace_rejects_cause(unsigned int cause)
{
	return !mt_top.filter.mask[cause];
}

/* The name cache's slots: a pid's slot is its number modulo this. */
#define MT_COMM_SLOTS	4096

int mt_trace_setup(struct mt_trace *tr, struct mt_ring __percpu *rings);
void mt_trace_teardown(struct mt_trace *tr);
bool mt_comm_lookup(struct mt_trace *tr, pid_t pid, char *comm);
void mt_buffer_full(struct mt_trace *tr, u64 ts);
void mt_stop_writers(void);
void mt_log_comm(unsigned int type, struct task_struct *p);
bool mt_name_exiting(struct mt_trace *tr, struct task_struct *p, u64 now);
void mt_tr_log_move_slow(struct mt_trace *tr, struct mt_ring *ring,
			 struct task_struct *p, unsigned int to,
			 unsigned int why, u64 now);
int mt_log_mark(struct mt_trace *tr, unsigned long mark);
bool mt_trace_started(struct mt_trace *tr);
int mt_start_locked(struct mt_trace *tr, bool allow_restart);
void mt_stop_locked(struct mt_trace *tr);
int mt_reset_locked(struct mt_trace *tr);
int mt_trace_resize_locked(struct mt_trace *tr, unsigned long size_kb);
void mt_trace_set_filter_locked(struct mt_trace *tr, const struct mt_filter *f);
int mt_trace_set_pids_locked(struct mt_trace *tr, const struct mt_pids *p);
void mt_trace_clear_pids_locked(struct mt_trace *tr, bool fork);
void mt_follow_fork(struct task_struct *p);
struct mt_trace *mt_instance_get_locked(int id);

extern struct mt_trace __rcu *mt_instances[MT_INSTANCES_MAX];
extern unsigned long mt_instances_armed;

/* The slots of the instances that run, for the hooks; 0 if none. */
static __always_inline unsigned long mt_instances_running(void)
{
	return mt_instances_on() ? READ_ONCE(mt_instances_armed) : 0;
}

/* mt_name_exiting() of the top trace, for the hooks. */
static __always_inline bool mt_top_name_exiting(struct task_struct *p, u64 now)
{
	return mt_name_exiting(&mt_top, p, now);
}

/*
 * Log @p's move in @tr, @ring its ring of this CPU; the writer is busy.
 * @p is not exiting (see mt_tr_log_move_slow()).
 */
static __always_inline void mt_tr_log_move(struct mt_trace *tr,
					   struct mt_ring *ring,
					   struct task_struct *p,
					   unsigned int to, unsigned int why,
					   u64 now)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);
	struct mt_rec_migrate *r;

	if (unlikely(!mt_ring_fits(ring, len, now))) {
		mt_tr_log_move_slow(tr, ring, p, to, why, now);
		return;
	}
	r = (struct mt_rec_migrate *)mt_ring_fill(ring, len, why & 0xff,
						  why >> 8, now);
	r->from = task_cpu(p);
	r->to = to;
	r->pid = p->pid;
	mt_ring_advance(ring, len);
}

/**
 * mt_instances_log() - log a move in the running instances that select it
 * @p: the task that moves
 * @to: the CPU it moves to
 * @why: MT_WHY(cause, reason) of the move
 * @now: the time of the move
 * @armed: mt_instances_running(), not 0: the slots of the instances
 * @exiting: @p is exiting, and is named first in each instance
 *
 * The writer is busy, from before @now was read (mt_writer_begin()):
 * one clock read and one busy section serve every trace.  An instance
 * is armed from after it is published to before it is unpublished.
 *
 * Context: the hooks' out-of-line path, behind mt_instances_key; irqs
 * off, which makes it an RCU reader of the instances.
 */
static __always_inline void mt_instances_log(struct task_struct *p,
					     unsigned int to, unsigned int why,
					     u64 now, unsigned long armed,
					     bool exiting)
{
	do {
		struct mt_trace *tr = rcu_dereference_sched(mt_instances[__ffs(armed)]);
		struct mt_ring *ring = this_cpu_ptr(tr->buf.rings);

		armed &= armed - 1;
		if (!mt_tr_running(tr) || !mt_tr_selects(tr, p, why))
			continue;
		if (exiting)
			mt_tr_log_move_slow(tr, ring, p, to, why, now);
		else
			mt_tr_log_move(tr, ring, p, to, why, now);
	} while (armed);
}

int mt_trace_file_get_locked(struct mt_trace *tr);
void mt_trace_file_put_locked(struct mt_trace *tr);
int mt_trace_file_get(struct mt_trace *tr);
void mt_trace_file_put(struct mt_trace *tr);
int mt_instance_set_locked(int id, struct mt_trace *tr);

#if IS_ENABLED(CONFIG_KUNIT)
void mt_take_task_list(struct mt_trace *tr, u64 ts);
#endif

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
int mt_bench_start_trace_locked(void);
#endif

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline bool mt_trace_running(void)
{
	return false;
}

static inline bool mt_filtering(void)
{
	return false;
}

static inline bool mt_instances_on(void)
{
	return false;
}

struct mt_trace;

static inline unsigned long mt_instances_running(void)
{
	return 0;
}

static inline void mt_instances_log(struct task_struct *p, unsigned int to,
				    unsigned int why, u64 now,
				    unsigned long armed, bool exiting)
{
}

static inline bool mt_trace_selects(struct task_struct *p, unsigned int why)
{
	return true;
}

static inline void mt_follow_fork(struct task_struct *p)
{
}

static inline bool mt_trace_rejects_cause(unsigned int cause)
{
	return false;
}

static inline void mt_log_comm(unsigned int type, struct task_struct *p)
{
}

static inline bool mt_top_name_exiting(struct task_struct *p, u64 now)
{
	return true;
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#endif /* _KERNEL_MIGRATE_TRACE_LITE_TRACE_H */
