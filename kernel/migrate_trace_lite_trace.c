// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's control: start, stop and reset, the records the
 * hooks log, marks, the names of tasks, and the debugfs control files of
 * migration_trace/.  The buffers are in migrate_trace_lite_ring.c; the
 * readers have files of their own.
 *
 * Buffers are allocated when a trace first starts, not at boot, and
 * freed by a reset: nothing is pinned while the trace is unused.  Whoever
 * needs the writers quiet (dump, reset) clears mt_tracing (and the dump
 * mt_naming, set while a start walks the tasks) and calls
 * synchronize_rcu(): writers run with interrupts disabled, which makes
 * them RCU readers.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/hardirq.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite.h"

bool mt_tracing;
bool mt_overwrite;
unsigned long mt_buf_size_kb = CONFIG_SNSC_LITE_MIGRATION_TRACE_BUF_SIZE;
unsigned int mt_trace_readers;
s64 mt_clock_offset;

/* Names are logged while a start walks the tasks; see mt_start_new_locked(). */
static bool mt_naming;

/* Under mt_mutex: */
static bool mt_holds_hooks;
static bool mt_started;			/* a trace ran since the reset */
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
unsigned long mt_trace_starts;		/* new traces since boot, for the benchmark */
#endif

/* The smallest buffer: two chunks with room for a name and a time record. */
#define MT_MIN_BUF_KB	1UL
#define MT_MAX_BUF_KB	1048576UL

/*
 * Names of the tasks that existed when the trace started.  They are not
 * logged into the buffers, which a machine with many threads would fill,
 * but kept aside and printed by every reader.
 */
struct mt_task_name *mt_task_list;
unsigned int mt_task_list_len;
u64 mt_task_list_ts;
int mt_task_list_cpu;
unsigned long mt_task_list_truncated;
static unsigned int mt_task_list_cap;

/*
 * The last name logged for each pid, by pid modulo the size: a dump of a
 * flight recorder can name tasks whose fork and exec records are gone.
 * A writer claims a slot by swapping MT_COMM_BUSY into its pid and skips
 * the update if another CPU holds it; readers run with writers stopped.
 * A slot never written holds MT_COMM_EMPTY, which no pid can be.
 */
#define MT_COMM_BUSY	U32_MAX
#define MT_COMM_EMPTY	(U32_MAX - 1)

struct mt_comm_slot {
	u32 pid;
	char comm[TASK_COMM_LEN];
};

static struct mt_comm_slot *mt_comm_cache;

static void mt_comm_remember(pid_t pid, const char *comm)
{
	struct mt_comm_slot *s = &mt_comm_cache[pid % MT_COMM_SLOTS];
	u32 old = READ_ONCE(s->pid);

	if (old == MT_COMM_BUSY || cmpxchg(&s->pid, old, MT_COMM_BUSY) != old)
		return;
	memcpy(s->comm, comm, TASK_COMM_LEN);
	/* The name is in place before the slot is released to it. */
	smp_store_release(&s->pid, pid);
}

