// SPDX-License-Identifier: GPL-2.0
/*
 * Light weight migration trace (mt) and migration statistics (mstat)
 *
 * The scheduler reports each change of a task's CPU, with the function that
 * decided it, through mt_migrate_task().  mt records those reports, plus
 * forks, renames and marks, in one buffer per possible CPU and prints them
 * as text through debugfs.  See Documentation/trace/migrate_trace_lite.rst.
 *
 * Buffer layout: each CPU's buffer is a row of power-of-two chunks holding
 * variable-size records, 8-byte aligned; a record never straddles two
 * chunks (the gap is filled with padding), so every chunk can be parsed on
 * its own.  Today a trace fills the buffer once and stops; an overwrite
 * (flight recorder) mode would recycle the oldest chunk, and a reader that
 * consumes while tracing would take whole chunks, without a new format.
 *
 * Writers run on their own CPU with interrupts disabled, which also makes
 * them RCU readers, and reserve space with a local_t: no lock, no wait, no
 * nesting, so each CPU's records are in time order.  Whoever needs the
 * writers quiet (dump, reset) clears the flag and calls synchronize_rcu().
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/migrate_trace_lite.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/local.h>

DEFINE_STATIC_KEY_FALSE(mt_hooks_key);

/* Serializes every control operation of mt and mstat, and reader opens. */
static DEFINE_MUTEX(mt_mutex);

static const char * const mt_cause_names[] = {
	[MT_CAUSE_TRY_TO_WAKE_UP]		= "try_to_wake_up",
	[MT_CAUSE_WAKE_UP_NEW_TASK]		= "wake_up_new_task",
	[MT_CAUSE_DETACH_TASKS]			= "detach_tasks",
	[MT_CAUSE_DETACH_ONE_TASK]		= "detach_one_task",
	[MT_CAUSE_MIGRATION_CPU_STOP]		= "migration_cpu_stop",
	[MT_CAUSE_AFFINE_MOVE_TASK]		= "affine_move_task",
	[MT_CAUSE___BALANCE_PUSH_CPU_STOP]	= "__balance_push_cpu_stop",
	[MT_CAUSE_PUSH_RT_TASK]			= "push_rt_task",
	[MT_CAUSE_PULL_RT_TASK]			= "pull_rt_task",
	[MT_CAUSE_PUSH_DL_TASK]			= "push_dl_task",
	[MT_CAUSE_PULL_DL_TASK]			= "pull_dl_task",
	[MT_CAUSE_DL_TASK_OFFLINE_MIGRATION]	= "dl_task_offline_migration",
	[MT_CAUSE_PUSH_CPU_STOP]		= "push_cpu_stop",
	[MT_CAUSE___MIGRATE_SWAP_TASK]		= "__migrate_swap_task",
	[MT_CAUSE_TRY_STEAL_COOKIE]		= "try_steal_cookie",
	[MT_CAUSE_SCHED_TTWU_PENDING]		= "sched_ttwu_pending",
	[MT_CAUSE_MOVE_REMOTE_TASK_TO_LOCAL_DSQ] = "move_remote_task_to_local_dsq",
};

static_assert(ARRAY_SIZE(mt_cause_names) == MT_CAUSE_END);

/*
 * Take (@get) or drop a facility's reference on the shared hooks.  *@held
 * says whether the facility holds one, so both calls are idempotent.
 * Process context only: flipping a static key may sleep.
 */
static void mt_hooks_get(bool *held)
{
	lockdep_assert_held(&mt_mutex);
	if (!*held) {
		static_branch_inc(&mt_hooks_key);
		*held = true;
	}
}

static void mt_hooks_put(bool *held)
{
	lockdep_assert_held(&mt_mutex);
	if (*held) {
		static_branch_dec(&mt_hooks_key);
		*held = false;
	}
}

/*
 * Parse a control write: one unsigned number, decimal or (if @hex_ok)
 * 0x-prefixed hex, with an optional trailing newline.  Anything else,
 * including an empty write, an embedded NUL and an overflowing value, is
 * -EINVAL; the caller changes nothing then.
 */
