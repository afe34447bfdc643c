// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's control files (enable, mark, reset, overwrite,
 * buffer_size_kb, filter, set_event_pid, event_fork, stats), in
 * migration_trace/ for the top trace and in each instance's directory,
 * and its kernel API, mt_trace_enable() and mt_trace_mark(), which
 * control the top trace.
 *
 * Every file counts its opens in its trace (mt_trace_file_get()), so
 * that rmdir refuses an instance whose file is open: a release may come
 * after debugfs removed the file.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_control.h"

/* The smallest buffer: two chunks with room for a name and a time record. */
#define MT_MIN_BUF_KB	1UL
#define MT_MAX_BUF_KB	1048576UL

/**
 * mt_tr_enable() - start or stop a trace
 * @tr: the trace
 * @enable: true to start tracing, false to stop it
 * @allow_restart: if false, refuse to start again before a reset
 *
 * As mt_trace_enable(), for the top trace or an instance.
 *
 * Context: process context; may sleep.
 * Return: as mt_trace_enable().
 */
static int mt_tr_enable(struct mt_trace *tr, bool enable, bool allow_restart)
{
	int ret = 0;

	/* Before core_initcall (mt_top_init()): no trace is set up yet. */
	if (!READ_ONCE(tr->buf.rings))
		return -ENODEV;
	/* A start may free buffers a dump reads: wait for it unlocked. */
	if (enable && tr->dumps)
		mt_dump_wait();
	mutex_lock(&mt_mutex);
	if (enable)
		ret = mt_start_locked(tr, allow_restart);
	else
		mt_stop_locked(tr);
	mutex_unlock(&mt_mutex);
	return ret;
}

/**
 * mt_trace_enable() - start or stop the migration trace
 * @enable: true to start tracing, false to stop it
 * @allow_restart: if false, refuse to start again before a reset
 *
 * The analysis tools assume one continuous trace, so by default a trace
 * that was stopped must be read and reset before the next one starts.
 * With @allow_restart a stopped trace is continued instead, unless its
 * buffer already filled up; tasks created while it was stopped have no
 * name in it.  Starting a running trace and stopping a stopped one
 * succeed and change nothing.  The first start after a reset allocates
 * the buffers, unless buffer_size_kb was written since (which allocates
 * them then, so that the start is light).
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EBUSY if a trace ran since the reset (and
 * @allow_restart is false) or the trace file is open, -ENOSPC if a
 * restarted trace would have no room, -ENOMEM if the buffers cannot be
 * allocated.
 */
int mt_trace_enable(bool enable, bool allow_restart)
{
	return mt_tr_enable(&mt_top, enable, allow_restart);
}
EXPORT_SYMBOL_GPL(mt_trace_enable);

/**
 * mt_trace_mark() - add a mark event to the migration trace
 * @mark: an arbitrary value, shown in hex in the trace
 *
 * Analysis tools can cut a trace at the first occurrence of a mark, so a
 * value meant for that should be unique.  Nothing is recorded while the
 * trace is stopped, or when called from NMI.
 *
 * Context: Any context; ignored in NMI.
 */
void mt_trace_mark(unsigned long mark)
{
	mt_log_mark(&mt_top, mark);
}
EXPORT_SYMBOL_GPL(mt_trace_mark);

/* The trace a file belongs to. */
static struct mt_trace *mt_file_trace(struct file *file)
{
	return file_inode(file)->i_private;
}

/* The open and release of a file with no state of its own. */
static int mt_file_open(struct inode *inode, struct file *file)
{
	return mt_trace_file_get(inode->i_private);
}

static int mt_file_release(struct inode *inode, struct file *file)
{
	mt_trace_file_put(inode->i_private);
	return 0;
}

static ssize_t mt_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos,
			     READ_ONCE(mt_file_trace(file)->tracing));
}

static ssize_t mt_enable_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (!ret)
		ret = mt_tr_enable(mt_file_trace(file), on, 0);
	return ret ? ret : count;
}

static const struct file_operations mt_enable_fops = {
	.open		= mt_file_open,
	.read		= mt_enable_read,
	.write		= mt_enable_write,
	.release	= mt_file_release,
	.llseek		= default_llseek,
};