/* The remembered name of @pid into @comm; false if it is not known. */
bool mt_comm_lookup(pid_t pid, char *comm)
{
	struct mt_comm_slot *s;

	if (!mt_comm_cache)
		return false;
	s = &mt_comm_cache[pid % MT_COMM_SLOTS];
	/* Pairs with mt_comm_remember()'s release. */
	if (smp_load_acquire(&s->pid) != pid || pid == MT_COMM_BUSY ||
	    pid == MT_COMM_EMPTY)
		return false;
	memcpy(comm, s->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
	return true;
}

static void mt_release_hooks_workfn(struct work_struct *work)
{
	mutex_lock(&mt_mutex);
	if (!READ_ONCE(mt_tracing))
		mt_hooks_put(&mt_holds_hooks);
	mutex_unlock(&mt_mutex);
}

static DECLARE_WORK(mt_release_work, mt_release_hooks_workfn);

/* A writer that found its buffer full cannot flip a key or wake; a worker can. */
static void mt_full_irq_workfn(struct irq_work *work)
{
	schedule_work(&mt_release_work);
	mt_pipe_wake();
}

static DEFINE_IRQ_WORK(mt_full_irq_work, mt_full_irq_workfn);

/*
 * A record was refused: count it, and stop a trace that does not
 * overwrite, unless this CPU has no buffer at all.
 */
void mt_buffer_full(u64 ts)
{
	/* A CPU without a buffer: counted, and the others trace on. */
	if (!mt_ring_drop(ts))
		return;
	/* Pairs with mt_let_moves_in(): one of us stops the trace. */
	smp_mb();
	if (READ_ONCE(mt_tracing)) {
		WRITE_ONCE(mt_tracing, false);
		irq_work_queue(&mt_full_irq_work);
	}
}

/* Stop the hooks' logging at once, from any context: for the oops dump. */
void mt_stop_writers(void)
{
	WRITE_ONCE(mt_tracing, false);
	WRITE_ONCE(mt_naming, false);
}

/* Commit a name or a mark, and nudge a consuming reader that waits. */
static void mt_commit(void *rec)
{
	mt_ring_commit(rec);
	mt_pipe_kick(false);
}

/*
 * Log the name @comm of @pid at @now; interrupts off, tracing.  The name
 * is copied without task_lock(): one torn by a racing rename is harmless,
 * and the race is marked for KCSAN.  Return: false if the buffer is full.
 */
static bool mt_log_name(unsigned int type, pid_t pid, const char *comm, u64 now)
{
	struct mt_rec_comm *r = mt_ring_write(sizeof(*r), type, now);

	if (!r) {
		mt_buffer_full(now);
		return false;
	}
	r->pid = pid;
	/* Racy with a rename, see above. */
	data_race(memcpy(r->comm, comm, sizeof(r->comm)));
	r->comm[sizeof(r->comm) - 1] = '\0';
	r->unused = 0;
	mt_comm_remember(r->pid, r->comm);
	mt_commit(r);
	return true;
}

/* Whether the name hooks log: while tracing, and while a start walks the tasks. */
static bool mt_names_wanted(void)
{
	/*
	 * A start sets mt_tracing before it clears mt_naming: read them the
	 * other way round.  Each acquire pairs with a release of the start.
	 */
	return smp_load_acquire(&mt_naming) || mt_trace_running();
}

void mt_log_comm(unsigned int type, struct task_struct *p)
{
	unsigned long flags;

	local_irq_save(flags);
	if (mt_names_wanted()) {
		mt_writer_begin();
		mt_log_name(type, p->pid, p->comm, local_clock());
		mt_writer_end();
	}
	local_irq_restore(flags);
}

/**
 * mt_name_exiting() - name an exiting task that is about to move
 * @p: the task, with PF_EXITING set
 * @now: the time of the move
 *
 * A task that went through exit_notify() can be reaped, by its parent or
 * by itself, and so leave the task list, before it runs for the last
 * time: a trace that starts then finds no name for it, although the
 * scheduler may still move it.  So such a move is preceded by the task's
 * name, unless this trace already named its pid.  From the hooks:
 * interrupts off, tracing.
 *
 * Return: false if the buffer refused the name; the move is then counted
 * as refused too, and must not be logged.
 */
bool mt_name_exiting(struct task_struct *p, u64 now)
{
	/* A de_thread() may change the pid of a zombie leader: read it once. */
	pid_t pid = READ_ONCE(p->pid);
	struct mt_comm_slot *s = &mt_comm_cache[pid % MT_COMM_SLOTS];

	if (!READ_ONCE(p->exit_state) || READ_ONCE(s->pid) == (u32)pid)
		return true;
	if (mt_log_name(MT_EV_SET_TASK_COMM, pid, p->comm, now))
		return true;
	mt_ring_drop(now);
	return false;
}

/* Return: 0, -EINVAL if no trace runs or in NMI, -ENOSPC if the buffer is full. */
static int mt_log_mark(unsigned long mark)
{
	struct mt_rec_mark *r;
	unsigned long flags;
	int ret = -EINVAL;
	u64 now;

	/* An NMI can come between another writer's timestamp and commit. */
	if (in_nmi())
		return -EINVAL;
	local_irq_save(flags);
	if (mt_trace_running()) {
		mt_writer_begin();
		now = local_clock();
		r = mt_ring_write(sizeof(*r), MT_EV_MARK, now);
		if (r) {
			r->pid = current->pid;
			r->unused = 0;
			r->mark = mark;
			mt_commit(r);
			ret = 0;
		} else {
			mt_buffer_full(now);
			ret = -ENOSPC;
		}
		mt_writer_end();
	}
	local_irq_restore(flags);
	return ret;
}

/*
 * local_clock() minus sched_clock(), ftrace's "local" clock, on this CPU:
 * subtracted from the trace's times, it gives that clock's, so that a
 * trace-cmd recording of the same run lines up with this trace.
 */
static s64 mt_measure_clock_offset(void)
{
	unsigned long flags;
	u64 before, now, after;

	local_irq_save(flags);
	before = sched_clock();
	now = local_clock();
	after = sched_clock();
	local_irq_restore(flags);
	return now - (before + (after - before) / 2);
}

/* Runs on every online CPU, interrupts off, when a trace starts. */
static void mt_take_start_clock(void *unused)
{
	struct mt_cpu_start *s = &this_cpu_ptr(&mt_rings)->start;
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	s->ts = local_clock();
	s->sec = now.tv_sec;
	s->usec = now.tv_nsec / NSEC_PER_USEC;
}

/*
 * Each CPU's core (first SMT sibling), last-level cache (first CPU
 * sharing it) and node, as the scheduler sees them now.
 */
static void mt_take_topology(void)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		struct mt_cpu_start *s = &per_cpu_ptr(&mt_rings, cpu)->start;
		unsigned int core = cpumask_first(topology_sibling_cpumask(cpu));

		s->core = core < nr_cpu_ids ? core : cpu;
		s->llc = cpu;
		for_each_possible_cpu(other) {
			if (other >= cpu)
				break;
			if (per_cpu_ptr(&mt_rings, other)->start.llc == other &&
			    cpus_share_cache(other, cpu)) {
				s->llc = other;
				break;
			}
		}
		s->node = cpu_to_node(cpu);
	}
}