static int mt_parse_ulong(const char __user *ubuf, size_t count, bool hex_ok,
			  unsigned long *val)
{
	char buf[24];

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;
	if (hex_ok && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		return kstrtoul(buf, 16, val) ? -EINVAL : 0;
	return kstrtoul(buf, 10, val) ? -EINVAL : 0;
}

static ssize_t mt_read_bool(char __user *ubuf, size_t count, loff_t *ppos,
			    bool val)
{
	char buf[2] = { val ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

/* An enable file's write: "0" or "1" into *@on. */
static int mt_parse_enable(const char __user *ubuf, size_t count, bool *on)
{
	unsigned long val = 0;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && val > 1)
		ret = -EINVAL;
	*on = val;
	return ret;
}

/* A reset file's write: "0" runs @reset under mt_mutex. */
static ssize_t mt_write_reset(const char __user *ubuf, size_t count,
			      int (*reset)(void))
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && val != 0)
		ret = -EINVAL;
	if (!ret) {
		mutex_lock(&mt_mutex);
		ret = reset();
		mutex_unlock(&mt_mutex);
	}
	return ret ? ret : count;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

/* Event kinds other than migrations, numbered after the causes. */
enum mt_event {
	MT_EV_PAD = MT_CAUSE_NONE,	/* filler up to a chunk boundary */
	MT_EV_COPY_PROCESS = MT_CAUSE_END,
	MT_EV_SET_TASK_COMM,
	MT_EV_TASK_LIST,
	MT_EV_MARK,
	MT_EV_END,
	MT_EV_START_CLOCK = MT_EV_END,	/* printed by name, not by number */
};

static const char * const mt_event_names[] = {
	[MT_EV_COPY_PROCESS]	= "copy_process",
	[MT_EV_SET_TASK_COMM]	= "set_task_comm",
	[MT_EV_TASK_LIST]	= "task_list",
	[MT_EV_MARK]		= "mark",
};

static_assert(ARRAY_SIZE(mt_event_names) == MT_EV_END);

/* Every record starts with this; a padding record has only len and type. */
struct mt_rec {
	u16 len;		/* bytes, a multiple of 8, never 0 */
	u16 type;		/* enum mt_cause of a migration, or enum mt_event */
	u32 pid;
	u64 ts;			/* local_clock() of the CPU that logged it */
};

struct mt_rec_migrate {
	struct mt_rec hdr;
	u16 from;
	u16 to;
	u32 unused;
};

struct mt_rec_comm {
	struct mt_rec hdr;
	char comm[TASK_COMM_LEN];
};

struct mt_rec_mark {
	struct mt_rec hdr;
	u64 mark;
};

struct mt_rec_clock {
	struct mt_rec hdr;
	s64 sec;
	u32 usec;
	u32 unused;
};

static_assert(sizeof(struct mt_rec_migrate) == 24);
static_assert(sizeof(struct mt_rec_comm) % 8 == 0);
static_assert(sizeof(struct mt_rec_clock) % 8 == 0);

#define MT_MAX_CHUNK_SIZE	4096UL

struct mt_buf {
	char *data;
	local_t head;		/* bytes reserved; runs past the end once full */
	local_t dropped;	/* records refused for want of space */
};

static DEFINE_PER_CPU(struct mt_buf, mt_bufs);
static unsigned long mt_buf_size __ro_after_init;
static unsigned long mt_chunk_mask __ro_after_init;
static bool mt_ready __ro_after_init;

static bool mt_tracing;		/* hooks record; read locklessly */
static bool mt_holds_hooks;	/* under mt_mutex */
static unsigned int mt_readers;	/* open trace files, under mt_mutex */

static inline bool mt_trace_running(void)
{
	return READ_ONCE(mt_tracing);
}

static void mt_release_hooks_workfn(struct work_struct *work)
{
	mutex_lock(&mt_mutex);
	if (!READ_ONCE(mt_tracing))
		mt_hooks_put(&mt_holds_hooks);
	mutex_unlock(&mt_mutex);
}

static DECLARE_WORK(mt_release_work, mt_release_hooks_workfn);

/* A writer that found its buffer full cannot flip a key; a worker can. */
static void mt_full_irq_workfn(struct irq_work *work)
{
	schedule_work(&mt_release_work);
}

static DEFINE_IRQ_WORK(mt_full_irq_work, mt_full_irq_workfn);

/* Fill [@from, @to) with padding records that respect chunk boundaries. */
static void mt_pad(struct mt_buf *b, unsigned long from, unsigned long to)
{
	while (from < to) {
		unsigned long next = min(to, (from & mt_chunk_mask) +
					     ~mt_chunk_mask + 1);
		struct mt_rec *r = (struct mt_rec *)(b->data + from);

		r->len = next - from;
		r->type = MT_EV_PAD;
		from = next;
	}
}

static void *mt_reserve(struct mt_buf *b, unsigned int len)
{
	for (;;) {
		unsigned long end = local_add_return(len, &b->head);
		unsigned long start = end - len;

		if (unlikely(end > mt_buf_size)) {
			if (start < mt_buf_size)
				mt_pad(b, start, mt_buf_size);
			return NULL;
		}
		if (likely(!((start ^ (end - 1)) & mt_chunk_mask)))
			return b->data + start;
		/* Straddles a chunk boundary: give the space up, try again. */
		mt_pad(b, start, end);
	}
}

static void mt_buffer_full(struct mt_buf *b)
{
	local_inc(&b->dropped);
	if (READ_ONCE(mt_tracing)) {
		WRITE_ONCE(mt_tracing, false);
		irq_work_queue(&mt_full_irq_work);
	}
}

/* Reserve and stamp a record on this CPU; interrupts must be off. */
static void *mt_open_record(unsigned int len, unsigned int type, pid_t pid,
			    u64 ts)
{
	struct mt_buf *b = this_cpu_ptr(&mt_bufs);
	struct mt_rec *r = mt_reserve(b, len);

	if (unlikely(!r)) {
		mt_buffer_full(b);
		return NULL;
	}
	r->len = len;
	r->type = type;
	r->pid = pid;
	r->ts = ts;
	return r;
}

static void mt_log_migration(struct task_struct *p, unsigned int from,
			     unsigned int to, enum mt_cause cause, u64 now)
{
	struct mt_rec_migrate *r;

	r = mt_open_record(sizeof(*r), cause, p->pid, now);
	if (r) {
		r->from = from;
		r->to = to;
	}
}

/* Copy without task_lock(): a name torn by a racing rename is harmless. */
static void mt_log_comm(unsigned int type, struct task_struct *p)
{
	struct mt_rec_comm *r;
	unsigned long flags;

	local_irq_save(flags);
	if (READ_ONCE(mt_tracing)) {
		r = mt_open_record(sizeof(*r), type, p->pid, local_clock());
		if (r) {
			memcpy(r->comm, p->comm, sizeof(r->comm));
			r->comm[sizeof(r->comm) - 1] = '\0';
		}
	}
	local_irq_restore(flags);
}

/* Return: 0, -EINVAL if no trace runs, -ENOSPC if the buffer is full. */
static int mt_log_mark(unsigned long mark)
{
	struct mt_rec_mark *r;
	unsigned long flags;
	int ret = -EINVAL;

	local_irq_save(flags);
	if (READ_ONCE(mt_tracing)) {
		r = mt_open_record(sizeof(*r), MT_EV_MARK, current->pid,
				   local_clock());
		if (r) {
			r->mark = mark;
			ret = 0;
		} else {
			ret = -ENOSPC;
		}
	}
	local_irq_restore(flags);
	return ret;
}

/* Runs on every online CPU, interrupts off, when a trace starts. */
static void mt_log_start_clock(void *unused)
{
	struct mt_rec_clock *r;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	r = mt_open_record(sizeof(*r), MT_EV_START_CLOCK, 0, local_clock());
	if (r) {
		r->sec = now.tv_sec;
		r->usec = now.tv_nsec / NSEC_PER_USEC;
	}
}

static void mt_log_task_list(void)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t)
		mt_log_comm(MT_EV_TASK_LIST, t);
	rcu_read_unlock();
}

