/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The top layer, the hooks (migrate_trace_lite.c): their inline fast path,
 * a migration's record in this CPU's ring and its count in this CPU's
 * period, which every event runs; and the layers whose init they call.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_H
#define _KERNEL_MIGRATE_TRACE_LITE_H

#include <linux/jiffies.h>

#include "migrate_trace_lite_bench.h"
#include "migrate_trace_lite_instances.h"
#include "migrate_trace_lite_oops.h"
#include "migrate_trace_lite_stat.h"

#if IS_ENABLED(CONFIG_KUNIT)
void mt_log_move_at(struct task_struct *p, unsigned int to, unsigned int why,
		    u64 now);
#endif

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

static __always_inline void mt_fill_migration(struct mt_rec_migrate *r,
					      pid_t pid, unsigned int from,
					      unsigned int to)
{
	r->from = from;
	r->to = to;
	r->pid = pid;
}

/*
 * Log a migration on the ring's fast path; called by the hooks' rare
 * cases (an exiting task, a record mt_migration_fill() could not place)
 * with interrupts disabled, right before the move: task_cpu(@p) is still
 * the CPU it leaves.
 * Return: false, having published nothing, when the record needs the
 * ring's slow path: a new chunk, a gap past 32 bits, or a clock that
 * stepped back.  The hook then calls mt_log_migration_slow() out of its
 * line, so that its values live in registers that need no saving; for
 * that, this one holds few values at a time: the CPU is read again, and
 * the delta is stored before it is checked.
 * A waiting reader is woken by the slow path, once a chunk is full, or
 * wakes by itself (see migrate_trace_lite_readers.c).
 */
static __always_inline bool mt_log_migration_fast(struct task_struct *p,
						  unsigned int to,
						  unsigned int why, u64 now)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);
	struct mt_ring *ring = this_cpu_ptr(&mt_rings);
	/* Read before the record's stores, which may alias them. */
	struct mt_chunk *c = ring->wchunk;
	unsigned int tail = ring->wtail;
	u64 delta = now - ring->wlast;
	struct mt_rec_migrate *r;

	/* As mt_ring_fits(). */
	if (unlikely(tail + len > ring->wlimit))
		return false;
	r = (struct mt_rec_migrate *)mt_chunk_rec(c, tail);
	/* Stored before it is checked: past the commit, nobody reads it. */
	r->hdr.delta = delta;
	if (unlikely(delta > U32_MAX))
		return false;
	ring->wlast = now;
	r->hdr.info = mt_rec_info(why, len);
	mt_fill_migration(r, p->pid, task_cpu(p), to);
	local64_inc(&ring->entries);
	mt_ring_publish(ring, c, tail + len);
	return true;
}

/* Log a migration that needs the ring's slow path: the hook's rare case. */
static __always_inline void mt_log_migration_slow(pid_t pid,
						  unsigned int from,
						  unsigned int to,
						  unsigned int why, u64 now)
{
	struct mt_ring *ring = this_cpu_ptr(&mt_rings);
	struct mt_rec_migrate *r;

	r = mt_ring_write_slow(ring, sizeof(*r), why & 0xff, why >> 8, now);
	if (unlikely(!r)) {
		mt_buffer_full(&mt_top, now);
		return;
	}
	mt_fill_migration(r, pid, from, to);
	mt_ring_advance(ring, sizeof(*r));
	mt_reader_kick(&mt_top.rd, true);
}

/*
 * The hooks' fast path logs a migration in two halves around the clock
 * read, so that none of its values lives across that call and it saves
 * no register: mt_migration_fill() writes all of the record but its
 * delta at this CPU's tail, which no reader reads before the commit;
 * mt_migration_stamp() dates and publishes it.  Interrupts stay disabled
 * from one to the other, and the writer is busy from before the clock
 * read to the commit.
 * Return: false, having written nothing, when the record does not fit
 * in the chunk as mt_ring_fits() says (its delta is checked once known).
 */
static __always_inline bool mt_migration_fill(struct task_struct *p,
					      unsigned int from,
					      unsigned int to,
					      unsigned int cause,
					      unsigned int reason)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);
	unsigned int tail = raw_cpu_read(mt_rings.wtail);
	struct mt_rec_migrate *r;

	if (unlikely(tail + len > raw_cpu_read(mt_rings.wlimit)))
		return false;
	r = (struct mt_rec_migrate *)mt_chunk_rec(raw_cpu_read(mt_rings.wchunk),
						  tail);
	/* A constant for a hook's cause: the reason is stored alone. */
	r->hdr.info = mt_rec_info(cause, len);
	r->hdr.reason = reason;
	mt_fill_migration(r, p->pid, from, to);
	return true;
}