static void mt_free_names(void)
{
	kvfree(mt_task_list);
	mt_task_list = NULL;
	mt_task_list_len = 0;
	mt_task_list_cap = 0;
	mt_task_list_truncated = 0;
	kvfree(mt_comm_cache);
	mt_comm_cache = NULL;
}

/*
 * Room for the names of the tasks there are, and of some more created
 * while they are copied; those also name themselves in the buffers.
 */
static int mt_alloc_task_list(void)
{
	mt_task_list_cap = READ_ONCE(nr_threads) + 256;
	mt_task_list = kvmalloc_array(mt_task_list_cap, sizeof(*mt_task_list),
				      MT_GFP);
	return mt_task_list ? 0 : -ENOMEM;
}

/* Copy the name of every task, as far as the list has room. */
VISIBLE_IF_KUNIT void mt_take_task_list(u64 ts)
{
	struct task_struct *g, *t;

	KUNIT_STATIC_STUB_REDIRECT(mt_take_task_list, ts);
	mt_task_list_ts = ts;
	mt_task_list_cpu = raw_smp_processor_id();
	rcu_read_lock();
	for_each_process_thread(g, t) {
		struct mt_task_name *n;

		if (mt_task_list_len == mt_task_list_cap) {
			mt_task_list_truncated++;
			continue;
		}
		n = &mt_task_list[mt_task_list_len];
		/* de_thread() may change it under us. */
		n->pid = READ_ONCE(t->pid);
		/* Without task_lock(), as mt_log_comm() does. */
		data_race(memcpy(n->comm, t->comm, TASK_COMM_LEN));
		n->comm[TASK_COMM_LEN - 1] = '\0';
		mt_comm_remember(n->pid, n->comm);
		mt_task_list_len++;
	}
	rcu_read_unlock();
}

