// SPDX-License-Identifier: GPL-2.0
/*
 * migration_trace/trace_pipe: the file of the consuming reader.
 *
 * One reader at a time per trace.  Its state outlives the open file, so
 * that the next reader continues where the last one left; a reset frees
 * it.  The readers' pipe_read_lock serializes read() and guards the text
 * not yet copied out, and is held across the copy to the user; their lock
 * guards the rest only while the rings are looked at, so that the stats
 * file never waits for a user's page fault.  A blocked reader holds
 * neither.
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

/*
 * As mt_pipe_state_locked(); a reader busy on another thread: soon, as
 * the kick that woke this one is spent.
 */
static enum mt_pipe_state mt_pipe_state(struct mt_pipe *pipe)
{
	struct mt_readers *rd = &pipe->tr->rd;
	enum mt_pipe_state state;

	if (!mutex_trylock(&rd->lock))
		return MT_PIPE_SOON;
	state = mt_pipe_state_locked(pipe);
	mutex_unlock(&rd->lock);
	return state;
}

/*
 * Sleep until a writer kicks, the trace stops, or the poll's timeout;
 * records held back for a moment, a short sleep.  With no lock held.
 */
static int mt_pipe_wait(struct mt_pipe *pipe, enum mt_pipe_state state)
{
	struct mt_readers *rd = &pipe->tr->rd;
	long ret;

	if (state == MT_PIPE_SOON) {
		usleep_range(MT_PIPE_RETRY_USEC, 2 * MT_PIPE_RETRY_USEC);
		return signal_pending(current) ? -ERESTARTSYS : 0;
	}
	mt_reader_set_waiting(rd);
	ret = wait_event_interruptible_timeout(rd->wq,
					       mt_pipe_state(pipe) != MT_PIPE_IDLE,
					       MT_PIPE_POLL_JIFFIES);
	return ret < 0 ? ret : 0;
}

/*
 * Format what may be handed out now, at most @room bytes; with the
 * readers' pipe_read_lock held and the text all copied out.  *@state: what a
 * wait should expect when nothing was.  Return: 0 or a negative errno.
 */
static int mt_pipe_refill(struct mt_pipe *pipe, size_t room, bool *eof,
			  enum mt_pipe_state *state)
{
	struct mt_readers *rd = &pipe->tr->rd;
	int ret;

	mutex_lock(&rd->lock);
	ret = mt_pipe_fill(pipe, room);
	*eof = !ret && !pipe->out_len && mt_pipe_eof(pipe);
	*state = mt_pipe_state_locked(pipe);
	mutex_unlock(&rd->lock);
	return ret;
}

/**
 * mt_pipe_read_iter() - hand out what trace_pipe has, into @to
 * @tr: the trace
 * @to: the reader's buffer
 * @nonblock: return -EAGAIN instead of waiting for a first byte
 *
 * Both read() and the KUnit tests read through this.
 *
 * Context: process context, as the one reader (mt_pipe_get()).
 * Return: the bytes handed out, 0 at the end of a stopped trace, or a
 * negative errno.
 */
VISIBLE_IF_KUNIT ssize_t mt_pipe_read_iter(struct mt_trace *tr,
					   struct iov_iter *to, bool nonblock)
{
	struct mutex *read_lock = &tr->rd.pipe_read_lock;
	struct mt_pipe *pipe = tr->rd.pipe;
	enum mt_pipe_state state;
	ssize_t done = 0;
	bool eof;
	int ret = 0;

	if (!iov_iter_count(to))
		return 0;
	if (mutex_lock_interruptible(read_lock))
		return -ERESTARTSYS;
	while (iov_iter_count(to)) {
		size_t n = min(iov_iter_count(to), pipe->out_len - pipe->out_pos);

		if (n) {
			/* Without the readers' lock: a fault stalls no control file. */
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
		mutex_unlock(read_lock);
		ret = mt_pipe_wait(pipe, state);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(read_lock))
			return -ERESTARTSYS;
	}
	mutex_unlock(read_lock);
	return done ? done : ret;
}

static ssize_t mt_pipe_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct iov_iter to;

	iov_iter_ubuf(&to, ITER_DEST, ubuf, count);
	return mt_pipe_read_iter(file_inode(file)->i_private, &to,
				 file->f_flags & O_NONBLOCK);
}