/* The record mt_migration_fill() wrote, not yet published. */
static __always_inline struct mt_rec_migrate *mt_migration_filled(void)
{
	return (struct mt_rec_migrate *)mt_chunk_rec(raw_cpu_read(mt_rings.wchunk),
						     raw_cpu_read(mt_rings.wtail));
}

/*
 * Date at @now and publish the record mt_migration_fill() wrote.  Each
 * field is this CPU's, read and written through the per-CPU segment: no
 * address of the ring is computed.
 * Return: false, having published nothing, when its delta is past 32
 * bits or the clock stepped back: the ring's slow path must log it
 * (mt_log_migration_slow()).
 */
static __always_inline bool mt_migration_stamp(u64 now)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);
	u64 delta = now - raw_cpu_read(mt_rings.wlast);
	struct mt_chunk *c = raw_cpu_read(mt_rings.wchunk);
	unsigned int tail = raw_cpu_read(mt_rings.wtail);
	unsigned int next = tail + len;

	/* Stored before it is checked: past the commit, nobody reads it. */
	mt_chunk_rec(c, tail)->delta = delta;
	if (unlikely(delta > U32_MAX))
		return false;
	raw_cpu_write(mt_rings.wlast, now);
	local64_inc(this_cpu_ptr(&mt_rings.entries));
	raw_cpu_write(mt_rings.wtail, next);
	/* The record is written before a reader can see it committed. */
	smp_store_release(&c->commit, next);
	return true;
}

/* MT_WHY() of the record mt_migration_stamp() published. */
static __always_inline unsigned int mt_migration_stamped_why(void)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);

	return mt_rec_why(mt_chunk_rec(raw_cpu_read(mt_rings.wchunk),
				       raw_cpu_read(mt_rings.wtail) - len));
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline void mt_log_migration_slow(pid_t pid,
					 unsigned int from, unsigned int to,
					 unsigned int why, u64 now)
{
}

static inline bool mt_migration_fill(struct task_struct *p, unsigned int from,
				     unsigned int to, unsigned int cause,
				     unsigned int reason)
{
	return true;
}

static inline struct mt_rec_migrate *mt_migration_filled(void)
{
	return NULL;
}

/* Stamped, as far as the caller's slow path is concerned: it has none. */
static inline bool mt_migration_stamp(u64 now)
{
	return true;
}

static inline unsigned int mt_migration_stamped_why(void)
{
	return 0;
}

static inline bool mt_log_migration_fast(struct task_struct *p,
					 unsigned int to, unsigned int why,
					 u64 now)
{
	return true;
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

/*
 * Count a move the trace stamped at @now, @why being MT_WHY(); interrupts
 * disabled.  The trace and the stat then put it in the same period.
 */
static __always_inline void ms_count(unsigned int why, u64 now)
{
	unsigned int col = ms_col[why & 0xff][why >> 8];

	if (unlikely(now >= raw_cpu_read(ms_period_end))) {
		ms_count_slow(col, now);
		return;
	}
	raw_cpu_inc(ms_counts[col]);
}

/*
 * Count a move when the stat collects alone: no clock is read until the
 * tick count nears the period's end (ms_period_end_tick), after which
 * every move reads it, so that each lands in the period of its time.
 * 32-bit reads it always (see migrate_trace_lite_stat.c).
 */
static __always_inline void ms_count_untimed(unsigned int why)
{
	unsigned int col = ms_col[why & 0xff][why >> 8];

	/*
	 * time_after_eq() without its typecheck(), whose dummies an
	 * initializing of automatic variables (INIT_STACK_ALL_ZERO) would
	 * give a stack frame to every hook.
	 */
	if (BITS_PER_LONG == 32 ||
	    unlikely((long)(jiffies - raw_cpu_read(ms_period_end_tick)) >= 0)) {
		ms_count_untimed_slow(col);
		return;
	}
	raw_cpu_inc(ms_counts[col]);
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_STAT */

static inline void ms_count(unsigned int why, u64 now)
{
}

static inline void ms_count_untimed(unsigned int why)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

#endif /* _KERNEL_MIGRATE_TRACE_LITE_H */