static bool mt_buffers_empty(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (local_read(&per_cpu_ptr(&mt_bufs, cpu)->head))
			return false;
	return true;
}

/* Bytes of buffer written, padding included, over all CPUs. */
static unsigned long mt_used(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += min_t(unsigned long, mt_buf_size,
			     local_read(&per_cpu_ptr(&mt_bufs, cpu)->head));
	return sum;
}

static unsigned long mt_dropped(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += local_read(&per_cpu_ptr(&mt_bufs, cpu)->dropped);
	return sum;
}

static int mt_start_locked(bool allow_restart)
{
	if (!mt_ready)
		return -ENOMEM;
	if (mt_tracing)
		return 0;
	if (mt_readers)
		return -EBUSY;
	if (!mt_buffers_empty()) {
		/* Tools assume one continuous trace: a restart is opt-in. */
		if (!allow_restart)
			return -EBUSY;
		if (mt_dropped())
			return -ENOSPC;
	}
	on_each_cpu(mt_log_start_clock, NULL, 1);
	WRITE_ONCE(mt_tracing, true);
	mt_hooks_get(&mt_holds_hooks);
	mt_log_task_list();
	return 0;
}

/* Afterwards no writer is inside a buffer: the buffers may be read. */
static void mt_stop_locked(void)
{
	WRITE_ONCE(mt_tracing, false);
	mt_hooks_put(&mt_holds_hooks);
	synchronize_rcu();
}

static int mt_reset_locked(void)
{
	int cpu;

	if (mt_readers)
		return -EBUSY;
	mt_stop_locked();
	for_each_possible_cpu(cpu) {
		struct mt_buf *b = per_cpu_ptr(&mt_bufs, cpu);

		local_set(&b->head, 0);
		local_set(&b->dropped, 0);
	}
	return 0;
}

/**
 * mt_trace_enable() - start or stop the migration trace
 * @enable: 1 to start tracing, 0 to stop it
 * @allow_restart: if 0, refuse to start while the buffer holds a trace
 *
 * The analysis tools assume one continuous trace, so by default a trace
 * that was stopped must be read and reset before the next one starts.
 * With @allow_restart a stopped trace is continued instead, unless its
 * buffer already filled up.  Starting a running trace and stopping a
 * stopped one succeed and change nothing.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad @enable, -EBUSY if the buffer is
 * not empty (and @allow_restart is 0) or the trace file is open, -ENOSPC
 * if a restarted trace would have no room, -ENOMEM if the buffers could
 * not be allocated at boot.
 */
