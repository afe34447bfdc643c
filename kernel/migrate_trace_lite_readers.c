// SPDX-License-Identifier: GPL-2.0
/*
 * How the migration trace's readers meet its writers and its control.
 *
 * The consuming reader (trace_pipe) sleeps on mt_reader_wq.  A writer
 * that starts a chunk wakes it at once through an irq_work; a name or a
 * mark arms a timer that wakes it MT_READER_NUDGE_JIFFIES later, once for
 * all that come meanwhile, because a reader on an idle CPU costs that CPU
 * an IPI per wakeup.  The dump on oops claims the buffers with
 * mt_dump_state, which a reset holds while it frees them.
 */

#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/lockdep.h>
#include <linux/timer.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_readers.h"

/* How soon a name or a mark wakes a blocked reader. */
#define MT_READER_NUDGE_JIFFIES	max(1, HZ / 50)
/* How long a reset waits for a dump in progress. */
#define MT_DUMP_WAIT_MSEC	10000

/* What trace_pipe's file does at a reset. */
static void (*mt_reader_reset_fn)(struct mt_readers *rd);

atomic_t mt_dump_state;
static bool mt_dump_stuck;		/* a dump outlasted a whole wait */

static void mt_reader_irq_workfn(struct irq_work *work)
{
	struct mt_readers *rd = container_of(work, struct mt_readers, irq_work);

	wake_up_interruptible_all(&rd->wq);
}

static void mt_reader_nudge_timer_fn(struct timer_list *t)
{
	struct mt_readers *rd = from_timer(rd, t, nudge_timer);

	clear_bit(0, &rd->nudging);
	if (atomic_xchg(&rd->waiting, 0))
		wake_up_interruptible_all(&rd->wq);
}

/* A poller that found nothing looks again. */
static void mt_reader_poll_timer_fn(struct timer_list *t)
{
	struct mt_readers *rd = from_timer(rd, t, pipe_timer);

	wake_up_interruptible_all(&rd->wq);
}

/* A name or a mark: wake the reader once for all that come meanwhile. */
static void mt_reader_nudge_workfn(struct irq_work *work)
{
	struct mt_readers *rd = container_of(work, struct mt_readers, nudge_work);

	mod_timer(&rd->nudge_timer, jiffies + MT_READER_NUDGE_JIFFIES);
}

/**
 * mt_readers_init() - set up a trace's readers
 * @rd: the readers, zeroed
 */
void mt_readers_init(struct mt_readers *rd)
{
	init_waitqueue_head(&rd->wq);
	mutex_init(&rd->lock);
	mutex_init(&rd->pipe_read_lock);
	init_irq_work(&rd->irq_work, mt_reader_irq_workfn);
	init_irq_work(&rd->nudge_work, mt_reader_nudge_workfn);
	timer_setup(&rd->nudge_timer, mt_reader_nudge_timer_fn, 0);
	timer_setup(&rd->pipe_timer, mt_reader_poll_timer_fn, 0);
}

/**
 * mt_readers_exit() - a trace goes: nothing of its readers runs after this
 * @rd: the readers, with no writer or reader left
 *
 * Context: process context; sleeps.
 */
void mt_readers_exit(struct mt_readers *rd)
{
	irq_work_sync(&rd->irq_work);
	irq_work_sync(&rd->nudge_work);
	timer_shutdown_sync(&rd->nudge_timer);
	timer_shutdown_sync(&rd->pipe_timer);
	mutex_destroy(&rd->pipe_read_lock);
	mutex_destroy(&rd->lock);
}

/**
 * mt_reader_kick_waiting() - wake the waiting consuming reader
 * @rd: the trace's readers
 * @now: at once, or through the nudge timer
 *
 * Context: any; mt_reader_kick() calls it when the reader waits.
 */
void mt_reader_kick_waiting(struct mt_readers *rd, bool now)
{
	if (!now) {
		if (!test_and_set_bit(0, &rd->nudging))
			irq_work_queue(&rd->nudge_work);
	} else if (atomic_xchg(&rd->waiting, 0)) {
		irq_work_queue(&rd->irq_work);
	}
}

/**
 * mt_reader_wake() - the trace started, stopped or filled up: look again
 * @rd: the trace's readers
 *
 * Context: process context, or the irq_work of a full buffer.
 */
void mt_reader_wake(struct mt_readers *rd)
{
	wake_up_interruptible_all(&rd->wq);
}

/**
 * mt_reader_set_waiting() - the reader looks at the rings after this
 * @rd: the trace's readers
 *
 * A writer that commits after it kicks the reader; one that committed
 * before is seen by the reader's look.
 */
