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
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/wait.h>

#include "migrate_trace_lite_ring.h"

/* How a trace's readers meet its writers; one per trace. */
struct mt_readers {
	/* The consuming reader's wait queue, and whether it waits for a kick. */
	struct wait_queue_head wq;
	atomic_t waiting;
	/* Guards the consuming reader's state and the rings' reader fields. */
	struct mutex lock;
	/* trace_pipe is open (under mt_mutex). */
	bool open;
	/* Lines it handed out at the time of the line before them (clamped). */
	unsigned long clamps;
	/*
	 * trace_pipe's state, which its file (migrate_trace_lite_pipe.c)
	 * owns, until a reset: private to that layer above this one.
	 */
	void *pipe;
	/* Serializes trace_pipe's read(); guards the text not yet copied out. */
	struct mutex pipe_read_lock;
	/* Wakes a poller of trace_pipe that found nothing, to look again. */
	struct timer_list pipe_timer;
	/* A writer's wakeup, now or (a name, a mark) a moment later. */
	struct irq_work irq_work;
	struct irq_work nudge_work;
	struct timer_list nudge_timer;
	unsigned long nudging;
};

void mt_readers_init(struct mt_readers *rd);
void mt_readers_exit(struct mt_readers *rd);
void mt_reader_kick_waiting(struct mt_readers *rd, bool now);
void mt_reader_wake(struct mt_readers *rd);
void mt_reader_set_waiting(struct mt_readers *rd);
bool mt_reader_busy(struct mt_readers *rd);
u64 mt_reader_clamped(struct mt_readers *rd);
void mt_reader_set_reset(void (*reset)(struct mt_readers *rd));
void mt_reader_reset(struct mt_readers *rd);

/**
 * mt_reader_kick() - wake a waiting consuming reader after a commit
 * @rd: the trace's readers
 * @now: at once (a new chunk), or within MT_READER_NUDGE_JIFFIES (a name
 *	 or a mark)
 */
static inline void mt_reader_kick(struct mt_readers *rd, bool now)
{
	/* Pairs with mt_reader_set_waiting(): it sees the commit, or this it. */
	smp_mb();
	if (unlikely(atomic_read(&rd->waiting)))
		mt_reader_kick_waiting(rd, now);
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
