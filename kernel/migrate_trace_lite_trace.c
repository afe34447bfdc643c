// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's control: start, stop and reset, the records the
 * hooks log, marks, the names of tasks, and the debugfs control files of
 * migration_trace/.  The buffers are in migrate_trace_lite_ring.c; the
 * readers have files of their own.
 *
 * Buffers are allocated when buffer_size_kb is written, or else when a
 * trace first starts, not at boot, and freed by a reset: nothing is
 * pinned while the trace is unused.  Whoever
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

#include "migrate_trace_lite_trace.h"

bool mt_tracing;
struct mt_filter mt_trace_filter = {
	.mask = { [MT_CAUSE_NONE + 1 ... MT_CAUSE_END - 1] = ~0ULL },
};

struct mt_pids mt_trace_pids;
unsigned long *mt_pid_bits;

DEFINE_STATIC_KEY_FALSE(mt_filter_key);
unsigned long mt_buf_size_kb = CONFIG_SNSC_LITE_MIGRATION_TRACE_BUF_SIZE;
unsigned int mt_trace_readers;
s64 mt_clock_offset;

/* Names are logged while a start walks the tasks; see mt_start_new_locked(). */
static bool mt_naming;

/* Under mt_mutex: */
static bool mt_holds_hooks;
static bool mt_started;			/* a trace ran since the reset */
static bool mt_filters_armed;		/* a start armed the filters' key */
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
unsigned long mt_trace_starts;		/* new traces since boot, for the benchmark */
#endif

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

/**
 * mt_comm_lookup() - the name this trace remembers for a pid
 * @pid: the pid
 * @comm: set to the name, TASK_COMM_LEN bytes
 *
 * The cache keeps one name per slot, so a name may be forgotten.
 *
 * Context: any; lockless.
 * Return: true if the name is known.
 */
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
	mt_reader_wake();
}

static DEFINE_IRQ_WORK(mt_full_irq_work, mt_full_irq_workfn);

/**
 * mt_buffer_full() - a record was refused: count it and stop the trace
 * @ts: the refused record's time
 *
 * A worker then drops the hooks' key and wakes the reader, which a writer
 * cannot do.  A CPU without a buffer at all only counts it: the other
 * CPUs trace on.
 *
 * Context: a writer, irqs off.
 */
void mt_buffer_full(u64 ts)
{
	if (!mt_ring_drop(ts))
		return;
	/* Pairs with mt_let_moves_in(): one of us stops the trace. */
	smp_mb();
	if (READ_ONCE(mt_tracing)) {
		WRITE_ONCE(mt_tracing, false);
		irq_work_queue(&mt_full_irq_work);
	}
}

/**
 * mt_stop_writers() - stop the hooks' logging at once, for the oops dump
 *
 * Leaves the hooks' key and the buffers as they are.
 *
 * Context: any.
 */
void mt_stop_writers(void)
{
	WRITE_ONCE(mt_tracing, false);
	WRITE_ONCE(mt_naming, false);
}