int mt_trace_enable(int enable, int allow_restart)
{
	int ret = 0;

	if (enable != 0 && enable != 1)
		return -EINVAL;
	mutex_lock(&mt_mutex);
	if (enable)
		ret = mt_start_locked(allow_restart);
	else
		mt_stop_locked();
	mutex_unlock(&mt_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(mt_trace_enable);

/**
 * mt_trace_mark() - add a mark event to the migration trace
 * @mark: an arbitrary value, shown in hex in the trace
 *
 * Analysis tools can cut a trace at the first occurrence of a mark, so a
 * value meant for that should be unique.  Nothing is recorded while the
 * trace is stopped.
 *
 * Context: Any context but NMI.
 */
void mt_trace_mark(unsigned long mark)
{
	mt_log_mark(mark);
}
EXPORT_SYMBOL_GPL(mt_trace_mark);

/*
 * Reading: a merge of the per-CPU buffers by timestamp.  seq_file position
 * 0 is the header; position n > 0 is the (n-1)th event of the merge.
 */
struct mt_iter {
	u64 consumed;		/* events already passed */
	int cpu;		/* CPU of the event at the cursor, or -1 */
	unsigned long off[];	/* read offset in each CPU's buffer */
};

/* The next record of @cpu's buffer, skipping padding; NULL at the end. */
static struct mt_rec *mt_iter_peek_cpu(struct mt_iter *it, int cpu)
{
	struct mt_buf *b = per_cpu_ptr(&mt_bufs, cpu);
	unsigned long used = min_t(unsigned long, local_read(&b->head),
				   mt_buf_size);

	while (it->off[cpu] + sizeof(u32) <= used) {
		struct mt_rec *r = (struct mt_rec *)(b->data + it->off[cpu]);

		if (!r->len || r->len % 8 || it->off[cpu] + r->len > used) {
			/* Cannot happen; never read beyond what was written. */
			it->off[cpu] = used;
			break;
		}
		if (r->type != MT_EV_PAD)
			return r;
		it->off[cpu] += r->len;
	}
	return NULL;
}

static struct mt_rec *mt_iter_peek(struct mt_iter *it)
{
	struct mt_rec *best = NULL;
	int cpu;

	it->cpu = -1;
	for_each_possible_cpu(cpu) {
		struct mt_rec *r = mt_iter_peek_cpu(it, cpu);

		if (r && (!best || r->ts < best->ts)) {
			best = r;
			it->cpu = cpu;
		}
	}
	return best;
}

static void mt_iter_consume(struct mt_iter *it, struct mt_rec *r)
{
	it->off[it->cpu] += r->len;
	it->consumed++;
}

static void mt_iter_rewind(struct mt_iter *it)
{
	memset(it->off, 0, nr_cpu_ids * sizeof(it->off[0]));
	it->consumed = 0;
}

static void *mt_seq_start(struct seq_file *m, loff_t *pos)
{
	struct mt_iter *it = m->private;
	struct mt_rec *r;

	if (*pos == 0) {
		mt_iter_rewind(it);
		return SEQ_START_TOKEN;
	}
	if (it->consumed > *pos - 1)
		mt_iter_rewind(it);
	while ((r = mt_iter_peek(it)) && it->consumed < *pos - 1)
		mt_iter_consume(it, r);
	return r;
}

static void *mt_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct mt_iter *it = m->private;

	if (v != SEQ_START_TOKEN)
		mt_iter_consume(it, v);
	++*pos;
	return mt_iter_peek(it);
}

static void mt_seq_stop(struct seq_file *m, void *v)
{
}

static void mt_show_header(struct seq_file *m)
{
	int i;

	/* 1.1: adds "# dropped" and "# buffer_used" to 1.0 */
	seq_puts(m, "# version 1.1.0\n");
	seq_printf(m, "# nr_cpus %u\n", nr_cpu_ids);
	seq_puts(m, "# ts_field 1\n");
	seq_printf(m, "# dropped %lu\n", mt_dropped());
	seq_printf(m, "# buffer_used %lu\n", mt_used());
	for (i = 1; i < MT_CAUSE_END; i++)
		seq_printf(m, "# cause %d %s\n", i, mt_cause_names[i]);
	for (i = MT_CAUSE_END; i < MT_EV_END; i++)
		seq_printf(m, "# loc %d %s\n", i, mt_event_names[i]);
}

/* A comm runs to the end of the line: keep control characters out. */
static void mt_show_comm(struct seq_file *m, const char *comm)
{
	char name[TASK_COMM_LEN];
	int i;

	for (i = 0; i < TASK_COMM_LEN - 1 && comm[i]; i++) {
		unsigned char c = comm[i];

		name[i] = (c < ' ' || c == 0x7f) ? '?' : c;
	}
	name[i] = '\0';
	seq_puts(m, name);
}

static void mt_show_record(struct seq_file *m, int cpu, struct mt_rec *r)
{
	struct mt_rec_migrate *mig = (void *)r;
	struct mt_rec_clock *clk = (void *)r;
	struct mt_rec_comm *com = (void *)r;
	struct mt_rec_mark *mrk = (void *)r;

	seq_put_hex_ll(m, "0x", r->ts, 16);
	seq_put_decimal_ull(m, " ", cpu);
	switch (r->type) {
	case MT_CAUSE_NONE + 1 ... MT_CAUSE_END - 1:
		seq_put_decimal_ull(m, " ", mig->from);
		seq_put_decimal_ull(m, " ", mig->to);
		seq_put_decimal_ull(m, " ", r->pid);
		seq_put_decimal_ull(m, " ", r->type);
		break;
	case MT_EV_COPY_PROCESS:
	case MT_EV_SET_TASK_COMM:
	case MT_EV_TASK_LIST:
		seq_put_decimal_ull(m, " . . ", r->pid);
		seq_put_decimal_ull(m, " ", r->type);
		seq_puts(m, " : ");
		mt_show_comm(m, com->comm);
		break;
	case MT_EV_MARK:
		seq_put_decimal_ull(m, " . . ", r->pid);
		seq_put_decimal_ull(m, " ", r->type);
		seq_put_hex_ll(m, " 0x", mrk->mark, 8);
		break;
	case MT_EV_START_CLOCK:
		seq_put_decimal_ll(m, " . . . start_sched_clock ", clk->sec);
		seq_put_decimal_ull(m, " ", clk->usec);
		break;
	}
	seq_putc(m, '\n');
}

static int mt_seq_show(struct seq_file *m, void *v)
{
	struct mt_iter *it = m->private;

	if (v == SEQ_START_TOKEN)
		mt_show_header(m);
	else
		mt_show_record(m, it->cpu, v);
	return 0;
}

static const struct seq_operations mt_seq_ops = {
	.start	= mt_seq_start,
	.next	= mt_seq_next,
	.stop	= mt_seq_stop,
	.show	= mt_seq_show,
};

static int mt_trace_open(struct inode *inode, struct file *file)
{
	int ret;

	mutex_lock(&mt_mutex);
	if (mt_tracing) {
		ret = -EBUSY;
		goto out;
	}
	/* The trace may have stopped itself: make sure writers are gone. */
	mt_stop_locked();
	ret = seq_open_private(file, &mt_seq_ops,
			       struct_size_t(struct mt_iter, off, nr_cpu_ids));
	if (!ret)
		mt_readers++;
out:
	mutex_unlock(&mt_mutex);
	return ret;
}

static int mt_trace_release(struct inode *inode, struct file *file)
{
	mutex_lock(&mt_mutex);
	mt_readers--;
	mutex_unlock(&mt_mutex);
	return seq_release_private(inode, file);
}

static const struct file_operations mt_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= mt_trace_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= mt_trace_release,
};

