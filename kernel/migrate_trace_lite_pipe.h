/* SPDX-License-Identifier: GPL-2.0 */
/*
 * migration_trace/trace_pipe, the consuming reader's file
 * (migrate_trace_lite_pipe.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_PIPE_H
#define _KERNEL_MIGRATE_TRACE_LITE_PIPE_H

#include "migrate_trace_lite_pipe_merge.h"

struct iov_iter;

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
void mt_pipe_setup(void);
void mt_pipe_init(struct mt_trace *tr, struct dentry *dir);
#if IS_ENABLED(CONFIG_KUNIT)
int mt_pipe_get(struct mt_trace *tr);
void mt_pipe_put(struct mt_trace *tr);
ssize_t mt_pipe_read_iter(struct mt_trace *tr, struct iov_iter *to,
			  bool nonblock);
#endif
#else
struct mt_trace;

static inline void mt_pipe_setup(void)
{
}

static inline void mt_pipe_init(struct mt_trace *tr, struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_PIPE_H */
