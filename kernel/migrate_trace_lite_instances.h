/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traces' directories (migrate_trace_lite_instances.c): the top
 * trace's files in migration_trace/, and the instances that users make
 * and remove in migration_trace/instances/.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_INSTANCES_H
#define _KERNEL_MIGRATE_TRACE_LITE_INSTANCES_H

#include "migrate_trace_lite_control.h"
#include "migrate_trace_lite_pipe.h"
#include "migrate_trace_lite_snap.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_instances_init(struct dentry *dir);
#if IS_ENABLED(CONFIG_KUNIT)
int mt_instance_mkdir(const char *name);
int mt_instance_rmdir(const char *name);
struct mt_trace *mt_instance_find(const char *name);
#endif
#else
static inline void mt_instances_init(struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_INSTANCES_H */