static ssize_t mt_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_read_bool(ubuf, count, ppos, READ_ONCE(mt_tracing));
}

static ssize_t mt_enable_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (!ret)
		ret = mt_trace_enable(on, 0);
	return ret ? ret : count;
}

static const struct file_operations mt_enable_fops = {
	.owner	= THIS_MODULE,
	.read	= mt_enable_read,
	.write	= mt_enable_write,
	.llseek	= default_llseek,
};

static ssize_t mt_mark_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, true, &val);
	if (ret)
		return ret;
	/* A mark that cannot be recorded is an error, not a silent no-op. */
	ret = mt_log_mark(val);
	if (ret == -EINVAL && mt_dropped())
		ret = -ENOSPC;
	return ret ? ret : count;
}

static const struct file_operations mt_mark_fops = {
	.owner	= THIS_MODULE,
	.write	= mt_mark_write,
	.llseek	= noop_llseek,
};

static ssize_t mt_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_write_reset(ubuf, count, mt_reset_locked);
}

static const struct file_operations mt_reset_fops = {
	.owner	= THIS_MODULE,
	.write	= mt_reset_write,
	.llseek	= noop_llseek,
};

static void __init mt_free_buffers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		vfree(per_cpu_ptr(&mt_bufs, cpu)->data);
		per_cpu_ptr(&mt_bufs, cpu)->data = NULL;
	}
}

/* One buffer per possible CPU, on that CPU's node, for the whole uptime. */
static int __init mt_alloc_buffers(void)
{
	int cpu;

	mt_buf_size = CONFIG_SNSC_LITE_MIGRATION_TRACE_BUF_SIZE * 1024UL;
	/* A record keeps CPU numbers in 16 bits. */
	if (nr_cpu_ids > U16_MAX + 1)
		return -E2BIG;
	mt_chunk_mask = ~(min(MT_MAX_CHUNK_SIZE,
			      rounddown_pow_of_two(mt_buf_size)) - 1);
	for_each_possible_cpu(cpu) {
		char *data = vmalloc_node(mt_buf_size, cpu_to_node(cpu));

		if (!data) {
			mt_free_buffers();
			return -ENOMEM;
		}
		per_cpu_ptr(&mt_bufs, cpu)->data = data;
	}
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH

/*
 * Benchmark of the per-event cost, for "make bench": migration_trace/bench
 * takes "hook N", "tracepoint N" or "empty N" and runs N calls of
 * mt_migrate_task() (whatever mt and mstat are doing), of the
 * sched_migrate_task tracepoint (whatever ftrace is doing) or of nothing,
 * on the current task with interrupts off; reading gives
 * "VARIANT N NANOSECONDS" of the last run.
 */
#include <trace/events/sched.h>

#define MT_BENCH_MAX_CALLS	1000000UL

static char mt_bench_result[64];

static u64 mt_bench_run(const char *variant, unsigned long n)
{
	struct task_struct *p = current;
	unsigned long flags, i;
	unsigned int other;
	u64 t0, t1;

	local_irq_save(flags);
	other = cpumask_any_but(cpu_possible_mask, task_cpu(p));
	t0 = local_clock();
	if (!strcmp(variant, "hook")) {
		for (i = 0; i < n; i++)
			mt_migrate_task(p, other, MT_CAUSE_TRY_TO_WAKE_UP);
	} else if (!strcmp(variant, "tracepoint")) {
		for (i = 0; i < n; i++)
			trace_sched_migrate_task(p, other);
	} else {
		for (i = 0; i < n; i++)
			barrier();
	}
	t1 = local_clock();
	local_irq_restore(flags);
	return t1 - t0;
}

static ssize_t mt_bench_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[48], variant[16];
	unsigned long n;
	u64 ns;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%15s %lu", variant, &n) != 2 || !n ||
	    n > MT_BENCH_MAX_CALLS || nr_cpu_ids < 2 ||
	    (strcmp(variant, "hook") && strcmp(variant, "tracepoint") &&
	     strcmp(variant, "empty")))
		return -EINVAL;
	ns = mt_bench_run(variant, n);
	mutex_lock(&mt_mutex);
	scnprintf(mt_bench_result, sizeof(mt_bench_result), "%s %lu %llu\n",
		  variant, n, ns);
	mutex_unlock(&mt_mutex);
	return count;
}