/*
 * No reader and no writer may use them.  Return: 0, or -EBUSY if a dump
 * on oops still reads them (a dump stays off from here until a start has
 * set up new buffers).
 */
static int mt_free_locked(void)
{
	int ret = mt_oops_hold();

	if (ret)
		return ret;
	mt_ring_free();
	mt_free_names();
	return 0;
}

/* Buffers and the name cache, allocated on the first start. */
static int mt_alloc_locked(void)
{
	unsigned int i;
	int ret;

	if (mt_ring_allocated() && mt_comm_cache)
		return 0;
	/* One without the other: start over. */
	ret = mt_free_locked();
	if (ret)
		return ret;
	mt_comm_cache = kvmalloc_array(MT_COMM_SLOTS, sizeof(*mt_comm_cache),
				       MT_GFP);
	if (!mt_comm_cache)
		return -ENOMEM;
	for (i = 0; i < MT_COMM_SLOTS; i++)
		mt_comm_cache[i].pid = MT_COMM_EMPTY;
	ret = mt_ring_alloc(mt_buf_size_kb);
	if (ret) {
		mt_free_names();
		return ret;
	}
	return 0;
}

/* Afterwards no writer is inside a buffer: the buffers may be read. */
static void mt_stop_locked(void)
{
	WRITE_ONCE(mt_tracing, false);
	mt_hooks_put(&mt_holds_hooks);
	synchronize_rcu();
	mt_pipe_wake();
}

/* Whether a CPU refused a record since the reset. */
static bool mt_refused(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (mt_ring_dropped(cpu))
			return true;
	return false;
}

/*
 * Whether the trace ended while its start walked the tasks: a name was
 * refused (counted, but with no trace running to stop), or an oops
 * dumped the buffers, which stay as they were then.
 */
static bool mt_ended_while_naming(void)
{
	return mt_refused() || mt_oops_dumped();
}

/*
 * Once the walk is done: let the hooks log moves too, unless the trace
 * ended meanwhile.  An end can come as moves are let in; then they are
 * stopped again at once, with no preemption in between.
 */
static void mt_let_moves_in(void)
{
	preempt_disable();
	if (!mt_ended_while_naming()) {
		/* The release publishes the buffers to mt_trace_running(). */
		smp_store_release(&mt_tracing, true);
		/* Pairs with mt_buffer_full()'s and the dump's barriers. */
		smp_mb();
		if (mt_ended_while_naming())
			WRITE_ONCE(mt_tracing, false);
	}
	/* Not before mt_tracing is set: see mt_names_wanted(). */
	smp_store_release(&mt_naming, false);
	preempt_enable();
}

/*
 * The first start since the reset.  Names come before moves: the hooks
 * name new and renamed tasks while the walk copies the names of the
 * others, and moves are logged only once the walk is done.  The other
 * way round, a task could move, exit and be reaped before the walk got
 * to it, and its moves would have no name.
 */
static int mt_start_new_locked(void)
{
	int cpu, ret;
	u64 now;

	ret = mt_alloc_locked();
	if (ret)
		return ret;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(&mt_rings, cpu)->start.ts = 0;
	cpus_read_lock();
	on_each_cpu(mt_take_start_clock, NULL, 1);
	mt_take_topology();
	cpus_read_unlock();
	mt_clock_offset = mt_measure_clock_offset();
	now = local_clock();
	mt_oops_release();
	mt_hooks_get(&mt_holds_hooks);
	/* As late as can be: tasks forked until now need no spare room. */
	ret = mt_alloc_task_list();
	if (ret) {
		mt_hooks_put(&mt_holds_hooks);
		/* The dump may be reading the buffers: then keep them. */
		mt_free_locked();
		return ret;
	}
	/* The release publishes the buffers to mt_names_wanted(). */
	smp_store_release(&mt_naming, true);
	/*
	 * A task linked before this is in the list; one linked after it
	 * names itself.  Pairs with the smp_mb() of __mt_copy_process(), or
	 * for a fork that ran the hook's old code, with the IPIs by which
	 * mt_hooks_get() patched it.
	 */
	smp_mb();
	/* An oops since the arming dumps the buffers: no more names then. */
	if (mt_ended_while_naming())
		mt_stop_writers();
	mt_take_task_list(now);
	mt_let_moves_in();
	/* Readers of an unlocked mt_started see the buffers and names. */
	smp_store_release(&mt_started, true);
	if (!READ_ONCE(mt_tracing))
		mt_stop_locked();
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
	mt_trace_starts++;
#endif
	mt_pipe_wake();
	return 0;
}

