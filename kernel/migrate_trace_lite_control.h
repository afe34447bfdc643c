/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's control files and kernel API
 * (migrate_trace_lite_control.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H
#define _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H

#include "migrate_trace_lite_trace.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_control_init(struct dentry *dir);
#if IS_ENABLED(CONFIG_KUNIT)
int mt_trace_reset(void);
int mt_trace_set_size(unsigned long size_kb);
int mt_trace_set_overwrite(bool on);
int mt_trace_filter_write(char *text, bool replace);
int mt_trace_pids_write(char *text, bool replace);
void mt_trace_pids_clear(void);
int mt_trace_event_fork_set(bool on);
#endif
#else
static inline void mt_control_init(struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_CONTROL_H */