static ssize_t mt_bench_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[64];

	mutex_lock(&mt_mutex);
	strscpy(buf, mt_bench_result, sizeof(buf));
	mutex_unlock(&mt_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations mt_bench_fops = {
	.owner	= THIS_MODULE,
	.read	= mt_bench_read,
	.write	= mt_bench_write,
	.llseek	= default_llseek,
};

static void __init mt_bench_init(struct dentry *dir)
{
	debugfs_create_file("bench", 0600, dir, NULL, &mt_bench_fops);
}

#else

static inline void mt_bench_init(struct dentry *dir)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_BENCH */

static int __init mt_trace_init(void)
{
	struct dentry *dir;
	int ret = mt_alloc_buffers();

	if (ret)
		pr_warn("cannot set up %lu KiB per CPU (%d): migration trace disabled\n",
			mt_buf_size / 1024, ret);
	else
		mt_ready = true;

	dir = debugfs_create_dir("migration_trace", NULL);
	debugfs_create_file("enable", 0600, dir, NULL, &mt_enable_fops);
	debugfs_create_file("mark", 0200, dir, NULL, &mt_mark_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &mt_reset_fops);
	debugfs_create_file("trace", 0400, dir, NULL, &mt_trace_fops);
	mt_bench_init(dir);
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE_KUNIT_TEST
#include "migrate_trace_lite_test.c"
#endif

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline void mt_log_migration(struct task_struct *p, unsigned int from,
				    unsigned int to, enum mt_cause cause,
				    u64 now)
{
}

static inline void mt_log_comm(unsigned int type, struct task_struct *p)
{
}

static inline int mt_trace_init(void)
{
	return 0;
}

static inline bool mt_trace_running(void)
{
	return false;
}

#define MT_EV_COPY_PROCESS	0
#define MT_EV_SET_TASK_COMM	0

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

/*
 * Migration statistics: per-cause counts per period of period_msec.
 *
 * Each CPU counts the events of its current period in its own counters.
 * When it sees an event past the end of that period, or when a reader asks
 * it by IPI, it adds them to the shared history, one row per period: the
 * only cross-CPU atomics are one per cause per CPU per period, never one
 * per event.  A row is final once every CPU has moved past it, and only
 * final rows are shown.
 */

#define MS_NR_PERIODS		(CONFIG_SNSC_LITE_MIGRATION_STAT_DATA_SIZE * 3600UL)
#define MS_MAX_PERIOD_MSEC	3600000UL

struct ms_row {
	atomic_t count[MT_NR_CAUSES];	/* index: cause - 1 */
};

struct ms_cpu {
	u64 period;			/* the period @count belongs to */
	u64 period_end;			/* local_clock() when it ends */
	u32 count[MT_NR_CAUSES];
};

static DEFINE_PER_CPU(struct ms_cpu, ms_cpus);
static struct ms_row *ms_hist __ro_after_init;

static bool ms_collecting;		/* hooks count; read locklessly */
/* Under mt_mutex: */
static bool ms_holds_hooks;
static bool ms_started;			/* a collection ran since the reset */
static bool ms_folded;			/* ...and stopped, all counts in rows */
static unsigned long ms_period_msec = 1000;
static u64 ms_period_ns;
static u64 ms_start_ns;			/* local_clock() when period 0 began */
static u64 ms_complete;			/* rows final after the stop */
static struct timespec64 ms_start_wall;
static unsigned int ms_readers;
static atomic_long_t ms_dropped;

static inline bool ms_stat_running(void)
{
	/* See the per-CPU state ms_start_locked() set up before its release. */
	return smp_load_acquire(&ms_collecting);
}

static void ms_release_hooks_workfn(struct work_struct *work)
{
	mutex_lock(&mt_mutex);
	if (!READ_ONCE(ms_collecting))
		mt_hooks_put(&ms_holds_hooks);
	mutex_unlock(&mt_mutex);
}

static DECLARE_WORK(ms_release_work, ms_release_hooks_workfn);

static void ms_full_irq_workfn(struct irq_work *work)
{
	schedule_work(&ms_release_work);
}

static DEFINE_IRQ_WORK(ms_full_irq_work, ms_full_irq_workfn);

/* Add @pc's counts to its period's row; interrupts off or writers gone. */
static void ms_fold(struct ms_cpu *pc)
{
	int i;

	if (pc->period >= MS_NR_PERIODS)
		return;
	for (i = 0; i < MT_NR_CAUSES; i++) {
		if (pc->count[i]) {
			atomic_add(pc->count[i], &ms_hist[pc->period].count[i]);
			pc->count[i] = 0;
		}
	}
}

/*
 * Fold, then move @pc to the period of @now.  Runs once per period per
 * CPU at most, so the division for a CPU that idled is affordable here.
 */
static void ms_advance(struct ms_cpu *pc, u64 now)
{
	u64 passed;

	ms_fold(pc);
	if (now < pc->period_end)
		return;
	passed = div64_u64(now - pc->period_end, ms_period_ns) + 1;
	pc->period += passed;
	pc->period_end += passed * ms_period_ns;
	if (pc->period >= MS_NR_PERIODS && READ_ONCE(ms_collecting)) {
		/* The history is full: stop, and let a worker drop the key. */
		WRITE_ONCE(ms_collecting, false);
		irq_work_queue(&ms_full_irq_work);
	}
}

static void ms_count(enum mt_cause cause, u64 now)
{
	struct ms_cpu *pc = this_cpu_ptr(&ms_cpus);

	if (unlikely(now >= pc->period_end)) {
		ms_advance(pc, now);
		if (unlikely(pc->period >= MS_NR_PERIODS)) {
			atomic_long_inc(&ms_dropped);
			return;
		}
	}
	pc->count[cause - 1]++;
}

/* IPI: bring this CPU's counters up to date. */
static void ms_sync_cpu(void *unused)
{
	if (READ_ONCE(ms_collecting))
		ms_advance(this_cpu_ptr(&ms_cpus), local_clock());
}

/*
 * While collecting: have every CPU fold its counts and return how many
 * rows are final, i.e. every CPU has moved past them.
 */
static u64 ms_sync_locked(void)
{
	u64 complete = MS_NR_PERIODS;
	int cpu;

	cpus_read_lock();
	on_each_cpu(ms_sync_cpu, NULL, 1);
	for_each_online_cpu(cpu)
		complete = min(complete, per_cpu_ptr(&ms_cpus, cpu)->period);
	cpus_read_unlock();
	return complete;
}

static int ms_start_locked(void)
{
	int cpu;

	if (!ms_hist)
		return -ENOMEM;
	if (ms_collecting)
		return 0;
	/* A stopped collection keeps its timeline: reset before the next. */
	if (ms_started)
		return -EBUSY;
	ms_period_ns = ms_period_msec * NSEC_PER_MSEC;
	ktime_get_real_ts64(&ms_start_wall);
	ms_start_ns = local_clock();
	for_each_possible_cpu(cpu) {
		struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);

		memset(pc, 0, sizeof(*pc));
		pc->period_end = ms_start_ns + ms_period_ns;
	}
	ms_started = true;
	ms_folded = false;
	/* Publish the per-CPU state above to the hooks (ms_stat_running()). */
	smp_store_release(&ms_collecting, true);
	mt_hooks_get(&ms_holds_hooks);
	return 0;
}

/* Stop the writers (if not stopped by a full history) and fold it all. */
static void ms_stop_locked(void)
{
	u64 stop_ns = local_clock();
	int cpu;

	if (READ_ONCE(ms_collecting)) {
		WRITE_ONCE(ms_collecting, false);
		ms_complete = min_t(u64, MS_NR_PERIODS,
				    div64_u64(stop_ns - ms_start_ns, ms_period_ns));
	} else if (ms_started && !ms_folded) {
		ms_complete = MS_NR_PERIODS;	/* stopped itself: full */
	}
	mt_hooks_put(&ms_holds_hooks);
	synchronize_rcu();
	if (ms_started && !ms_folded) {
		/* Not while a hotplug callback folds a CPU. */
		cpus_read_lock();
		for_each_possible_cpu(cpu)
			ms_fold(per_cpu_ptr(&ms_cpus, cpu));
		cpus_read_unlock();
		ms_folded = true;
	}
}

/*
 * CPU hotplug, on a control CPU while @cpu cannot run: a dead CPU's
 * counts go to the history at once, so that rows stay final while it is
 * away, and a returning CPU starts in the current period.  Readers hold
 * cpus_read_lock(), so they see a CPU either before or after this.
 */
static int ms_cpu_prepare(unsigned int cpu)
{
	if (READ_ONCE(ms_collecting))
		ms_advance(per_cpu_ptr(&ms_cpus, cpu), local_clock());
	return 0;
}

static int ms_cpu_dead(unsigned int cpu)
{
	if (READ_ONCE(ms_collecting))
		ms_fold(per_cpu_ptr(&ms_cpus, cpu));
	return 0;
}

/* A collection whose history has run out stops even if nothing migrates. */
static void ms_stop_if_expired_locked(void)
{
	if (READ_ONCE(ms_collecting) &&
	    local_clock() - ms_start_ns >= MS_NR_PERIODS * ms_period_ns)
		ms_sync_locked();
	if (!READ_ONCE(ms_collecting))
		ms_stop_locked();
}

static int ms_reset_locked(void)
{
	if (ms_readers)
		return -EBUSY;
	ms_stop_locked();
	memset(ms_hist, 0, MS_NR_PERIODS * sizeof(*ms_hist));
	atomic_long_set(&ms_dropped, 0);
	ms_started = false;
	ms_folded = false;
	ms_complete = 0;
	return 0;
}

struct ms_iter {
	u64 rows;		/* final rows in this snapshot */
};

static void *ms_seq_start(struct seq_file *m, loff_t *pos)
{
	struct ms_iter *it = m->private;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	return *pos - 1 < it->rows ? &ms_hist[*pos - 1] : NULL;
}

static void *ms_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return ms_seq_start(m, pos);
}

