/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Migration statistics, mstat (migrate_trace_lite_stat.c): per-CPU
 * counters of each cause and reason in periods, folded into one history.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_STAT_H
#define _KERNEL_MIGRATE_TRACE_LITE_STAT_H

#include <linux/jump_label.h>
#include <linux/percpu.h>

#include "migrate_trace_lite_base.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

extern bool ms_collecting;		/* hooks count; read locklessly */

/* Whether the hooks count; the per-CPU state set up before a start is seen. */
static inline bool ms_stat_running(void)
{
	/* Pairs with the release of ms_start_locked(). */
	return smp_load_acquire(&ms_collecting);
}

/*
 * On from before a start lets the hooks count until the stop after it:
 * while it is off, the stat does not collect, and a hook that logs for
 * the trace asks no more than a static branch.
 */
DECLARE_STATIC_KEY_FALSE(ms_stat_key);

/* Whether the stat may count: ms_stat_running() then tells. */
static __always_inline bool ms_stat_may_run(void)
{
	return static_branch_unlikely(&ms_stat_key);
}

/* The column of a cause and reason; the hooks count into ms_counts[]. */
extern u8 ms_col[MT_CAUSE_END][MT_REASON_END];
DECLARE_PER_CPU(u64 [], ms_counts);
DECLARE_PER_CPU(u64, ms_period_end);
DECLARE_PER_CPU(unsigned long, ms_period_end_tick);
void ms_count_slow(unsigned int col, u64 now);
void ms_count_untimed_slow(unsigned int col);
void ms_stat_init(void);

#if IS_ENABLED(CONFIG_KUNIT)
extern unsigned long ms_period_msec;
extern u64 ms_start_ns;
int ms_start_locked(void);
void ms_stop_locked(void);
int ms_reset_locked(void);
u64 ms_read_count(u64 period, unsigned int col);
u64 ms_read_locked(u64 now);
unsigned int ms_column(unsigned int cause, unsigned int reason);
#endif

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/* Under mt_mutex: collections started since boot, and the bench's own. */
extern unsigned long ms_starts;
int ms_bench_start_locked(void);
#endif

#else /* !CONFIG_SNSC_LITE_MIGRATION_STAT */

static inline bool ms_stat_running(void)
{
	return false;
}

static inline bool ms_stat_may_run(void)
{
	return false;
}

static inline void ms_stat_init(void)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

#endif /* _KERNEL_MIGRATE_TRACE_LITE_STAT_H */