static ssize_t mt_mark_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct mt_trace *tr = mt_file_trace(file);
	unsigned long val;
	int ret, cpu;

	ret = mt_parse_ulong(ubuf, count, true, &val);
	if (ret)
		return ret;
	/* A mark that cannot be recorded is an error, not a silent no-op. */
	ret = mt_log_mark(tr, val);
	if (ret == -EINVAL) {
		mutex_lock(&mt_mutex);
		for_each_possible_cpu(cpu)
			if (mt_ring_allocated(&tr->buf) &&
			    mt_ring_dropped(&tr->buf, cpu))
				ret = -ENOSPC;
		mutex_unlock(&mt_mutex);
	}
	return ret ? ret : count;
}

static const struct file_operations mt_mark_fops = {
	.open		= mt_file_open,
	.write		= mt_mark_write,
	.release	= mt_file_release,
	.llseek		= noop_llseek,
};

/**
 * mt_trace_reset() - reset a trace: free its buffers and names
 * @tr: the trace
 *
 * A dump on oops still reading the buffers is waited for without
 * mt_mutex: it may take seconds on a slow console, and every control
 * file needs the mutex.
 *
 * Context: process context; sleeps.
 * Return: 0, or -EBUSY if the trace file or trace_pipe is open, or a dump
 * still runs.
 */
VISIBLE_IF_KUNIT int mt_trace_reset(struct mt_trace *tr)
{
	int ret;

	if (tr->dumps)
		mt_dump_wait();
	mutex_lock(&mt_mutex);
	ret = mt_reset_locked(tr);
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	int ret = mt_parse_reset(ubuf, count);

	if (!ret)
		ret = mt_trace_reset(mt_file_trace(file));
	return ret ? ret : count;
}

static const struct file_operations mt_reset_fops = {
	.open		= mt_file_open,
	.write		= mt_reset_write,
	.release	= mt_file_release,
	.llseek		= noop_llseek,
};

/*
 * Settings of a trace (buffer_size_kb, filter, set_event_pid,
 * event_fork) change only while the buffers are empty: after a reset,
 * before the first start.  So a trace has one filter, which its header
 * states.  Overwrite is not one of them: see mt_trace_set_overwrite().
 */
static int mt_settable_locked(struct mt_trace *tr)
{
	return mt_trace_started(tr) || mt_reader_busy(&tr->rd) ||
	       tr->trace_readers ? -EBUSY : 0;
}

static ssize_t mt_overwrite_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos,
			     READ_ONCE(mt_file_trace(file)->buf.overwrite));
}

/**
 * mt_trace_set_overwrite() - switch the flight recorder on or off
 * @tr: the trace
 * @on: recycle the oldest chunk of a full ring (true), or stop the trace
 *
 * At any time, also while a trace runs or is read.  Each writer reads the
 * flag once as it moves to its next chunk, and does as it says then: with
 * it off, it takes the chunk only if the consuming reader released it,
 * else it drops the record and the trace stops; with it on, it recycles
 * the chunk.  The readers and the counts go by what the ring holds (the
 * chunks' seqs, the reader's place), not by the flag, so each record is
 * counted once: logged, then read, overwritten or left in the ring; or
 * dropped.  Switched off while a full flight recorder runs with no reader
 * keeping up, the trace stops at its next chunk switch, keeping the
 * newest records of before.
 *
 * Context: process context; takes mt_mutex.
 * Return: 0.
 */
VISIBLE_IF_KUNIT int mt_trace_set_overwrite(struct mt_trace *tr, bool on)
{
	/* The lock only orders it with the other control files. */
	mutex_lock(&mt_mutex);
	WRITE_ONCE(tr->buf.overwrite, on);
	mutex_unlock(&mt_mutex);
	return 0;
}

static ssize_t mt_overwrite_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (!ret)
		ret = mt_trace_set_overwrite(mt_file_trace(file), on);
	return ret ? ret : count;
}

static const struct file_operations mt_overwrite_fops = {
	.open		= mt_file_open,
	.read		= mt_overwrite_read,
	.write		= mt_overwrite_write,
	.release	= mt_file_release,
	.llseek		= default_llseek,
};

/**
 * mt_trace_set_size() - set the buffers' size and allocate them
 * @tr: the trace
 * @size_kb: each online CPU's buffer in KiB, in range
 *
 * After a reset, before the first start: the start then allocates
 * nothing (see mt_trace_resize_locked()).  A dump on oops still reading
 * the buffers is waited for without mt_mutex, as by mt_trace_reset().
 *
 * Context: process context; sleeps.
 * Return: 0; -EBUSY once a trace started since the reset, while the
 * trace is read, or while a dump reads the buffers; -ENOMEM if the
 * buffers cannot be allocated or would take more than 7/8 of the
 * available memory.  On failure the size and the buffers stay as they
 * were.
 */