static void ms_seq_stop(struct seq_file *m, void *v)
{
}

static void ms_show_header(struct seq_file *m)
{
	int i;

	/* 1.1: adds nr_cpus, dropped and sched_clock to 1.0 */
	seq_puts(m, "# version 1.1.0\n");
	seq_printf(m, "# period_msec %lu\n", ms_period_msec);
	seq_printf(m, "# gettimeofday %lld %06ld\n",
		   (long long)ms_start_wall.tv_sec,
		   ms_start_wall.tv_nsec / NSEC_PER_USEC);
	seq_puts(m, "# ts_field 1\n");
	seq_printf(m, "# nr_cpus %u\n", nr_cpu_ids);
	seq_printf(m, "# dropped %ld\n", atomic_long_read(&ms_dropped));
	seq_printf(m, "# sched_clock 0x%016llx\n", ms_start_ns);
	for (i = 1; i < MT_CAUSE_END; i++)
		seq_printf(m, "# field %d %s\n", i + 1, mt_cause_names[i]);
	seq_printf(m, "# field %d migrate\n", MT_CAUSE_END + 1);
}

static void ms_show_row(struct seq_file *m, u64 period, struct ms_row *row)
{
	u64 msec = period * ms_period_msec;
	unsigned long sum = 0;
	u64 sec;
	u32 rem;
	int i;

	sec = div_u64_rem(msec, MSEC_PER_SEC, &rem);
	seq_printf(m, "%llu.%03u", sec, rem);
	for (i = 0; i < MT_NR_CAUSES; i++) {
		unsigned int n = atomic_read(&row->count[i]);

		sum += n;
		seq_put_decimal_ull(m, " ", n);
	}
	seq_put_decimal_ull(m, " ", sum);
	seq_putc(m, '\n');
}