static int mt_start_locked(bool allow_restart)
{
	if (READ_ONCE(mt_tracing))
		return 0;
	if (mt_trace_readers)
		return -EBUSY;
	if (!mt_started)
		return mt_start_new_locked();
	/* Tools assume one continuous trace: a restart is opt-in. */
	if (!allow_restart)
		return -EBUSY;
	if (mt_refused())
		return -ENOSPC;
	mt_oops_release();
	/* The release publishes the buffers to mt_trace_running(). */
	smp_store_release(&mt_tracing, true);
	mt_hooks_get(&mt_holds_hooks);
	mt_pipe_wake();
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/*
 * The benchmark's own trace: a new one, from a reset state, so that no
 * user's trace receives the benchmark's moves; mt_trace_starts then
 * names it.  Return: 0, -EBUSY if a trace ran since the reset, or a
 * start's error.
 */
int mt_bench_start_trace_locked(void)
{
	if (READ_ONCE(mt_tracing) || mt_started)
		return -EBUSY;
	return mt_start_locked(false);
}
#endif

VISIBLE_IF_KUNIT int mt_reset_locked(void)
{
	int ret;

	if (mt_trace_readers || mt_pipe_busy())
		return -EBUSY;
	mt_stop_locked();
	ret = mt_free_locked();
	if (ret)
		return ret;
	WRITE_ONCE(mt_started, false);
	mt_pipe_reset();
	return 0;
}

/* A trace started since the reset: its buffers and names are set up. */
bool mt_trace_started(void)
{
	/* Pairs with the release in mt_start_new_locked(). */
	return smp_load_acquire(&mt_started);
}

/**
 * mt_trace_enable() - start or stop the migration trace
 * @enable: 1 to start tracing, 0 to stop it
 * @allow_restart: if 0, refuse to start again before a reset
 *
 * The analysis tools assume one continuous trace, so by default a trace
 * that was stopped must be read and reset before the next one starts.
 * With @allow_restart a stopped trace is continued instead, unless its
 * buffer already filled up; tasks created while it was stopped have no
 * name in it.  Starting a running trace and stopping a
 * stopped one succeed and change nothing.  The first start after a reset
 * allocates the buffers.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad @enable, -EBUSY if a trace ran
 * since the reset (and @allow_restart is 0) or the trace file is open,
 * -ENOSPC if a restarted trace would have no room, -ENOMEM if the buffers
 * cannot be allocated.
 */
int mt_trace_enable(int enable, int allow_restart)
{
	int ret = 0;

	if (enable != 0 && enable != 1)
		return -EINVAL;
	/* A start may free buffers a dump reads: wait for it unlocked. */
	mt_oops_wait();
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
 * trace is stopped, or when called from NMI.
 *
 * Context: Any context; ignored in NMI.
 */
void mt_trace_mark(unsigned long mark)
{
	mt_log_mark(mark);
}
EXPORT_SYMBOL_GPL(mt_trace_mark);

static ssize_t mt_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(mt_tracing));
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
	.read	= mt_enable_read,
	.write	= mt_enable_write,
	.llseek	= default_llseek,
};

static ssize_t mt_mark_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret, cpu;

	ret = mt_parse_ulong(ubuf, count, true, &val);
	if (ret)
		return ret;
	/* A mark that cannot be recorded is an error, not a silent no-op. */
	ret = mt_log_mark(val);
	if (ret == -EINVAL) {
		mutex_lock(&mt_mutex);
		for_each_possible_cpu(cpu)
			if (mt_ring_allocated() && mt_ring_dropped(cpu))
				ret = -ENOSPC;
		mutex_unlock(&mt_mutex);
	}
	return ret ? ret : count;
}

