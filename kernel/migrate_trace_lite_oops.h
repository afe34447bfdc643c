/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's dump on panic or oops (migrate_trace_lite_oops.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_OOPS_H
#define _KERNEL_MIGRATE_TRACE_LITE_OOPS_H

#include "migrate_trace_lite_snap.h"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_oops_init(struct dentry *dir);
#if IS_ENABLED(CONFIG_KUNIT)
extern unsigned long mt_oops_records;
void mt_oops_line(const char *line, unsigned int len);
void mt_oops_dump(void);
int mt_oops_set_records(unsigned long n);
#endif
#else
static inline void mt_oops_init(struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_OOPS_H */