void mt_reader_set_waiting(struct mt_readers *rd)
{
	atomic_set(&rd->waiting, 1);
	/* Pairs with mt_reader_kick(): the flag is seen, or the commit is. */
	smp_mb();
}

/**
 * mt_reader_busy() - whether trace_pipe is open
 * @rd: the trace's readers
 *
 * While it is open, opening the trace file and a reset fail with -EBUSY.
 *
 * Context: under mt_mutex.
 * Return: true while it is open.
 */
bool mt_reader_busy(struct mt_readers *rd)
{
	lockdep_assert_held(&mt_mutex);
	return rd->open;
}

/**
 * mt_reader_clamped() - trace_pipe's lines handed out late
 * @rd: the trace's readers
 *
 * Return: the lines it handed out at the time of the line before them,
 * since the reset.
 */
u64 mt_reader_clamped(struct mt_readers *rd)
{
	return READ_ONCE(rd->clamps);
}

/**
 * mt_reader_set_reset() - name what a reset does to the consuming reader
 * @reset: frees its state, so that the next reader starts a new stream
 *
 * Context: init.
 */
void mt_reader_set_reset(void (*reset)(struct mt_readers *rd))
{
	mt_reader_reset_fn = reset;
}

/**
 * mt_reader_reset() - a reset: the next reader starts a new stream
 * @rd: the trace's readers
 *
 * Context: under mt_mutex, with trace_pipe closed.
 */
void mt_reader_reset(struct mt_readers *rd)
{
	mutex_lock(&rd->lock);
	if (mt_reader_reset_fn)
		mt_reader_reset_fn(rd);
	WRITE_ONCE(rd->clamps, 0);
	mutex_unlock(&rd->lock);
}

/**
 * mt_dump_claim() - let one dump on oops run
 *
 * Return: true if the dump is armed and this caller now runs it.
 */
bool mt_dump_claim(void)
{
	int armed = MT_DUMP_ARMED;

	return atomic_try_cmpxchg(&mt_dump_state, &armed, MT_DUMP_RUNNING);
}

/**
 * mt_dump_finish() - the dump that mt_dump_claim() let run is done
 */
void mt_dump_finish(void)
{
	atomic_set(&mt_dump_state, MT_DUMP_DONE);
}

/**
 * mt_dump_dumped() - whether a dump ran or runs since the trace was armed
 *
 * Return: true if so; the trace's buffers then stay as they were.
 */
bool mt_dump_dumped(void)
{
	int state = atomic_read(&mt_dump_state);

	return state == MT_DUMP_RUNNING || state == MT_DUMP_DONE;
}

/**
 * mt_dump_wait() - wait, with no lock held, until no dump runs
 *
 * The wait is bounded: a dump that a second oops killed never finishes,
 * and one printing to a slow console may take long.  A dump that outlasted
 * one wait is not waited for again; mt_dump_hold() then keeps its buffers.
 *
 * Context: process context; sleeps.
 */
void mt_dump_wait(void)
{
	unsigned long until = jiffies + msecs_to_jiffies(MT_DUMP_WAIT_MSEC);

	while (atomic_read(&mt_dump_state) == MT_DUMP_RUNNING) {
		if (READ_ONCE(mt_dump_stuck) || time_after(jiffies, until)) {
			WRITE_ONCE(mt_dump_stuck, true);
			return;
		}
		msleep(20);
	}
	WRITE_ONCE(mt_dump_stuck, false);
}

/**
 * mt_dump_hold() - keep later dumps out: the buffers are about to be freed
 *
 * Never sleeps, so that a dump in progress freezes no control file
 * (callers wait in mt_dump_wait() first).
 *
 * Context: under mt_mutex.
 * Return: 0, or -EBUSY if a dump still runs.
 */
int mt_dump_hold(void)
{
	int old = atomic_read(&mt_dump_state);

	do {
		if (old == MT_DUMP_RUNNING)
			return -EBUSY;
	} while (!atomic_try_cmpxchg(&mt_dump_state, &old, MT_DUMP_FREEING));
	return 0;
}

/**
 * mt_dump_release() - arm the dump again
 *
 * After the buffers are freed, or when a trace starts.
 */
void mt_dump_release(void)
{
	int old = atomic_read(&mt_dump_state);

	if (old == MT_DUMP_DONE || old == MT_DUMP_FREEING)
		atomic_cmpxchg(&mt_dump_state, old, MT_DUMP_ARMED);
}