static const struct file_operations mt_mark_fops = {
	.write	= mt_mark_write,
	.llseek	= noop_llseek,
};

/*
 * A dump on oops still reading the buffers is waited for without
 * mt_mutex: it may take seconds on a slow console, and every control
 * file needs the mutex.
 */
VISIBLE_IF_KUNIT int mt_trace_reset(void)
{
	int ret;

	mt_oops_wait();
	mutex_lock(&mt_mutex);
	ret = mt_reset_locked();
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	int ret = mt_parse_reset(ubuf, count);

	if (!ret)
		ret = mt_trace_reset();
	return ret ? ret : count;
}

static const struct file_operations mt_reset_fops = {
	.write	= mt_reset_write,
	.llseek	= noop_llseek,
};

/*
 * Settings of the buffers (overwrite, buffer_size_kb) change only while
 * the buffers are empty: after a reset, before the first start.
 */
static int mt_settable_locked(void)
{
	return mt_started || mt_pipe_busy() || mt_trace_readers ? -EBUSY : 0;
}

static ssize_t mt_overwrite_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(mt_overwrite));
}

static ssize_t mt_overwrite_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&mt_mutex);
	ret = mt_settable_locked();
	if (!ret)
		WRITE_ONCE(mt_overwrite, on);
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations mt_overwrite_fops = {
	.read	= mt_overwrite_read,
	.write	= mt_overwrite_write,
	.llseek	= default_llseek,
};

static ssize_t mt_size_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(mt_buf_size_kb));
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
	mutex_lock(&mt_mutex);
	ret = mt_settable_locked();
	if (!ret)
		WRITE_ONCE(mt_buf_size_kb, val);
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations mt_size_fops = {
	.read	= mt_size_read,
	.write	= mt_size_write,
	.llseek	= default_llseek,
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
	u64 entries, total[3] = { }, pipe_clamped = mt_pipe_clamped();
	unsigned long clamped = 0, nobuf = 0;
	int cpu;

	mutex_lock(&mt_mutex);
	mt_pipe_lock_reader();
	seq_puts(m, "# cpu entries dropped overwritten\n");
	if (mt_ring_allocated()) {
		for_each_possible_cpu(cpu) {
			u64 lost = mt_ring_overwritten(cpu);

			entries = mt_ring_entries(cpu);
			seq_printf(m, "%d %llu %lu %llu\n", cpu, entries,
				   mt_ring_dropped(cpu), lost);
			total[0] += entries;
			total[1] += mt_ring_dropped(cpu);
			total[2] += lost;
			clamped += mt_ring_clamped(cpu);
		}
	}
	seq_printf(m, "total %llu %llu %llu\n", total[0], total[1], total[2]);
	seq_printf(m, "clamped %lu %llu\n", clamped, pipe_clamped);
	for_each_possible_cpu(cpu)
		nobuf += mt_ring_nobuf(cpu);
	/* The memory the buffers take, which follows the CPUs online. */
	seq_printf(m, "# buffer_cpus %u\n", mt_ring_nr_buffers());
	seq_printf(m, "# buffer_bytes %llu\n", mt_ring_total_bytes());
	seq_printf(m, "# nobuf %lu\n", nobuf);
	mt_pipe_unlock_reader();
	mutex_unlock(&mt_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mt_stats);

void __init mt_trace_init(struct dentry *dir)
{
	debugfs_create_file("enable", 0600, dir, NULL, &mt_enable_fops);
	debugfs_create_file("mark", 0200, dir, NULL, &mt_mark_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &mt_reset_fops);
	debugfs_create_file("overwrite", 0600, dir, NULL, &mt_overwrite_fops);
	debugfs_create_file("buffer_size_kb", 0600, dir, NULL, &mt_size_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &mt_stats_fops);
	mt_ring_init();
	mt_output_init(dir);
	mt_oops_init(dir);
	mt_pipe_init(dir);
}