/* Commit a name or a mark, and nudge a consuming reader that waits. */
static void mt_commit(void *rec)
{
	mt_ring_commit(rec);
	mt_reader_kick(false);
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

/**
 * mt_follow_fork() - a trace that follows forks selects a selected task's child
 * @p: the new task; current forked it
 *
 * While names are wanted, as @p's is: a task whose fork the trace shows
 * is followed, from the start's walk of the tasks on.  A set_bit(), so
 * that forks need no lock and no allocation.
 *
 * Context: the fork hook, behind mt_filter_key; disables interrupts.
 */
void mt_follow_fork(struct task_struct *p)
{
	unsigned long flags;

	local_irq_save(flags);
	/* The pids and their bits change only while no trace started. */
	if (mt_names_wanted() && mt_pid_bits && mt_trace_pids.fork &&
	    mt_pids_match(mt_pid_bits, current->pid) &&
	    (unsigned int)p->pid < PID_MAX_LIMIT)
		set_bit(p->pid, mt_pid_bits);
	local_irq_restore(flags);
}

/**
 * mt_log_comm() - log a task's name, while names are wanted
 * @type: MT_EV_COPY_PROCESS or MT_EV_SET_TASK_COMM
 * @p: the task
 *
 * Names are wanted while tracing and while a start walks the tasks.
 *
 * Context: the name hooks, in process context; disables interrupts.
 */
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

/**
 * mt_log_mark() - log a mark of the current task
 * @mark: the mark's value
 *
 * Context: any; refused in NMI.
 * Return: 0, -EINVAL if no trace runs or in NMI, or -ENOSPC if the buffer
 * is full or this CPU has none.
 */
int mt_log_mark(unsigned long mark)
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

/**
 * mt_take_task_list() - copy the name of every task into the task list
 * @ts: the time of the list in the trace
 *
 * Tasks beyond the list's room are counted as truncated.  A KUnit stub
 * may catch it.
 *
 * Context: under mt_mutex, at a start.
 */
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
	int ret = mt_dump_hold();

	if (ret)
		return ret;
	mt_ring_free();
	mt_free_names();
	return 0;
}

/* The name cache, if not there yet. */
static int mt_alloc_names_locked(void)
{
	unsigned int i;

	if (mt_comm_cache)
		return 0;
	mt_comm_cache = kvmalloc_array(MT_COMM_SLOTS, sizeof(*mt_comm_cache),
				       MT_GFP);
	if (!mt_comm_cache)
		return -ENOMEM;
	for (i = 0; i < MT_COMM_SLOTS; i++)
		mt_comm_cache[i].pid = MT_COMM_EMPTY;
	return 0;
}

/*
 * Buffers of @size_kb and the name cache, for a trace not started yet:
 * what is there already is kept, buffers of another size replace those
 * there.  On failure what was there stays, and nothing more.
 */
static int mt_alloc_locked(unsigned long size_kb)
{
	bool had_names = mt_comm_cache;
	int ret;

	if (mt_ring_allocated() && size_kb == mt_buf_size_kb && had_names)
		return 0;
	/* Until a start arms it again: no dump reads buffers being replaced. */
	ret = mt_dump_hold();
	if (ret)
		return ret;
	ret = mt_alloc_names_locked();
	if (ret)
		return ret;
	if (!mt_ring_allocated() || size_kb != mt_buf_size_kb)
		ret = mt_ring_alloc(size_kb);
	if (ret) {
		if (!had_names) {
			kvfree(mt_comm_cache);
			mt_comm_cache = NULL;
		}
		return ret;
	}
	WRITE_ONCE(mt_buf_size_kb, size_kb);
	return 0;
}

/**
 * mt_trace_resize_locked() - set the buffers' size, and allocate them now
 * @size_kb: each online CPU's buffer, in KiB
 *
 * So that the start that follows allocates nothing: it may have to be
 * made close to the events studied, and should be light.  Buffers of the
 * same size already allocated stay as they are; those of another size
 * are replaced, the new ones allocated first.
 *
 * Context: under mt_mutex, no trace started since the reset and nobody
 * reading; sleeps.
 * Return: 0, -EINVAL if @size_kb is too small, -EBUSY if a dump on oops
 * still reads the buffers, or -ENOMEM; on failure the size and the
 * buffers stay as they were.
 */
int mt_trace_resize_locked(unsigned long size_kb)
{
	lockdep_assert_held(&mt_mutex);
	return mt_alloc_locked(size_kb);
}

/**
 * mt_stop_locked() - stop the trace and wait for its writers
 *
 * Afterwards no writer is inside a buffer: the buffers may be read.
 *
 * Context: under mt_mutex; sleeps.
 */
