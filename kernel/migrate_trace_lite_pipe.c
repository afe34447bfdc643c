// SPDX-License-Identifier: GPL-2.0
/*
 * migration_trace/trace_pipe: the file of the consuming reader.
 *
 * One reader at a time.  Its state outlives the open file, so that the
 * next reader continues where the last one left; a reset frees it.
 * mt_pipe_read_lock serializes read() and guards the text not yet copied
 * out, and is held across the copy to the user; mt_reader_lock guards the
 * rest only while the rings are looked at, so that migration_trace/stats
 * never waits for a user's page fault.  A blocked reader holds neither.
 *
 * Writers wake the reader for a new chunk, a name or a mark
 * (migrate_trace_lite_readers.c).  A migration within a chunk does not,
 * to keep the hook short: a blocked read() sleeps MT_PIPE_POLL_JIFFIES at
 * most, and a timer wakes pollers as often.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_pipe.h"

/* How long a blocked reader sleeps at most before it looks again. */
#define MT_PIPE_POLL_JIFFIES	max(1, HZ / 10)
/* How soon a reader that holds records back looks again. */
#define MT_PIPE_RETRY_USEC	50

/* A poller that found nothing looks again after MT_PIPE_POLL_JIFFIES. */
static void mt_pipe_timer_fn(struct timer_list *unused)
{
	wake_up_interruptible_all(&mt_reader_wq);
}

static DEFINE_TIMER(mt_pipe_timer, mt_pipe_timer_fn);

/* Serializes read(); guards the text not yet copied out. */
static DEFINE_MUTEX(mt_pipe_read_lock);

/* The reader's state: allocated by an open, kept until a reset. */
static struct mt_pipe *mt_pipe;

/*
 * As mt_pipe_state_locked(); a reader busy on another thread: soon, as
 * the kick that woke this one is spent.
 */
static enum mt_pipe_state mt_pipe_state(struct mt_pipe *pipe)
{
	enum mt_pipe_state state;

	if (!mutex_trylock(&mt_reader_lock))
		return MT_PIPE_SOON;
	state = mt_pipe_state_locked(pipe);
	mutex_unlock(&mt_reader_lock);
	return state;
}

/*
 * Sleep until a writer kicks, the trace stops, or the poll's timeout;
 * records held back for a moment, a short sleep.  With no lock held.
 */
static int mt_pipe_wait(struct mt_pipe *pipe, enum mt_pipe_state state)
{
	long ret;

	if (state == MT_PIPE_SOON) {
		usleep_range(MT_PIPE_RETRY_USEC, 2 * MT_PIPE_RETRY_USEC);
		return signal_pending(current) ? -ERESTARTSYS : 0;
	}
	mt_reader_set_waiting();
	ret = wait_event_interruptible_timeout(mt_reader_wq,
					       mt_pipe_state(pipe) != MT_PIPE_IDLE,
					       MT_PIPE_POLL_JIFFIES);
	return ret < 0 ? ret : 0;
}

/*
 * Format what may be handed out now, at most @room bytes; with
 * mt_pipe_read_lock held and the text all copied out.  *@state: what a
 * wait should expect when nothing was.  Return: 0 or a negative errno.
 */
static int mt_pipe_refill(struct mt_pipe *pipe, size_t room, bool *eof,
			  enum mt_pipe_state *state)
{
	int ret;

	mutex_lock(&mt_reader_lock);
	ret = mt_pipe_fill(pipe, room);
	*eof = !ret && !pipe->out_len && mt_pipe_eof(pipe);
	*state = mt_pipe_state_locked(pipe);
	mutex_unlock(&mt_reader_lock);
	return ret;
}

/**
 * mt_pipe_read_iter() - hand out what trace_pipe has, into @to
 * @to: the reader's buffer
 * @nonblock: return -EAGAIN instead of waiting for a first byte
 *
 * Both read() and the KUnit tests read through this.
 *
 * Context: process context, as the one reader (mt_pipe_get()).
 * Return: the bytes handed out, 0 at the end of a stopped trace, or a
 * negative errno.
 */
VISIBLE_IF_KUNIT ssize_t mt_pipe_read_iter(struct iov_iter *to, bool nonblock)
{
	struct mt_pipe *pipe = mt_pipe;
	enum mt_pipe_state state;
	ssize_t done = 0;
	bool eof;
	int ret = 0;

	if (!iov_iter_count(to))
		return 0;
	if (mutex_lock_interruptible(&mt_pipe_read_lock))
		return -ERESTARTSYS;
	while (iov_iter_count(to)) {
		size_t n = min(iov_iter_count(to), pipe->out_len - pipe->out_pos);

		if (n) {
			/* Without mt_reader_lock: a fault stalls no control file. */
			size_t copied = copy_to_iter(pipe->out + pipe->out_pos, n, to);

			WRITE_ONCE(pipe->out_pos, pipe->out_pos + copied);
			done += copied;
			if (copied != n) {
				ret = -EFAULT;
				break;
			}
			continue;
		}
		/*
		 * A large read of a long backlog formats buffer after buffer:
		 * let others run, and let a signal end it with what it has.
		 */
		if (done && signal_pending(current))
			break;
		cond_resched();
		ret = mt_pipe_refill(pipe, iov_iter_count(to), &eof, &state);
		if (ret)
			break;
		if (pipe->out_len)
			continue;
		if (done || eof)
			break;
		if (nonblock) {
			ret = -EAGAIN;
			break;
		}
		/* Nothing handed out yet (done is 0): sleep without the lock. */
		mutex_unlock(&mt_pipe_read_lock);
		ret = mt_pipe_wait(pipe, state);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&mt_pipe_read_lock))
			return -ERESTARTSYS;
	}
	mutex_unlock(&mt_pipe_read_lock);
	return done ? done : ret;
}