VISIBLE_IF_KUNIT int mt_trace_set_size(struct mt_trace *tr, unsigned long size_kb)
{
	int ret;

	if (tr->dumps)
		mt_dump_wait();
	mutex_lock(&mt_mutex);
	ret = mt_settable_locked(tr);
	if (!ret)
		ret = mt_trace_resize_locked(tr, size_kb);
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_size_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos,
			     READ_ONCE(mt_file_trace(file)->buf_size_kb));
}

static ssize_t mt_size_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && (val < MT_MIN_BUF_KB || val > MT_MAX_BUF_KB))
		ret = -EINVAL;
	if (ret)
		return ret;
	ret = mt_trace_set_size(mt_file_trace(file), val);
	return ret ? ret : count;
}

static const struct file_operations mt_size_fops = {
	.open		= mt_file_open,
	.read		= mt_size_read,
	.write		= mt_size_write,
	.release	= mt_file_release,
	.llseek		= default_llseek,
};

/**
 * mt_trace_filter_write() - apply text written to a trace's filter
 * @tr: the trace
 * @text: the words (see migrate_trace_lite_filter.c); cut into them
 * @replace: the write replaces the filter rather than adding to it
 *
 * Context: process context; takes mt_mutex.
 * Return: 0; -EBUSY once a trace started since the reset, or while the
 * trace is read; or an error of mt_filter_parse(), the filter unchanged.
 */
VISIBLE_IF_KUNIT int mt_trace_filter_write(struct mt_trace *tr, char *text,
					   bool replace)
{
	struct mt_filter next;
	int ret;

	mutex_lock(&mt_mutex);
	ret = mt_settable_locked(tr);
	if (!ret) {
		next = tr->filter;
		ret = mt_filter_parse(&next, text, replace);
	}
	if (!ret)
		mt_trace_set_filter_locked(tr, &next);
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_filter_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct seq_buf s;
	ssize_t ret;
	char *buf;

	buf = kmalloc(MT_FILTER_TEXT_MAX + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, MT_FILTER_TEXT_MAX + 1);
	mutex_lock(&mt_mutex);
	mt_filter_show(&s, &mt_file_trace(file)->filter);
	mutex_unlock(&mt_mutex);
	seq_buf_putc(&s, '\n');
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, seq_buf_used(&s));
	kfree(buf);
	return ret;
}

/*
 * An open without O_APPEND (">") replaces the filter with its first
 * write that succeeds; later writes, and those of an O_APPEND open
 * (">>"), change it as it is.  A bad name leaves it as it was.  Each
 * write() holds whole words.
 */
static int mt_filter_open(struct inode *inode, struct file *file)
{
	file->private_data = (void *)(unsigned long)!(file->f_flags & O_APPEND);
	return mt_trace_file_get(inode->i_private);
}

static ssize_t mt_filter_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	bool replace = file->private_data;
	char *text;
	int ret;

	if (!count || count >= MT_FILTER_TEXT_MAX)
		return -EINVAL;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = strlen(text) == count ?
	      mt_trace_filter_write(mt_file_trace(file), text, replace) : -EINVAL;
	kfree(text);
	if (ret)
		return ret;
	file->private_data = NULL;
	*ppos += count;
	return count;
}

static const struct file_operations mt_filter_fops = {
	.open		= mt_filter_open,
	.read		= mt_filter_read,
	.write		= mt_filter_write,
	.release	= mt_file_release,
	.llseek		= default_llseek,
};

/**
 * mt_trace_pids_write() - apply text written to set_event_pid
 * @tr: the trace
 * @text: pids (see mt_pids_parse()); cut into them
 * @replace: the write replaces the pids rather than adding to them
 *
 * Context: process context; takes mt_mutex.
 * Return: 0; -EBUSY once a trace started since the reset, or while the
 * trace is read; -ENOMEM; or an error of mt_pids_parse(), the pids
 * unchanged.
 */
VISIBLE_IF_KUNIT int mt_trace_pids_write(struct mt_trace *tr, char *text,
					 bool replace)
{
	struct mt_pids *next;
	int ret;

	/* 4 KiB: too big for the stack. */
	next = kmalloc(sizeof(*next), GFP_KERNEL);
	if (!next)
		return -ENOMEM;
	mutex_lock(&mt_mutex);
	ret = mt_settable_locked(tr);
	if (!ret) {
		*next = tr->pids;
		ret = mt_pids_parse(next, text, replace);
	}
	if (!ret)
		ret = mt_trace_set_pids_locked(tr, next);
	mutex_unlock(&mt_mutex);
	kfree(next);
	return ret;
}

