/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot of a stopped trace, its rings merged by time, and the trace
 * file that shows it (migrate_trace_lite_snap.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_SNAP_H
#define _KERNEL_MIGRATE_TRACE_LITE_SNAP_H

#include <linux/min_heap.h>

#include "migrate_trace_lite_output.h"

/* A snapshot: the rings merged by time, read with the writers stopped. */
enum mt_snap_state { MT_SNAP_LEAD, MT_SNAP_REC, MT_SNAP_TAIL, MT_SNAP_DONE };

struct mt_snap_cpu {
	struct mt_cursor cur;
	struct mt_rec *rec;	/* at the head, in state MT_SNAP_REC */
	u64 ts;			/* of the head */
	u64 lead;		/* records lost before the first one left */
	enum mt_snap_state state;
};

DEFINE_MIN_HEAP(int, mt_cpu_heap);

struct mt_snap {
	struct mt_trace *tr;		/* whose rings */
	struct mt_cpu_heap heap;	/* CPUs with a head, earliest first */
	struct mt_snap_cpu *cpus;	/* by CPU number */
	int *heap_data;
};

int mt_snap_alloc(struct mt_snap *s, struct mt_trace *tr);
void mt_snap_free(struct mt_snap *s);
void mt_snap_start(struct mt_snap *s, unsigned long newest);
int mt_snap_top(struct mt_snap *s);
unsigned int mt_snap_format(struct mt_snap *s, int cpu, char *buf);
void mt_snap_next(struct mt_snap *s);

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_snap_init(struct mt_trace *tr, struct dentry *dir);
#else
struct mt_trace;

static inline void mt_snap_init(struct mt_trace *tr, struct dentry *dir)
{
}
#endif

#if IS_ENABLED(CONFIG_KUNIT)
int mt_snap_walk(struct mt_trace *tr,
		 void (*fn)(int cpu, const struct mt_rec *rec, u64 ts, void *arg),
		 void *arg);
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_SNAP_H */
