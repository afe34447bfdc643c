/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark path, migration_trace/bench (migrate_trace_lite_bench.c):
 * the project's own, not mailed.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_BENCH_H
#define _KERNEL_MIGRATE_TRACE_LITE_BENCH_H

#include "migrate_trace_lite_snap.h"
#include "migrate_trace_lite_stat.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
void mt_bench_init(struct dentry *dir);
#else
static inline void mt_bench_init(struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_BENCH_H */