static __poll_t mt_pipe_poll(struct file *file, poll_table *wait)
{
	struct mt_trace *tr = file_inode(file)->i_private;
	enum mt_pipe_state state = MT_PIPE_IDLE;
	struct mt_pipe *pipe = tr->rd.pipe;
	__poll_t mask = 0;

	poll_wait(file, &tr->rd.wq, wait);
	mt_reader_set_waiting(&tr->rd);
	if (mutex_trylock(&tr->rd.lock)) {
		state = mt_pipe_state_locked(pipe);
		if (state == MT_PIPE_READY || mt_pipe_eof(pipe))
			mask = EPOLLIN | EPOLLRDNORM;
		mutex_unlock(&tr->rd.lock);
	}
	/* A migration within a chunk, a held back head: look again. */
	if (!mask)
		mod_timer(&tr->rd.pipe_timer,
			  jiffies + (state == MT_PIPE_SOON ? 1 : MT_PIPE_POLL_JIFFIES));
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

static struct mt_pipe *mt_pipe_alloc(struct mt_trace *tr)
{
	struct mt_pipe *pipe;

	pipe = kzalloc(sizeof(*pipe), MT_GFP);
	if (!pipe)
		return NULL;
	pipe->tr = tr;
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
static void mt_pipe_forget(struct mt_readers *rd)
{
	mt_pipe_free(rd->pipe);
	rd->pipe = NULL;
}

/**
 * mt_pipe_get() - become the one reader of a trace's trace_pipe
 * @tr: the trace
 *
 * The first reader allocates the reader's state; the next ones keep it.
 *
 * Context: process context; takes mt_mutex.
 * Return: 0, -EBUSY if trace_pipe or the trace file is open, -ENODEV if
 * rmdir removes the instance, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_pipe_get(struct mt_trace *tr)
{
	int ret;

	mutex_lock(&mt_mutex);
	ret = mt_trace_file_get_locked(tr);
	if (!ret && (tr->rd.open || tr->trace_readers)) {
		ret = -EBUSY;
	} else if (!ret && !tr->rd.pipe) {
		/* Published to read() by the open itself. */
		tr->rd.pipe = mt_pipe_alloc(tr);
		if (!tr->rd.pipe)
			ret = -ENOMEM;
	}
	if (!ret)
		tr->rd.open = true;
	else if (ret != -ENODEV)
		mt_trace_file_put_locked(tr);
	mutex_unlock(&mt_mutex);
	return ret;
}

/**
 * mt_pipe_put() - stop being the reader of a trace's trace_pipe
 * @tr: the trace
 *
 * Its state stays for the next reader, until a reset.
 *
 * Context: process context; takes mt_mutex.
 */
VISIBLE_IF_KUNIT void mt_pipe_put(struct mt_trace *tr)
{
	/* No reader waits now: writers stop nudging. */
	atomic_set(&tr->rd.waiting, 0);
	timer_delete_sync(&tr->rd.pipe_timer);
	mutex_lock(&mt_mutex);
	tr->rd.open = false;
	mt_trace_file_put_locked(tr);
	mutex_unlock(&mt_mutex);
}

static int mt_pipe_open_file(struct inode *inode, struct file *file)
{
	int ret = mt_pipe_get(inode->i_private);

	return ret ? ret : nonseekable_open(inode, file);
}

static int mt_pipe_release(struct inode *inode, struct file *file)
{
	mt_pipe_put(inode->i_private);
	return 0;
}

static const struct file_operations mt_pipe_fops = {
	.open		= mt_pipe_open_file,
	.read		= mt_pipe_read,
	.poll		= mt_pipe_poll,
	.release	= mt_pipe_release,
};

/**
 * mt_pipe_setup() - name what a reset does to every trace's trace_pipe
 */
void __init mt_pipe_setup(void)
{
	mt_reader_set_reset(mt_pipe_forget);
}

/**
 * mt_pipe_init() - create a trace's trace_pipe
 * @tr: the trace
 * @dir: its debugfs directory
 */
void mt_pipe_init(struct mt_trace *tr, struct dentry *dir)
{
	debugfs_create_file("trace_pipe", 0400, dir, tr, &mt_pipe_fops);
}
