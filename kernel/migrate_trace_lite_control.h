/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's control files and kernel API
 * (migrate_trace_lite_control.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H
#define _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H

#include "migrate_trace_lite_trace.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_control_init(struct mt_trace *tr, struct dentry *dir);
int mt_trace_reset(struct mt_trace *tr);
#if IS_ENABLED(CONFIG_KUNIT)
int mt_trace_set_size(struct mt_trace *tr, unsigned long size_kb);
int mt_trace_set_overwrite(struct mt_trace *tr, bool on);
int mt_trace_filter_write(struct mt_trace *tr, char *text, bool replace);
int mt_trace_pids_write(struct mt_trace *tr, char *text, bool replace);
void mt_trace_pids_clear(struct mt_trace *tr);
int mt_trace_event_fork_set(struct mt_trace *tr, bool on);
#endif
#else
struct mt_trace;

static inline void mt_control_init(struct mt_trace *tr, struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H */
