/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's state (migrate_trace_lite_trace.c): whether it
 * runs, the names of its tasks, its start, stop and reset.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_TRACE_H
#define _KERNEL_MIGRATE_TRACE_LITE_TRACE_H

#include <linux/jump_label.h>

#include "migrate_trace_lite_filter.h"
#include "migrate_trace_lite_readers.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

extern bool mt_tracing;			/* hooks record; read locklessly */

/* Whether writers record; the buffers set up before a start are seen. */
static inline bool mt_trace_running(void)
{
	/* Pairs with the releases of a start. */
	return smp_load_acquire(&mt_tracing);
}

/*
 * The moves the trace records, by cause and reason and by task; they
 * change only while no writer runs.  mt_pid_bits, the pids selected
 * (NULL: every task), is set from mt_trace_pids when a trace starts,
 * and fork adds to it (mt_follow_fork()).
 */
extern struct mt_filter mt_trace_filter;
extern struct mt_pids mt_trace_pids;
extern unsigned long *mt_pid_bits;
DECLARE_STATIC_KEY_FALSE(mt_filter_key);

/* Whether the trace's filters leave some moves out. */
static __always_inline bool mt_filtering(void)
{
	return static_branch_unlikely(&mt_filter_key);
}

/*
 * Whether the trace records @p's move of @why, MT_WHY(cause, reason).
 * A de_thread() may change the pid of a task that moves: read it once.
 */
static __always_inline bool mt_trace_selects(struct task_struct *p,
					     unsigned int why)
{
	return mt_filter_match(&mt_trace_filter, why) &&
	       (!mt_pid_bits || mt_pids_match(mt_pid_bits, READ_ONCE(p->pid)));
}

/* Whether the trace records no move of @cause, whatever its reason. */
static __always_inline bool mt_trace_rejects_cause(unsigned int cause)
{
	return !mt_trace_filter.mask[cause];
}

extern unsigned long mt_buf_size_kb;	/* the size asked for */
extern unsigned int mt_trace_readers;	/* trace file opens, under mt_mutex */
extern s64 mt_clock_offset;		/* local_clock() - sched_clock() */

struct mt_task_name {
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

extern struct mt_task_name *mt_task_list;	/* names when the trace started */
extern unsigned int mt_task_list_len;
extern u64 mt_task_list_ts;
extern int mt_task_list_cpu;
extern unsigned long mt_task_list_truncated;

/* The name cache's slots: a pid's slot is its number modulo this. */
#define MT_COMM_SLOTS	4096

bool mt_comm_lookup(pid_t pid, char *comm);
void mt_buffer_full(u64 ts);
void mt_stop_writers(void);
void mt_log_comm(unsigned int type, struct task_struct *p);
bool mt_name_exiting(struct task_struct *p, u64 now);
int mt_log_mark(unsigned long mark);
bool mt_trace_started(void);
int mt_start_locked(bool allow_restart);
void mt_stop_locked(void);
int mt_reset_locked(void);
int mt_trace_resize_locked(unsigned long size_kb);
void mt_trace_set_filter_locked(const struct mt_filter *f);
int mt_trace_set_pids_locked(const struct mt_pids *p);
void mt_trace_clear_pids_locked(bool fork);
void mt_follow_fork(struct task_struct *p);

#if IS_ENABLED(CONFIG_KUNIT)
void mt_take_task_list(u64 ts);
#endif

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/* Under mt_mutex: new traces since boot, and the benchmark's own start. */
extern unsigned long mt_trace_starts;
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

static inline bool mt_name_exiting(struct task_struct *p, u64 now)
{
	return true;
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#endif /* _KERNEL_MIGRATE_TRACE_LITE_TRACE_H */
