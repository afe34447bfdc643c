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

DECLARE_WAIT_QUEUE_HEAD(mt_reader_wq);
atomic_t mt_reader_waiting;
/* Guards the consuming reader's state and the rings' reader fields. */
DEFINE_MUTEX(mt_reader_lock);
bool mt_reader_open;
unsigned long mt_reader_clamps;
static void (*mt_reader_reset_fn)(void);

atomic_t mt_dump_state;
static bool mt_dump_stuck;		/* a dump outlasted a whole wait */

static void mt_reader_irq_workfn(struct irq_work *work)
{
	wake_up_interruptible_all(&mt_reader_wq);
}

static DEFINE_IRQ_WORK(mt_reader_irq_work, mt_reader_irq_workfn);

/* Set from a name's or a mark's nudge until its timer has run. */
static unsigned long mt_reader_nudging;

static void mt_reader_nudge_timer_fn(struct timer_list *unused)
{
	clear_bit(0, &mt_reader_nudging);
	if (atomic_xchg(&mt_reader_waiting, 0))
		wake_up_interruptible_all(&mt_reader_wq);
}

static DEFINE_TIMER(mt_reader_nudge_timer, mt_reader_nudge_timer_fn);

/* A name or a mark: wake the reader once for all that come meanwhile. */
static void mt_reader_nudge_workfn(struct irq_work *work)
{
	mod_timer(&mt_reader_nudge_timer, jiffies + MT_READER_NUDGE_JIFFIES);
}

static DEFINE_IRQ_WORK(mt_reader_nudge_work, mt_reader_nudge_workfn);

/**
 * mt_reader_kick_waiting() - wake the waiting consuming reader
 * @now: at once, or through the nudge timer
 *
 * Context: any; mt_reader_kick() calls it when the reader waits.
 */
void mt_reader_kick_waiting(bool now)
{
	if (!now) {
		if (!test_and_set_bit(0, &mt_reader_nudging))
			irq_work_queue(&mt_reader_nudge_work);
	} else if (atomic_xchg(&mt_reader_waiting, 0)) {
		irq_work_queue(&mt_reader_irq_work);
	}
}

/**
 * mt_reader_wake() - the trace started, stopped or filled up: look again
 *
 * Context: process context, or the irq_work of a full buffer.
 */
void mt_reader_wake(void)
{
	wake_up_interruptible_all(&mt_reader_wq);
}

/**
 * mt_reader_set_waiting() - the reader looks at the rings after this
 *
 * A writer that commits after it kicks the reader; one that committed
 * before is seen by the reader's look.
 */
void mt_reader_set_waiting(void)
{
	atomic_set(&mt_reader_waiting, 1);
	/* Pairs with mt_reader_kick(): the flag is seen, or the commit is. */
	smp_mb();
}

/**
 * mt_reader_busy() - whether trace_pipe is open
 *
 * While it is open, opening the trace file and a reset fail with -EBUSY.
 *
 * Context: under mt_mutex.
 * Return: true while it is open.
 */
bool mt_reader_busy(void)
{
	lockdep_assert_held(&mt_mutex);
	return mt_reader_open;
}

/**
 * mt_reader_clamped() - trace_pipe's lines handed out late
 *
 * Return: the lines it handed out at the time of the line before them,
 * since the reset.
 */
u64 mt_reader_clamped(void)
{
	return READ_ONCE(mt_reader_clamps);
}

/**
 * mt_reader_set_reset() - name what a reset does to the consuming reader
 * @reset: frees its state, so that the next reader starts a new stream
 *
 * Context: init.
 */
void mt_reader_set_reset(void (*reset)(void))
{
	mt_reader_reset_fn = reset;
}

/**
 * mt_reader_reset() - a reset: the next reader starts a new stream
 *
 * Context: under mt_mutex, with trace_pipe closed.
 */
void mt_reader_reset(void)
{
	mutex_lock(&mt_reader_lock);
	if (mt_reader_reset_fn)
		mt_reader_reset_fn();
	WRITE_ONCE(mt_reader_clamps, 0);
	mutex_unlock(&mt_reader_lock);
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