static int ms_seq_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		ms_show_header(m);
	else
		ms_show_row(m, (struct ms_row *)v - ms_hist, v);
	return 0;
}

static const struct seq_operations ms_seq_ops = {
	.start	= ms_seq_start,
	.next	= ms_seq_next,
	.stop	= ms_seq_stop,
	.show	= ms_seq_show,
};

static int ms_stat_open(struct inode *inode, struct file *file)
{
	struct ms_iter *it;

	it = __seq_open_private(file, &ms_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	mutex_lock(&mt_mutex);
	ms_stop_if_expired_locked();
	if (READ_ONCE(ms_collecting))
		it->rows = ms_sync_locked();
	else
		it->rows = ms_started ? ms_complete : 0;
	ms_readers++;
	mutex_unlock(&mt_mutex);
	return 0;
}

static int ms_stat_release(struct inode *inode, struct file *file)
{
	mutex_lock(&mt_mutex);
	ms_readers--;
	mutex_unlock(&mt_mutex);
	return seq_release_private(inode, file);
}

static const struct file_operations ms_stat_fops = {
	.owner		= THIS_MODULE,
	.open		= ms_stat_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= ms_stat_release,
};

static ssize_t ms_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	mutex_lock(&mt_mutex);
	ms_stop_if_expired_locked();
	mutex_unlock(&mt_mutex);
	return mt_read_bool(ubuf, count, ppos, READ_ONCE(ms_collecting));
}

static ssize_t ms_enable_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&mt_mutex);
	if (on)
		ret = ms_start_locked();
	else
		ms_stop_locked();
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations ms_enable_fops = {
	.owner	= THIS_MODULE,
	.read	= ms_enable_read,
	.write	= ms_enable_write,
	.llseek	= default_llseek,
};

static ssize_t ms_period_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[24];
	int len;

	len = scnprintf(buf, sizeof(buf), "%lu\n", READ_ONCE(ms_period_msec));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t ms_period_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && (val == 0 || val > MS_MAX_PERIOD_MSEC))
		ret = -EINVAL;
	if (ret)
		return ret;
	mutex_lock(&mt_mutex);
	/* The rows collected so far are of the old period: keep it. */
	if (ms_started)
		ret = -EBUSY;
	else
		WRITE_ONCE(ms_period_msec, val);
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations ms_period_fops = {
	.owner	= THIS_MODULE,
	.read	= ms_period_read,
	.write	= ms_period_write,
	.llseek	= default_llseek,
};

static ssize_t ms_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_write_reset(ubuf, count, ms_reset_locked);
}

static const struct file_operations ms_reset_fops = {
	.owner	= THIS_MODULE,
	.write	= ms_reset_write,
	.llseek	= noop_llseek,
};

static void __init ms_stat_init(void)
{
	struct dentry *dir;

	/* Without it, enable fails with -ENOMEM; vzalloc() said why. */
	ms_hist = vzalloc(MS_NR_PERIODS * sizeof(*ms_hist));

	dir = debugfs_create_dir("migration_stat", NULL);
	debugfs_create_file("enable", 0600, dir, NULL, &ms_enable_fops);
	debugfs_create_file("period_msec", 0600, dir, NULL, &ms_period_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &ms_reset_fops);
	debugfs_create_file("stat", 0400, dir, NULL, &ms_stat_fops);

	if (cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "migrate_trace_lite:stat",
				      ms_cpu_prepare, ms_cpu_dead) < 0)
		pr_warn("no CPU hotplug state: counts of an offline CPU wait for the stop\n");
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_STAT */

static inline bool ms_stat_running(void)
{
	return false;
}

static inline void ms_count(enum mt_cause cause, u64 now)
{
}

static inline void ms_stat_init(void)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

void __mt_migrate_task(struct task_struct *p, unsigned int new_cpu,
		       enum mt_cause cause)
{
	unsigned int old_cpu = task_cpu(p);
	u64 now;

	if (old_cpu == new_cpu)
		return;
	/* One timestamp: the trace and the stat put the event in one period. */
	now = local_clock();
	if (mt_trace_running())
		mt_log_migration(p, old_cpu, new_cpu, cause, now);
	if (ms_stat_running())
		ms_count(cause, now);
}

void __mt_copy_process(struct task_struct *p)
{
	mt_log_comm(MT_EV_COPY_PROCESS, p);
}

void __mt_set_task_comm(struct task_struct *p)
{
	mt_log_comm(MT_EV_SET_TASK_COMM, p);
}

static int __init migrate_trace_lite_init(void)
{
	mt_trace_init();
	ms_stat_init();
	return 0;
}
late_initcall(migrate_trace_lite_init);
