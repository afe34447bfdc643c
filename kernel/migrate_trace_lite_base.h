/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Light weight migration trace (mt) and statistics (mstat): the base
 * layer, which every other file builds on (migrate_trace_lite_base.c).
 * The layers are drawn in the documentation's development notes; each
 * file includes only its own layer's header, which includes the ones
 * below it.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_BASE_H
#define _KERNEL_MIGRATE_TRACE_LITE_BASE_H

#include <linux/migrate_trace_lite.h>
#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/hash.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/types.h>

struct dentry;
struct seq_buf;
struct task_struct;

/* Serializes every control operation of mt and mstat, and reader opens. */
extern struct mutex mt_mutex;

extern const char * const mt_cause_names[MT_CAUSE_END];
extern const char * const mt_reason_names[MT_REASON_END];

/* The reasons each cause can have, as masks of BIT_ULL(enum mt_reason). */
#define MT_R(name)	BIT_ULL(MT_REASON_##name)
#define MT_REASONS_SELECT						\
	(MT_R(WAKE_AFFINE) | MT_R(WAKE_AFFINE_BUSY) | MT_R(IDLE_TARGET) |	\
	 MT_R(BUSY_TARGET) | MT_R(IDLE_PREV) | MT_R(KTHREAD_PREV) |		\
	 MT_R(IDLE_RECENT) | MT_R(IDLE_CAPACITY) | MT_R(IDLE_SMT) |		\
	 MT_R(IDLE_CORE) | MT_R(IDLE_CPU) | MT_R(SLOW_PATH) |			\
	 MT_R(ENERGY_AWARE) | MT_R(WAKE_CURRENT_CPU) | MT_R(RT_LOWEST_RQ) |	\
	 MT_R(DL_LATER_RQ) | MT_R(FALLBACK))
/* A wakeup carries out a move a stopper or a NUMA swap left to it. */
#define MT_REASONS_WAKEUP						\
	(MT_REASONS_SELECT | MT_R(AFFINITY_AT_WAKEUP) |			\
	 MT_R(NUMA_AT_WAKEUP) | MT_R(EXEC_BALANCE) | MT_R(NUMA_MIGRATE))
#define MT_REASONS_FORK	(MT_R(SLOW_PATH) | MT_R(RT_LOWEST_RQ) | MT_R(FALLBACK))
#define MT_REASONS_LB	GENMASK_ULL(MT_REASON_LB_LAST, MT_REASON_LB_FIRST)
#define MT_REASONS_ACTIVE	MT_R(ACTIVE_BALANCE)
#define MT_REASONS_STOPPER						\
	(MT_R(AFFINITY) | MT_R(MIGRATE_ENABLE) | MT_R(EXEC_BALANCE) |	\
	 MT_R(NUMA_MIGRATE))
#define MT_REASONS_AFFINE	MT_R(AFFINITY)
#define MT_REASONS_PUSH	(MT_R(PUSH_RT) | MT_R(PUSH_DL))
/* Of mt_cause_reasons[]: the causes with a mask, and the masks' bits. */
#define MT_NR_CAUSES_WITH_REASONS	7
#define MT_NR_CAUSE_REASONS						\
	(HWEIGHT64(MT_REASONS_WAKEUP) + HWEIGHT64(MT_REASONS_FORK) +	\
	 HWEIGHT64(MT_REASONS_LB) + HWEIGHT64(MT_REASONS_ACTIVE) +		\
	 HWEIGHT64(MT_REASONS_STOPPER) + HWEIGHT64(MT_REASONS_AFFINE) +	\
	 HWEIGHT64(MT_REASONS_PUSH))
extern const u64 mt_cause_reasons[MT_CAUSE_END];

int mt_parse_ulong(const char __user *ubuf, size_t count, bool hex_ok,
		   unsigned long *val);
int mt_parse_enable(const char __user *ubuf, size_t count, bool *on);
ssize_t mt_read_ulong(char __user *ubuf, size_t count, loff_t *ppos,
		      unsigned long val);
int mt_parse_reset(const char __user *ubuf, size_t count);
ssize_t mt_write_reset(const char __user *ubuf, size_t count,
		       int (*reset)(void));
void mt_hooks_get(bool *held);
void mt_hooks_put(bool *held);

/*
 * On while a hook has more to do than its fast path: sched_migrate_reason
 * has consumers, or the trace's filter leaves moves out.  Each holds one
 * reference, so that the fast path tests one static branch for both.
 */
DECLARE_STATIC_KEY_FALSE(mt_rare_key);

/* Whether the hooks take their out-of-line path; it tells what to do. */
static __always_inline bool mt_hooks_rare(void)
{
	return static_branch_unlikely(&mt_rare_key);
}

/*
 * Moves left to a wakeup, by the task's pid: pid << 8 | reason (see
 * __mt_note_deferred()).  Inline, for the wakeup hook's path looks here
 * whenever wake_cpu is not the task's CPU.
 */
#define MT_DEFERRED_BITS	6
extern unsigned long mt_deferred[1 << MT_DEFERRED_BITS];

static inline unsigned long *mt_deferred_slot(struct task_struct *p)
{
	return &mt_deferred[hash_32(p->pid, MT_DEFERRED_BITS)];
}

/**
 * mt_take_deferred() - take the reason of a move left to @p's wakeup
 * @p: the task that wakes (or is forked with the pid)
 *
 * Clears the entry unless another task's newer one replaced it.
 *
 * Context: @p's wakeup, under @p->pi_lock, or its fork.
 * Return: the noted reason, or MT_REASON_NONE if none is noted for @p.
 */
static inline unsigned int mt_take_deferred(struct task_struct *p)
{
	unsigned long *slot = mt_deferred_slot(p);
	unsigned long entry = READ_ONCE(*slot);

	if (entry >> 8 != (unsigned long)p->pid)
		return MT_REASON_NONE;
	/* Another task's newer entry in the slot stays. */
	cmpxchg(slot, entry, 0);
	return entry & 0xff;
}

/* Allocations on first use may fail; they never warn or call the OOM killer. */
#define MT_GFP	(GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/*
 * The clock of both facilities is local_clock(), the scheduler's clock of
 * the CPU that logs: the kernel's own interface, on every architecture.
 * A trace's header names it and gives its offset from sched_clock(),
 * ftrace's "local" clock (perf's default clock is local_clock() itself),
 * so that both traces of one run line up.  One
 * CPU's times can step back (a clock found unstable, a suspend); the
 * rings keep each CPU's records in time order all the same, see
 * mt_ring_write_slow().
 */
#define MT_CLOCK_NAME	"local_clock"
s64 mt_clock_offset_now(void);

#endif /* _KERNEL_MIGRATE_TRACE_LITE_BASE_H */