static ssize_t mt_pipe_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct iov_iter to;

	iov_iter_ubuf(&to, ITER_DEST, ubuf, count);
	return mt_pipe_read_iter(&to, file->f_flags & O_NONBLOCK);
}

static __poll_t mt_pipe_poll(struct file *file, poll_table *wait)
{
	struct mt_pipe *pipe = mt_pipe;
	__poll_t mask = 0;

	enum mt_pipe_state state = MT_PIPE_IDLE;

	poll_wait(file, &mt_reader_wq, wait);
	mt_reader_set_waiting();
	if (mutex_trylock(&mt_reader_lock)) {
		state = mt_pipe_state_locked(pipe);
		if (state == MT_PIPE_READY || mt_pipe_eof(pipe))
			mask = EPOLLIN | EPOLLRDNORM;
		mutex_unlock(&mt_reader_lock);
	}
	/* A migration within a chunk, a held back head: look again. */
	if (!mask)
		mod_timer(&mt_pipe_timer, jiffies + (state == MT_PIPE_SOON ? 1 :
						     MT_PIPE_POLL_JIFFIES));
	return mask;
}

static void mt_pipe_free(struct mt_pipe *pipe)
{
	if (!pipe)
		return;
	kvfree(pipe->buf);
	kvfree(pipe->clock_cpus);
	kvfree(pipe->heap_data);
	kvfree(pipe->cpus);
	kfree(pipe);
}

static struct mt_pipe *mt_pipe_alloc(void)
{
	struct mt_pipe *pipe;

	pipe = kzalloc(sizeof(*pipe), MT_GFP);
	if (!pipe)
		return NULL;
	/* Room for the records of a read, or the header. */
	pipe->buf_size = max_t(size_t, MT_PIPE_BUF, mt_header_max());
	pipe->buf = kvmalloc(pipe->buf_size, MT_GFP);
	pipe->clock_cpus = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	pipe->heap_data = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	pipe->cpus = kvcalloc(nr_cpu_ids, sizeof(*pipe->cpus), MT_GFP);
	if (!pipe->buf || !pipe->clock_cpus || !pipe->heap_data ||
	    !pipe->cpus) {
		mt_pipe_free(pipe);
		return NULL;
	}
	pipe->out = pipe->buf;
	min_heap_init(&pipe->heap, pipe->heap_data, nr_cpu_ids);
	return pipe;
}

/* A reset: the next reader starts a new stream (mt_reader_reset()). */
static void mt_pipe_forget(void)
{
	mt_pipe_free(mt_pipe);
	mt_pipe = NULL;
}

/**
 * mt_pipe_get() - become the one reader of trace_pipe
 *
 * The first reader allocates the reader's state; the next ones keep it.
 *
 * Context: process context; takes mt_mutex.
 * Return: 0, -EBUSY if trace_pipe or the trace file is open, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_pipe_get(void)
{
	int ret = 0;

	mutex_lock(&mt_mutex);
	if (mt_reader_open || mt_trace_readers) {
		ret = -EBUSY;
	} else if (!mt_pipe) {
		/* Published to read() by the open itself. */
		mt_pipe = mt_pipe_alloc();
		if (!mt_pipe)
			ret = -ENOMEM;
	}
	if (!ret)
		mt_reader_open = true;
	mutex_unlock(&mt_mutex);
	return ret;
}

/**
 * mt_pipe_put() - stop being the reader of trace_pipe
 *
 * Its state stays for the next reader, until a reset.
 *
 * Context: process context; takes mt_mutex.
 */
VISIBLE_IF_KUNIT void mt_pipe_put(void)
{
	/* No reader waits now: writers stop nudging. */
	atomic_set(&mt_reader_waiting, 0);
	timer_delete_sync(&mt_pipe_timer);
	mutex_lock(&mt_mutex);
	mt_reader_open = false;
	mutex_unlock(&mt_mutex);
}

static int mt_pipe_open_file(struct inode *inode, struct file *file)
{
	int ret = mt_pipe_get();

	return ret ? ret : nonseekable_open(inode, file);
}

static int mt_pipe_release(struct inode *inode, struct file *file)
{
	mt_pipe_put();
	return 0;
}

static const struct file_operations mt_pipe_fops = {
	.open		= mt_pipe_open_file,
	.read		= mt_pipe_read,
	.poll		= mt_pipe_poll,
	.release	= mt_pipe_release,
};

/**
 * mt_pipe_init() - create migration_trace/trace_pipe
 * @dir: debugfs migration_trace/
 */
void __init mt_pipe_init(struct dentry *dir)
{
	mt_reader_set_reset(mt_pipe_forget);
	debugfs_create_file("trace_pipe", 0400, dir, NULL, &mt_pipe_fops);
}