void mt_stop_locked(void)
{
	WRITE_ONCE(mt_tracing, false);
	mt_hooks_put(&mt_holds_hooks);
	synchronize_rcu();
	mt_reader_wake();
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
	return mt_refused() || mt_dump_dumped();
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
 * The hooks' filtered path is on while either filter leaves moves out of
 * a trace started since the reset: a filter written for the next trace
 * sends no hook out of line while only the stat or the event collects.
 */
static void mt_filter_key_update_locked(void)
{
	bool on = mt_filters_armed &&
		  (!mt_filter_is_all(&mt_trace_filter) || mt_trace_pids.nr);

	if (on == static_key_enabled(&mt_filter_key))
		return;
	if (on) {
		static_branch_enable(&mt_filter_key);
		static_branch_inc(&mt_rare_key);
	} else {
		static_branch_disable(&mt_filter_key);
		static_branch_dec(&mt_rare_key);
	}
}

/* A start or a reset: the filters' key follows whether a trace started. */
static void mt_filters_arm_locked(bool armed)
{
	mt_filters_armed = armed;
	mt_filter_key_update_locked();
}

/*
 * The pids a new trace selects: those written, without the children an
 * earlier trace followed.  No writer reads the bits: the start has not
 * published them yet, and the last trace was reset.
 */
static void mt_pids_arm(void)
{
	unsigned int i;

	if (!mt_pid_bits)
		return;
	bitmap_zero(mt_pid_bits, PID_MAX_LIMIT);
	for (i = 0; i < mt_trace_pids.nr; i++)
		__set_bit(mt_trace_pids.pid[i], mt_pid_bits);
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
	/* Allocated by a write of buffer_size_kb since the reset: kept. */
	bool had = mt_ring_allocated() && mt_comm_cache;
	int cpu, ret;
	u64 now;

	/* Nothing to do if buffer_size_kb was written since the reset. */
	ret = mt_alloc_locked(mt_buf_size_kb);
	if (ret)
		return ret;
	mt_pids_arm();
	for_each_possible_cpu(cpu)
		per_cpu_ptr(&mt_rings, cpu)->start.ts = 0;
	cpus_read_lock();
	on_each_cpu(mt_take_start_clock, NULL, 1);
	mt_take_topology();
	cpus_read_unlock();
	mt_clock_offset = mt_clock_offset_now();
	now = local_clock();
	mt_dump_release();
	/* Before names are wanted: forks are followed from the walk on. */
	mt_filters_arm_locked(true);
	mt_hooks_get(&mt_holds_hooks);
	/* As late as can be: tasks forked until now need no spare room. */
	ret = mt_alloc_task_list();
	if (ret) {
		mt_hooks_put(&mt_holds_hooks);
		mt_filters_arm_locked(false);
		/*
		 * No trace started: the dump is disarmed again, and the
		 * buffers go unless a write of buffer_size_kb made them.  A
		 * dump that already reads them keeps them, armed or not.
		 */
		if (had)
			mt_dump_hold();
		else
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
	mt_reader_wake();
	return 0;
}

/**
 * mt_start_locked() - start the trace, or continue a stopped one
 * @allow_restart: continue a trace that ran since the reset
 *
 * The first start after a reset allocates the buffers and names the
 * tasks.  Starting a running trace does nothing.
 *
 * Context: under mt_mutex; sleeps.
 * Return: 0, -EBUSY if the trace file is open or (without
 * @allow_restart) a trace ran since the reset, -ENOSPC if a restarted
 * trace has no room, or -ENOMEM.
 */
int mt_start_locked(bool allow_restart)
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
	mt_dump_release();
	/* The release publishes the buffers to mt_trace_running(). */
	smp_store_release(&mt_tracing, true);
	mt_hooks_get(&mt_holds_hooks);
	mt_reader_wake();
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/**
 * mt_bench_start_trace_locked() - start the benchmark's own trace
 *
 * Only from a reset state, so that no user's trace receives the
 * benchmark's moves; mt_trace_starts then names it.
 *
 * Context: under mt_mutex; sleeps.
 * Return: 0, -EBUSY if a trace runs or ran since the reset, or an error
 * of mt_start_locked().
 */
int mt_bench_start_trace_locked(void)
{
	if (READ_ONCE(mt_tracing) || mt_started)
		return -EBUSY;
	return mt_start_locked(false);
}
#endif


/**
 * mt_trace_set_filter_locked() - set the moves the next trace records
 * @f: the filter
 *
 * The hooks test the filter only behind mt_filter_key, and reach it
 * behind mt_rare_key, so that a trace of every move pays nothing for it;
 * both go on when the trace starts, not here.
 *
 * Context: under mt_mutex, with no trace started since the reset (no
 * writer reads the filter); may sleep.
 */
void mt_trace_set_filter_locked(const struct mt_filter *f)
{
	lockdep_assert_held(&mt_mutex);
	mt_trace_filter = *f;
	mt_filter_key_update_locked();
}

/**
 * mt_trace_set_pids_locked() - set the tasks the next trace records
 * @p: the pids and whether forks are followed
 *
 * The first pid allocates the bits of every pid there can be (512 KiB
 * on 64 bit), so that a fork can select its child without allocating;
 * selecting every task frees them.  The pids share mt_filter_key with
 * the filter of causes.
 *
 * Context: under mt_mutex, with no trace started since the reset (no
 * writer reads the pids); may sleep.
 * Return: 0, or -ENOMEM, the pids unchanged.
 */
int mt_trace_set_pids_locked(const struct mt_pids *p)
{
	unsigned long *bits = mt_pid_bits;

	lockdep_assert_held(&mt_mutex);
	if (!p->nr) {
		mt_trace_clear_pids_locked(p->fork);
		return 0;
	}
	if (!bits) {
		bits = kvmalloc_array(BITS_TO_LONGS(PID_MAX_LIMIT),
				      sizeof(unsigned long), MT_GFP);
		if (!bits)
			return -ENOMEM;
	}
	mt_trace_pids = *p;
	mt_pid_bits = bits;
	mt_pids_arm();
	mt_filter_key_update_locked();
	return 0;
}

/**
 * mt_trace_clear_pids_locked() - let the next trace record every task
 * @fork: the event_fork setting to keep
 *
 * Allocates nothing, so that it cannot fail: a release of set_event_pid
 * opened with O_TRUNC clears the pids with it.
 *
 * Context: under mt_mutex, with no trace started since the reset; may
 * sleep.
 */
void mt_trace_clear_pids_locked(bool fork)
{
	lockdep_assert_held(&mt_mutex);
	mt_trace_pids.nr = 0;
	mt_trace_pids.fork = fork;
	kvfree(mt_pid_bits);
	mt_pid_bits = NULL;
	mt_filter_key_update_locked();
}

/**
 * mt_reset_locked() - stop the trace and free its buffers and names
 *
 * The next start begins a new trace, and the next trace_pipe reader a
 * new stream.
 *
 * Context: under mt_mutex; sleeps.
 * Return: 0, or -EBUSY if the trace file or trace_pipe is open, or a dump
 * still reads the buffers.
 */
VISIBLE_IF_KUNIT int mt_reset_locked(void)
{
	int ret;

	if (mt_trace_readers || mt_reader_busy())
		return -EBUSY;
	mt_stop_locked();
	ret = mt_free_locked();
	if (ret)
		return ret;
	mt_filters_arm_locked(false);
	WRITE_ONCE(mt_started, false);
	mt_reader_reset();
	return 0;
}

/**
 * mt_trace_started() - whether a trace started since the reset
 *
 * Context: any; lockless.
 * Return: true if so; its buffers and names are then set up.
 */
bool mt_trace_started(void)
{
	/* Pairs with the release in mt_start_new_locked(). */
	return smp_load_acquire(&mt_started);
}