static ssize_t mt_pids_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct seq_buf s;
	ssize_t ret;
	char *buf;

	buf = kmalloc(MT_PIDS_TEXT_MAX + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, MT_PIDS_TEXT_MAX + 1);
	mutex_lock(&mt_mutex);
	mt_pids_show(&s, &mt_file_trace(file)->pids);
	mutex_unlock(&mt_mutex);
	/* Every task: an empty file, as ftrace's. */
	if (seq_buf_used(&s))
		seq_buf_putc(&s, '\n');
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, seq_buf_used(&s));
	kfree(buf);
	return ret;
}

/* set_event_pid's open: the first write replaces the pids, or adds to them. */
#define MT_PIDS_REPLACE		1UL
/* Opened with O_TRUNC, and nothing written yet: the release clears the pids. */
#define MT_PIDS_CLEAR		2UL

/*
 * As with filter, an open without O_APPEND (">") replaces the pids with
 * its first write that succeeds, and later writes add to them; so do
 * the writes of an O_APPEND open (">>").  Unlike ftrace, whose O_TRUNC
 * clears the pids at once, bad text leaves them as they were; an open
 * with O_TRUNC that writes nothing (": > set_event_pid") clears them when
 * it is closed.  Such an open is refused while the pids may not change.
 */
static int mt_pids_open(struct inode *inode, struct file *file)
{
	struct mt_trace *tr = inode->i_private;
	unsigned long flags = 0;
	int ret;

	if ((file->f_mode & FMODE_WRITE) && !(file->f_flags & O_APPEND))
		flags |= MT_PIDS_REPLACE;
	mutex_lock(&mt_mutex);
	ret = mt_trace_file_get_locked(tr);
	if (!ret && (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		flags |= MT_PIDS_CLEAR;
		ret = mt_settable_locked(tr);
		if (ret)
			mt_trace_file_put_locked(tr);
	}
	mutex_unlock(&mt_mutex);
	file->private_data = (void *)flags;
	return ret;
}

static ssize_t mt_pids_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long flags = (unsigned long)file->private_data;
	char *text;
	int ret;

	/* Whatever comes of it, the write was the open's use. */
	file->private_data = (void *)(flags & ~MT_PIDS_CLEAR);
	if (count > MT_PIDS_TEXT_MAX)
		return -EINVAL;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = strlen(text) == count ?
	      mt_trace_pids_write(mt_file_trace(file), text,
				  flags & MT_PIDS_REPLACE) : -EINVAL;
	kfree(text);
	if (ret)
		return ret;
	file->private_data = NULL;
	*ppos += count;
	return count;
}

/**
 * mt_trace_pids_clear() - what a release of an O_TRUNC open with no write does
 * @tr: the trace
 *
 * A release cannot fail: a trace started since the open keeps the pids,
 * and the clearing allocates nothing.
 *
 * Context: process context; takes mt_mutex.
 */
VISIBLE_IF_KUNIT void mt_trace_pids_clear(struct mt_trace *tr)
{
	mutex_lock(&mt_mutex);
	if (!mt_settable_locked(tr))
		mt_trace_clear_pids_locked(tr, tr->pids.fork);
	mutex_unlock(&mt_mutex);
}

static int mt_pids_release(struct inode *inode, struct file *file)
{
	if ((unsigned long)file->private_data & MT_PIDS_CLEAR)
		mt_trace_pids_clear(inode->i_private);
	mt_trace_file_put(inode->i_private);
	return 0;
}

static const struct file_operations mt_pids_fops = {
	.open		= mt_pids_open,
	.read		= mt_pids_read,
	.write		= mt_pids_write,
	.release	= mt_pids_release,
	.llseek		= default_llseek,
};

static ssize_t mt_event_fork_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos,
			     READ_ONCE(mt_file_trace(file)->pids.fork));
}

/**
 * mt_trace_event_fork_set() - set whether the next trace follows forks
 * @tr: the trace
 * @on: a task that a selected task forks is selected too
 *
 * Context: process context; takes mt_mutex.
 * Return: 0, or -EBUSY once a trace started since the reset, or while
 * the trace is read.
 */
