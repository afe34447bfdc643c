/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The buffers' readers as the layers below them see them
 * (migrate_trace_lite_readers.c).  The writers wake the consuming reader
 * (trace_pipe), the trace's control locks it out and resets it, and the
 * dump on oops claims the buffers, all through what this layer owns, so
 * that nothing below the readers calls up into them.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_READERS_H
#define _KERNEL_MIGRATE_TRACE_LITE_READERS_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/wait.h>

#include "migrate_trace_lite_ring.h"

/* The consuming reader's wait queue, and whether it waits for a kick. */
extern struct wait_queue_head mt_reader_wq;
extern atomic_t mt_reader_waiting;
/* Guards the consuming reader's state and the rings' reader fields. */
extern struct mutex mt_reader_lock;
/* trace_pipe is open (under mt_mutex). */
extern bool mt_reader_open;
/* Lines it handed out at the time of the line before them (clamped). */
extern unsigned long mt_reader_clamps;

void mt_reader_kick_waiting(bool now);
void mt_reader_wake(void);
void mt_reader_set_waiting(void);
bool mt_reader_busy(void);
u64 mt_reader_clamped(void);
void mt_reader_set_reset(void (*reset)(void));
void mt_reader_reset(void);

/**
 * mt_reader_kick() - wake a waiting consuming reader after a commit
 * @now: at once (a new chunk), or within MT_READER_NUDGE_JIFFIES (a name
 *	 or a mark)
 */
static inline void mt_reader_kick(bool now)
{
	/* Pairs with mt_reader_set_waiting(): it sees the commit, or this it. */
	smp_mb();
	if (unlikely(atomic_read(&mt_reader_waiting)))
		mt_reader_kick_waiting(now);
}

/*
 * The dump on oops's claim on the buffers.  ARMED: a panic or an oops
 * dumps.  RUNNING: a dump runs.  DONE: dumped once for this trace.
 * FREEING: the buffers are being freed, no dump.
 */
enum { MT_DUMP_ARMED, MT_DUMP_RUNNING, MT_DUMP_DONE, MT_DUMP_FREEING };
extern atomic_t mt_dump_state;

bool mt_dump_claim(void);
void mt_dump_finish(void);
bool mt_dump_dumped(void);
void mt_dump_wait(void);
int mt_dump_hold(void);
void mt_dump_release(void);

#endif /* _KERNEL_MIGRATE_TRACE_LITE_READERS_H */
