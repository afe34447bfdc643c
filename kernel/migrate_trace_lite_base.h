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
#include <linux/gfp.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct dentry;
struct seq_buf;
struct task_struct;

/* Serializes every control operation of mt and mstat, and reader opens. */
extern struct mutex mt_mutex;

extern const char * const mt_cause_names[MT_CAUSE_END];
extern const char * const mt_reason_names[MT_REASON_END];

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
unsigned int mt_take_deferred(struct task_struct *p);

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