VISIBLE_IF_KUNIT int mt_trace_event_fork_set(struct mt_trace *tr, bool on)
{
	int ret;

	mutex_lock(&mt_mutex);
	ret = mt_settable_locked(tr);
	if (!ret)
		WRITE_ONCE(tr->pids.fork, on);
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_event_fork_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (!ret)
		ret = mt_trace_event_fork_set(mt_file_trace(file), on);
	return ret ? ret : count;
}

static const struct file_operations mt_event_fork_fops = {
	.open		= mt_file_open,
	.read		= mt_event_fork_read,
	.write		= mt_event_fork_write,
	.release	= mt_file_release,
	.llseek		= default_llseek,
};

/*
 * migration_trace/stats: per CPU, the records logged, dropped (buffer
 * full) and lost to the flight recorder so far; then the clamps: records
 * the rings logged at the time of the one before (a CPU's clock stepped
 * back), and lines trace_pipe handed out at the time of the line before
 * (two CPUs' clocks disagreed by more than its slack); then the CPUs that
 * have a buffer, the bytes the buffers take, and the records refused on
 * a CPU that has none.  Readable any time, also while tracing.
 */
static int mt_stats_show(struct seq_file *m, void *v)
{
	struct mt_trace *tr = m->private;
	struct mt_buffer *b = &tr->buf;
	u64 entries, total[3] = { }, pipe_clamped = mt_reader_clamped(&tr->rd);
	unsigned long clamped = 0, nobuf = 0;
	int cpu;

	mutex_lock(&mt_mutex);
	mutex_lock(&tr->rd.lock);
	seq_puts(m, "# cpu entries dropped overwritten\n");
	if (mt_ring_allocated(b)) {
		for_each_possible_cpu(cpu) {
			u64 lost = mt_ring_overwritten(b, cpu);

			entries = mt_ring_entries(b, cpu);
			seq_printf(m, "%d %llu %lu %llu\n", cpu, entries,
				   mt_ring_dropped(b, cpu), lost);
			total[0] += entries;
			total[1] += mt_ring_dropped(b, cpu);
			total[2] += lost;
			clamped += mt_ring_clamped(b, cpu);
		}
	}
	seq_printf(m, "total %llu %llu %llu\n", total[0], total[1], total[2]);
	seq_printf(m, "clamped %lu %llu\n", clamped, pipe_clamped);
	for_each_possible_cpu(cpu)
		nobuf += mt_ring_nobuf(b, cpu);
	/* The memory the buffers take, which follows the CPUs online. */
	seq_printf(m, "# buffer_cpus %u\n", mt_ring_nr_buffers(b));
	seq_printf(m, "# buffer_bytes %llu\n", mt_ring_total_bytes(b));
	seq_printf(m, "# nobuf %lu\n", nobuf);
	mutex_unlock(&tr->rd.lock);
	mutex_unlock(&mt_mutex);
	return 0;
}

static int mt_stats_open(struct inode *inode, struct file *file)
{
	int ret = mt_trace_file_get(inode->i_private);

	if (ret)
		return ret;
	ret = single_open(file, mt_stats_show, inode->i_private);
	if (ret)
		mt_trace_file_put(inode->i_private);
	return ret;
}

static int mt_stats_release(struct inode *inode, struct file *file)
{
	mt_trace_file_put(inode->i_private);
	return single_release(inode, file);
}

static const struct file_operations mt_stats_fops = {
	.open		= mt_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= mt_stats_release,
};

/**
 * mt_control_init() - create a trace's control files
 * @tr: the trace
 * @dir: its debugfs directory
 */
void mt_control_init(struct mt_trace *tr, struct dentry *dir)
{
	debugfs_create_file("enable", 0600, dir, tr, &mt_enable_fops);
	debugfs_create_file("mark", 0200, dir, tr, &mt_mark_fops);
	debugfs_create_file("reset", 0200, dir, tr, &mt_reset_fops);
	debugfs_create_file("overwrite", 0600, dir, tr, &mt_overwrite_fops);
	debugfs_create_file("buffer_size_kb", 0600, dir, tr, &mt_size_fops);
	debugfs_create_file("filter", 0600, dir, tr, &mt_filter_fops);
	debugfs_create_file("set_event_pid", 0600, dir, tr, &mt_pids_fops);
	debugfs_create_file("event_fork", 0600, dir, tr, &mt_event_fork_fops);
	debugfs_create_file("stats", 0400, dir, tr, &mt_stats_fops);
}
