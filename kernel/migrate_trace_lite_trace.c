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
 * needs the writers quiet (dump, reset) clears tr->tracing (and the dump
 * tr->naming, set while a start walks the tasks) and calls
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

/* The top trace: migration_trace/ itself, the default instance. */
struct mt_trace mt_top = {
	.filter = {
		.mask = { [MT_CAUSE_NONE + 1 ... MT_CAUSE_END - 1] = ~0ULL },
	},
	.buf_size_kb = CONFIG_SNSC_LITE_MIGRATION_TRACE_BUF_SIZE,
	.dumps = true,
	.id = -1,
};

DEFINE_STATIC_KEY_FALSE(mt_filter_key);
DEFINE_STATIC_KEY_FALSE(mt_instances_key);

/*
 * The instances, by slot; set under mt_mutex, read by the hooks with
 * interrupts disabled (an RCU read-side section).  mt_instances_armed:
 * the slots of those started since their reset, which the hooks' loop
 * visits; set under mt_mutex with mt_instances_key.
 */
struct mt_trace __rcu *mt_instances[MT_INSTANCES_MAX];
unsigned long mt_instances_armed;

static void mt_instance_keys_locked(struct mt_trace *tr, bool on);

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

static void mt_comm_remember(struct mt_trace *tr, pid_t pid, const char *comm)
{
	struct mt_comm_slot *s = &tr->comm_cache[pid % MT_COMM_SLOTS];
	u32 old = READ_ONCE(s->pid);

	if (old == MT_COMM_BUSY || cmpxchg(&s->pid, old, MT_COMM_BUSY) != old)
		return;
	memcpy(s->comm, comm, TASK_COMM_LEN);
	/* The name is in place before the slot is released to it. */
	smp_store_release(&s->pid, pid);
}

/**
 * mt_comm_lookup() - the name a trace remembers for a pid
 * @tr: the trace
 * @pid: the pid
 * @comm: set to the name, TASK_COMM_LEN bytes
 *
 * The cache keeps one name per slot, so a name may be forgotten.
 *
 * Context: any; lockless.
 * Return: true if the name is known.
 */
bool mt_comm_lookup(struct mt_trace *tr, pid_t pid, char *comm)
{
	struct mt_comm_slot *s;

	if (!tr->comm_cache)
		return false;
	s = &tr->comm_cache[pid % MT_COMM_SLOTS];
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
	struct mt_trace *tr = container_of(work, struct mt_trace, release_work);

	mutex_lock(&mt_mutex);
	if (!READ_ONCE(tr->tracing)) {
		mt_hooks_put(&tr->holds_hooks);
		mt_instance_keys_locked(tr, false);
	}
	mutex_unlock(&mt_mutex);
}

/* A writer that found its buffer full cannot flip a key or wake; a worker can. */
static void mt_full_irq_workfn(struct irq_work *work)
{
	struct mt_trace *tr = container_of(work, struct mt_trace, full_irq_work);

	schedule_work(&tr->release_work);
	mt_reader_wake(&tr->rd);
}

/**
 * mt_buffer_full() - a record was refused: count it and stop the trace
 * @tr: the trace
 * @ts: the refused record's time
 *
 * A worker then drops the hooks' key and wakes the reader, which a writer
 * cannot do.  A CPU without a buffer at all only counts it: the other
 * CPUs trace on.
 *
 * Context: a writer, irqs off.
 */
void mt_buffer_full(struct mt_trace *tr, u64 ts)
{
	if (!mt_ring_drop(this_cpu_ptr(tr->buf.rings), ts))
		return;
	/* Pairs with mt_let_moves_in(): one of us stops the trace. */
	smp_mb();
	if (READ_ONCE(tr->tracing)) {
		WRITE_ONCE(tr->tracing, false);
		irq_work_queue(&tr->full_irq_work);
	}
}

static void mt_tr_stop_writers(struct mt_trace *tr)
{
	WRITE_ONCE(tr->tracing, false);
	WRITE_ONCE(tr->naming, false);
}

/**
 * mt_stop_writers() - stop the top trace's logging at once, for the oops dump
 *
 * Leaves the hooks' key and the buffers as they are.
 *
 * Context: any.
 */
void mt_stop_writers(void)
{
	mt_tr_stop_writers(&mt_top);
}

/* Commit a name or a mark in @r, and nudge a consuming reader that waits. */
static void mt_commit(struct mt_trace *tr, struct mt_ring *r, void *rec)
{
	mt_ring_commit(r, rec);
	mt_reader_kick(&tr->rd, false);
}

/*
 * Log the name @comm of @pid at @now; interrupts off, tracing.  The name
 * is copied without task_lock(): one torn by a racing rename is harmless,
 * and the race is marked for KCSAN.  Return: false if the buffer is full.
 */
static bool mt_log_name(struct mt_trace *tr, unsigned int type, pid_t pid,
			const char *comm, u64 now)
{
	struct mt_ring *ring = this_cpu_ptr(tr->buf.rings);
	struct mt_rec_comm *r = mt_ring_write(ring, sizeof(*r), type, now);

	if (!r) {
		mt_buffer_full(tr, now);
		return false;
	}
	r->pid = pid;
	/* Racy with a rename, see above. */
	data_race(memcpy(r->comm, comm, sizeof(r->comm)));
	r->comm[sizeof(r->comm) - 1] = '\0';
	r->unused = 0;
	mt_comm_remember(tr, r->pid, r->comm);
	mt_commit(tr, ring, r);
	return true;
}

/* Whether the name hooks log: while tracing, and while a start walks the tasks. */
static bool mt_names_wanted(struct mt_trace *tr)
{
	/*
	 * A start sets tr->tracing before it clears tr->naming: read them the
	 * other way round.  Each acquire pairs with a release of the start.
	 */
	return smp_load_acquire(&tr->naming) || mt_tr_running(tr);
}

/*
 * The instance in slot @i, for the hooks: interrupts disabled, which
 * makes them RCU readers; rmdir waits for them before it frees one.
 */
static struct mt_trace *mt_instance(int i)
{
	return rcu_dereference_check(mt_instances[i], irqs_disabled());
}

/* Select @p for @tr if it follows forks and selected the forking task. */
static void mt_tr_follow_fork(struct mt_trace *tr, struct task_struct *p)
{
	/* The pids and their bits change only while no trace started. */
	if (mt_names_wanted(tr) && tr->pid_bits && tr->pids.fork &&
	    mt_pids_match(tr->pid_bits, current->pid) &&
	    (unsigned int)p->pid < PID_MAX_LIMIT)
		set_bit(p->pid, tr->pid_bits);
}

/**
 * mt_follow_fork() - a trace that follows forks selects a selected task's child
 * @p: the new task; current forked it
 *
 * While names are wanted, as @p's is: a task whose fork the trace shows
 * is followed, from the start's walk of the tasks on.  A set_bit(), so
 * that forks need no lock and no allocation.  The (unsigned) bound only
 * keeps out KUnit's made-up pids.
 *
 * Context: the fork hook, behind mt_filter_key or mt_instances_key;
 * disables interrupts.
 */
void mt_follow_fork(struct task_struct *p)
{
	unsigned long flags;
	int i;

	local_irq_save(flags);
	mt_tr_follow_fork(&mt_top, p);
	if (mt_instances_on()) {
		for (i = 0; i < MT_INSTANCES_MAX; i++) {
			struct mt_trace *tr = mt_instance(i);

			if (tr)
				mt_tr_follow_fork(tr, p);
		}
	}
	local_irq_restore(flags);
}

/* Log @p's name in @tr if it wants names; interrupts off. */
static void mt_tr_log_comm(struct mt_trace *tr, unsigned int type,
			   struct task_struct *p)
{
	if (!mt_names_wanted(tr))
		return;
	mt_writer_begin();
	mt_log_name(tr, type, p->pid, p->comm, local_clock());
	mt_writer_end();
}

/**
 * mt_log_comm() - log a task's name, in every trace that wants names
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
	int i;

	local_irq_save(flags);
	mt_tr_log_comm(&mt_top, type, p);
	if (mt_instances_on()) {
		for (i = 0; i < MT_INSTANCES_MAX; i++) {
			struct mt_trace *tr = mt_instance(i);

			if (tr)
				mt_tr_log_comm(tr, type, p);
		}
	}
	local_irq_restore(flags);
}

/**
 * mt_name_exiting() - name an exiting task that is about to move
 * @tr: the trace that logs the move
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
bool mt_name_exiting(struct mt_trace *tr, struct task_struct *p, u64 now)
{
	/* A de_thread() may change the pid of a zombie leader: read it once. */
	pid_t pid = READ_ONCE(p->pid);
	struct mt_comm_slot *s = &tr->comm_cache[pid % MT_COMM_SLOTS];

	if (!READ_ONCE(p->exit_state) || READ_ONCE(s->pid) == (u32)pid)
		return true;
	if (mt_log_name(tr, MT_EV_SET_TASK_COMM, pid, p->comm, now))
		return true;
	mt_ring_drop(this_cpu_ptr(tr->buf.rings), now);
	return false;
}

/**
 * mt_tr_log_move_slow() - log a move in an instance, the ring's slow path
 * @tr: the instance
 * @ring: its ring of this CPU
 * @p: the task that moves
 * @to: the CPU it moves to
 * @why: MT_WHY(cause, reason) of the move
 * @now: the time of the move
 *
 * For an exiting task, which is named first, and a record that needs a
 * new chunk or time base: mt_tr_log_move()'s rare cases.  The ring's
 * slow path appends where the fast one would too.
 *
 * Context: the hooks' out-of-line path, the instance's writer busy.
 */
void mt_tr_log_move_slow(struct mt_trace *tr, struct mt_ring *ring,
			 struct task_struct *p, unsigned int to,
			 unsigned int why, u64 now)
{
	struct mt_rec_migrate *r;

	if (unlikely(p->flags & PF_EXITING) && !mt_name_exiting(tr, p, now))
		return;
	r = mt_ring_write_slow(ring, sizeof(*r), why & 0xff, why >> 8, now);
	if (unlikely(!r)) {
		mt_buffer_full(tr, now);
		return;
	}
	r->from = task_cpu(p);
	r->to = to;
	r->pid = p->pid;
	mt_ring_advance(ring, sizeof(*r));
	mt_reader_kick(&tr->rd, true);
}

/**
 * mt_log_mark() - log a mark of the current task
 * @tr: the trace
 * @mark: the mark's value
 *
 * Context: any; refused in NMI.
 * Return: 0, -EINVAL if no trace runs or in NMI, or -ENOSPC if the buffer
 * is full or this CPU has none.
 */
int mt_log_mark(struct mt_trace *tr, unsigned long mark)
{
	struct mt_ring *ring;
	struct mt_rec_mark *r;
	unsigned long flags;
	int ret = -EINVAL;
	u64 now;

	/* An NMI can come between another writer's timestamp and commit. */
	if (in_nmi())
		return -EINVAL;
	local_irq_save(flags);
	if (mt_tr_running(tr)) {
		ring = this_cpu_ptr(tr->buf.rings);
		mt_writer_begin();
		now = local_clock();
		r = mt_ring_write(ring, sizeof(*r), MT_EV_MARK, now);
		if (r) {
			r->pid = current->pid;
			r->unused = 0;
			r->mark = mark;
			mt_commit(tr, ring, r);
			ret = 0;
		} else {
			mt_buffer_full(tr, now);
			ret = -ENOSPC;
		}
		mt_writer_end();
	}
	local_irq_restore(flags);
	return ret;
}

/* Runs on every online CPU, interrupts off, when a trace starts. */
static void mt_take_start_clock(void *info)
{
	struct mt_trace *tr = info;
	struct mt_cpu_start *s = &this_cpu_ptr(tr->buf.rings)->start;
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
static void mt_take_topology(struct mt_trace *tr)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		struct mt_cpu_start *s = &per_cpu_ptr(tr->buf.rings, cpu)->start;
		unsigned int core = cpumask_first(topology_sibling_cpumask(cpu));

		s->core = core < nr_cpu_ids ? core : cpu;
		s->llc = cpu;
		for_each_possible_cpu(other) {
			if (other >= cpu)
				break;
			if (per_cpu_ptr(tr->buf.rings, other)->start.llc == other &&
			    cpus_share_cache(other, cpu)) {
				s->llc = other;
				break;
			}
		}
		s->node = cpu_to_node(cpu);
	}
}

static void mt_free_names(struct mt_trace *tr)
{
	kvfree(tr->task_list);
	tr->task_list = NULL;
	tr->task_list_len = 0;
	tr->task_list_cap = 0;
	tr->task_list_truncated = 0;
	kvfree(tr->comm_cache);
	tr->comm_cache = NULL;
}

/*
 * Room for the names of the tasks there are, and of some more created
 * while they are copied; those also name themselves in the buffers.
 */
static int mt_alloc_task_list(struct mt_trace *tr)
{
	tr->task_list_cap = READ_ONCE(nr_threads) + 256;
	tr->task_list = kvmalloc_array(tr->task_list_cap, sizeof(*tr->task_list),
				       MT_GFP);
	return tr->task_list ? 0 : -ENOMEM;
}

/**
 * mt_take_task_list() - copy the name of every task into the task list
 * @tr: the trace
 * @ts: the time of the list in the trace
 *
 * Tasks beyond the list's room are counted as truncated.  A KUnit stub
 * may catch it.
 *
 * Context: under mt_mutex, at a start.
 */
VISIBLE_IF_KUNIT void mt_take_task_list(struct mt_trace *tr, u64 ts)
{
	struct task_struct *g, *t;

	KUNIT_STATIC_STUB_REDIRECT(mt_take_task_list, tr, ts);
	tr->task_list_ts = ts;
	tr->task_list_cpu = raw_smp_processor_id();
	rcu_read_lock();
	for_each_process_thread(g, t) {
		struct mt_task_name *n;

		if (tr->task_list_len == tr->task_list_cap) {
			tr->task_list_truncated++;
			continue;
		}
		n = &tr->task_list[tr->task_list_len];
		/* de_thread() may change it under us. */
		n->pid = READ_ONCE(t->pid);
		/* Without task_lock(), as mt_log_comm() does. */
		data_race(memcpy(n->comm, t->comm, TASK_COMM_LEN));
		n->comm[TASK_COMM_LEN - 1] = '\0';
		mt_comm_remember(tr, n->pid, n->comm);
		tr->task_list_len++;
	}
	rcu_read_unlock();
}

/* The dump on oops reads the top trace only: an instance has none. */
static int mt_tr_dump_hold(struct mt_trace *tr)
{
	return tr->dumps ? mt_dump_hold() : 0;
}

static void mt_tr_dump_release(struct mt_trace *tr)
{
	if (tr->dumps)
		mt_dump_release();
}

static bool mt_tr_dump_dumped(struct mt_trace *tr)
{
	return tr->dumps && mt_dump_dumped();
}

/*
 * No reader and no writer may use them.  Return: 0, or -EBUSY if a dump
 * on oops still reads them (a dump stays off from here until a start has
 * set up new buffers).
 */
static int mt_free_locked(struct mt_trace *tr)
{
	int ret = mt_tr_dump_hold(tr);

	if (ret)
		return ret;
	mt_ring_free(&tr->buf);
	mt_free_names(tr);
	return 0;
}

/* The name cache, if not there yet. */
static int mt_alloc_names_locked(struct mt_trace *tr)
{
	unsigned int i;

	if (tr->comm_cache)
		return 0;
	tr->comm_cache = kvmalloc_array(MT_COMM_SLOTS, sizeof(*tr->comm_cache),
					MT_GFP);
	if (!tr->comm_cache)
		return -ENOMEM;
	for (i = 0; i < MT_COMM_SLOTS; i++)
		tr->comm_cache[i].pid = MT_COMM_EMPTY;
	return 0;
}

/*
 * Buffers of @size_kb and the name cache, for a trace not started yet:
 * what is there already is kept, buffers of another size replace those
 * there.  On failure what was there stays, and nothing more.
 */
static int mt_alloc_locked(struct mt_trace *tr, unsigned long size_kb)
{
	bool had_names = tr->comm_cache;
	int ret;

	if (mt_ring_allocated(&tr->buf) && size_kb == tr->buf_size_kb && had_names)
		return 0;
	/* Until a start arms it again: no dump reads buffers being replaced. */
	ret = mt_tr_dump_hold(tr);
	if (ret)
		return ret;
	ret = mt_alloc_names_locked(tr);
	if (ret)
		return ret;
	if (!mt_ring_allocated(&tr->buf) || size_kb != tr->buf_size_kb)
		ret = mt_ring_alloc(&tr->buf, size_kb);
	if (ret) {
		if (!had_names) {
			kvfree(tr->comm_cache);
			tr->comm_cache = NULL;
		}
		return ret;
	}
	WRITE_ONCE(tr->buf_size_kb, size_kb);
	return 0;
}

/**
 * mt_trace_resize_locked() - set the buffers' size, and allocate them now
 * @tr: the trace
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
int mt_trace_resize_locked(struct mt_trace *tr, unsigned long size_kb)
{
	lockdep_assert_held(&mt_mutex);
	return mt_alloc_locked(tr, size_kb);
}

/**
 * mt_stop_locked() - stop the trace and wait for its writers
 * @tr: the trace
 *
 * Afterwards no writer is inside a buffer: the buffers may be read.
 *
 * Context: under mt_mutex; sleeps.
 */
void mt_stop_locked(struct mt_trace *tr)
{
	WRITE_ONCE(tr->tracing, false);
	mt_hooks_put(&tr->holds_hooks);
	mt_instance_keys_locked(tr, false);
	synchronize_rcu();
	mt_reader_wake(&tr->rd);
}

/* Whether a CPU refused a record since the reset. */
static bool mt_refused(struct mt_trace *tr)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (mt_ring_dropped(&tr->buf, cpu))
			return true;
	return false;
}

/*
 * Whether the trace ended while its start walked the tasks: a name was
 * refused (counted, but with no trace running to stop), or an oops
 * dumped the buffers, which stay as they were then.
 */
static bool mt_ended_while_naming(struct mt_trace *tr)
{
	return mt_refused(tr) || mt_tr_dump_dumped(tr);
}

/*
 * Once the walk is done: let the hooks log moves too, unless the trace
 * ended meanwhile.  An end can come as moves are let in; then they are
 * stopped again at once, with no preemption in between.
 */
static void mt_let_moves_in(struct mt_trace *tr)
{
	preempt_disable();
	if (!mt_ended_while_naming(tr)) {
		/* The release publishes the buffers to mt_trace_running(). */
		smp_store_release(&tr->tracing, true);
		/* Pairs with mt_buffer_full()'s and the dump's barriers. */
		smp_mb();
		if (mt_ended_while_naming(tr))
			WRITE_ONCE(tr->tracing, false);
	}
	/* Not before tr->tracing is set: see mt_names_wanted(). */
	smp_store_release(&tr->naming, false);
	preempt_enable();
}

/*
 * The hooks' filtered path is on while either filter leaves moves out of
 * a trace started since the reset: a filter written for the next trace
 * sends no hook out of line while only the stat or the event collects.
 */
static void mt_filter_key_update_locked(struct mt_trace *tr)
{
	bool on;

	/* An instance's filters are tested on the path it takes anyway. */
	if (tr != &mt_top)
		return;
	on = tr->armed && (!mt_filter_is_all(&tr->filter) || tr->pids.nr);
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

/*
 * A start or a reset: the keys follow whether a trace started.  The top
 * trace's filters turn on mt_filter_key; an instance sends the hooks out
 * of their line (mt_instances_key, mt_rare_key), where it is recorded.
 */
static void mt_keys_arm_locked(struct mt_trace *tr, bool armed)
{
	if (tr != &mt_top && armed != tr->armed) {
		if (armed) {
			WRITE_ONCE(mt_instances_armed, mt_instances_armed | BIT(tr->id));
			static_branch_inc(&mt_instances_key);
			static_branch_inc(&mt_rare_key);
		} else {
			static_branch_dec(&mt_rare_key);
			static_branch_dec(&mt_instances_key);
			WRITE_ONCE(mt_instances_armed, mt_instances_armed & ~BIT(tr->id));
		}
	}
	tr->armed = armed;
	mt_filter_key_update_locked(tr);
}

/*
 * An instance's keys follow whether it runs, so that a stopped one
 * sends no hook out of line; the top trace's filter key stays on from
 * its start to its reset.
 */
static void mt_instance_keys_locked(struct mt_trace *tr, bool on)
{
	if (tr != &mt_top)
		mt_keys_arm_locked(tr, on);
}

/*
 * The pids a new trace selects: those written, without the children an
 * earlier trace followed.  No writer reads the bits: the start has not
 * published them yet, and the last trace was reset.
 */
static void mt_pids_arm(struct mt_trace *tr)
{
	unsigned int i;

	if (!tr->pid_bits)
		return;
	bitmap_zero(tr->pid_bits, PID_MAX_LIMIT);
	for (i = 0; i < tr->pids.nr; i++)
		__set_bit(tr->pids.pid[i], tr->pid_bits);
}

/*
 * The first start since the reset.  Names come before moves: the hooks
 * name new and renamed tasks while the walk copies the names of the
 * others, and moves are logged only once the walk is done.  The other
 * way round, a task could move, exit and be reaped before the walk got
 * to it, and its moves would have no name.
 */
static int mt_start_new_locked(struct mt_trace *tr)
{
	/* Allocated by a write of buffer_size_kb since the reset: kept. */
	bool had = mt_ring_allocated(&tr->buf) && tr->comm_cache;
	int cpu, ret;
	u64 now;

	/* Nothing to do if buffer_size_kb was written since the reset. */
	ret = mt_alloc_locked(tr, tr->buf_size_kb);
	if (ret)
		return ret;
	mt_pids_arm(tr);
	for_each_possible_cpu(cpu)
		per_cpu_ptr(tr->buf.rings, cpu)->start.ts = 0;
	cpus_read_lock();
	on_each_cpu(mt_take_start_clock, tr, 1);
	mt_take_topology(tr);
	cpus_read_unlock();
	tr->clock_offset = mt_clock_offset_now();
	now = local_clock();
	mt_tr_dump_release(tr);
	/* Before names are wanted: forks are followed from the walk on. */
	mt_keys_arm_locked(tr, true);
	mt_hooks_get(&tr->holds_hooks);
	/* As late as can be: tasks forked until now need no spare room. */
	ret = mt_alloc_task_list(tr);
	if (ret) {
		mt_hooks_put(&tr->holds_hooks);
		mt_keys_arm_locked(tr, false);
		/*
		 * No trace started: the dump is disarmed again, and the
		 * buffers go unless a write of buffer_size_kb made them.  A
		 * dump that already reads them keeps them, armed or not.
		 */
		if (had)
			mt_tr_dump_hold(tr);
		else
			mt_free_locked(tr);
		return ret;
	}
	/* The release publishes the buffers to mt_names_wanted(). */
	smp_store_release(&tr->naming, true);
	/*
	 * A task linked before this is in the list; one linked after it
	 * names itself.  Pairs with the smp_mb() of __mt_copy_process(), or
	 * for a fork that ran the hook's old code, with the IPIs by which
	 * mt_hooks_get() patched it.
	 */
	smp_mb();
	/* An oops since the arming dumps the buffers: no more names then. */
	if (mt_ended_while_naming(tr))
		mt_tr_stop_writers(tr);
	mt_take_task_list(tr, now);
	mt_let_moves_in(tr);
	/* Readers of an unlocked tr->started see the buffers and names. */
	smp_store_release(&tr->started, true);
	if (!READ_ONCE(tr->tracing))
		mt_stop_locked(tr);
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
	tr->starts++;
#endif
	mt_reader_wake(&tr->rd);
	return 0;
}

/**
 * mt_start_locked() - start the trace, or continue a stopped one
 * @tr: the trace
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
int mt_start_locked(struct mt_trace *tr, bool allow_restart)
{
	if (READ_ONCE(tr->tracing))
		return 0;
	if (tr->trace_readers)
		return -EBUSY;
	if (!tr->started)
		return mt_start_new_locked(tr);
	/* Tools assume one continuous trace: a restart is opt-in. */
	if (!allow_restart)
		return -EBUSY;
	if (mt_refused(tr))
		return -ENOSPC;
	mt_tr_dump_release(tr);
	mt_instance_keys_locked(tr, true);
	/* The release publishes the buffers to mt_trace_running(). */
	smp_store_release(&tr->tracing, true);
	mt_hooks_get(&tr->holds_hooks);
	mt_reader_wake(&tr->rd);
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/**
 * mt_bench_start_trace_locked() - start the benchmark's own trace
 *
 * Only from a reset state, so that no user's trace receives the
 * benchmark's moves; mt_top.starts then names it.
 *
 * Context: under mt_mutex; sleeps.
 * Return: 0, -EBUSY if a trace runs or ran since the reset, or an error
 * of mt_start_locked().
 */
int mt_bench_start_trace_locked(void)
{
	if (READ_ONCE(mt_top.tracing) || mt_top.started)
		return -EBUSY;
	return mt_start_locked(&mt_top, false);
}
#endif


/**
 * mt_trace_set_filter_locked() - set the moves the next trace records
 * @tr: the trace
 * @f: the filter
 *
 * The hooks test the filter only behind mt_filter_key, and reach it
 * behind mt_rare_key, so that a trace of every move pays nothing for it;
 * both go on when the trace starts, not here.
 *
 * Context: under mt_mutex, with no trace started since the reset (no
 * writer reads the filter); may sleep.
 */
void mt_trace_set_filter_locked(struct mt_trace *tr, const struct mt_filter *f)
{
	lockdep_assert_held(&mt_mutex);
	tr->filter = *f;
	mt_filter_key_update_locked(tr);
}

/**
 * mt_trace_set_pids_locked() - set the tasks the next trace records
 * @tr: the trace
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
int mt_trace_set_pids_locked(struct mt_trace *tr, const struct mt_pids *p)
{
	unsigned long *bits = tr->pid_bits;

	lockdep_assert_held(&mt_mutex);
	if (!p->nr) {
		mt_trace_clear_pids_locked(tr, p->fork);
		return 0;
	}
	if (!bits) {
		bits = kvmalloc_array(BITS_TO_LONGS(PID_MAX_LIMIT),
				      sizeof(unsigned long), MT_GFP);
		if (!bits)
			return -ENOMEM;
	}
	tr->pids = *p;
	tr->pid_bits = bits;
	mt_pids_arm(tr);
	mt_filter_key_update_locked(tr);
	return 0;
}

/**
 * mt_trace_clear_pids_locked() - let the next trace record every task
 * @tr: the trace
 * @fork: the event_fork setting to keep
 *
 * Allocates nothing, so that it cannot fail: a release of set_event_pid
 * opened with O_TRUNC clears the pids with it.
 *
 * Context: under mt_mutex, with no trace started since the reset; may
 * sleep.
 */
void mt_trace_clear_pids_locked(struct mt_trace *tr, bool fork)
{
	lockdep_assert_held(&mt_mutex);
	tr->pids.nr = 0;
	tr->pids.fork = fork;
	kvfree(tr->pid_bits);
	tr->pid_bits = NULL;
	mt_filter_key_update_locked(tr);
}

/**
 * mt_reset_locked() - stop the trace and free its buffers and names
 * @tr: the trace
 *
 * The next start begins a new trace, and the next trace_pipe reader a
 * new stream.
 *
 * Context: under mt_mutex; sleeps.
 * Return: 0, or -EBUSY if the trace file or trace_pipe is open, or a dump
 * still reads the buffers.
 */
VISIBLE_IF_KUNIT int mt_reset_locked(struct mt_trace *tr)
{
	int ret;

	if (tr->trace_readers || mt_reader_busy(&tr->rd))
		return -EBUSY;
	mt_stop_locked(tr);
	ret = mt_free_locked(tr);
	if (ret)
		return ret;
	mt_keys_arm_locked(tr, false);
	WRITE_ONCE(tr->started, false);
	mt_reader_reset(&tr->rd);
	return 0;
}

/**
 * mt_trace_started() - whether a trace started since the reset
 * @tr: the trace
 *
 * Context: any; lockless.
 * Return: true if so; its buffers and names are then set up.
 */
bool mt_trace_started(struct mt_trace *tr)
{
	/* Pairs with the release in mt_start_new_locked(). */
	return smp_load_acquire(&tr->started);
}

/**
 * mt_trace_setup() - set up a trace's buffer and readers, with no memory yet
 * @tr: the trace, its settings initialized
 * @rings: its rings, zeroed
 *
 * Context: under mt_mutex, or init.
 * Return: 0.
 */
int mt_trace_setup(struct mt_trace *tr, struct mt_ring __percpu *rings)
{
	mt_readers_init(&tr->rd);
	INIT_WORK(&tr->release_work, mt_release_hooks_workfn);
	init_irq_work(&tr->full_irq_work, mt_full_irq_workfn);
	return mt_buffer_add(&tr->buf, rings);
}

/**
 * mt_trace_teardown() - an instance goes
 * @tr: the instance, reset and unpublished, no file of it open
 *
 * Waits for what its writers and readers left to run.
 *
 * Context: process context, without mt_mutex (its worker takes it).
 */
void mt_trace_teardown(struct mt_trace *tr)
{
	irq_work_sync(&tr->full_irq_work);
	cancel_work_sync(&tr->release_work);
	mutex_lock(&mt_mutex);
	mt_hooks_put(&tr->holds_hooks);
	mt_trace_clear_pids_locked(tr, false);
	mt_buffer_del(&tr->buf);
	mutex_unlock(&mt_mutex);
	mt_readers_exit(&tr->rd);
}

/**
 * mt_instance_get_locked() - the instance in a slot
 * @id: the slot, below MT_INSTANCES_MAX
 *
 * Context: under mt_mutex.
 * Return: the instance, or NULL.
 */
struct mt_trace *mt_instance_get_locked(int id)
{
	return rcu_dereference_protected(mt_instances[id],
					 lockdep_is_held(&mt_mutex));
}

/**
 * mt_instance_set_locked() - publish an instance to the hooks, or take it back
 * @id: its slot
 * @tr: the instance, or NULL to empty the slot
 *
 * An instance taken back is reset: no writer records into it, though one
 * may still look at it until a grace period ends.
 *
 * Context: under mt_mutex.
 * Return: 0.
 */
int mt_instance_set_locked(int id, struct mt_trace *tr)
{
	lockdep_assert_held(&mt_mutex);
	rcu_assign_pointer(mt_instances[id], tr);
	return 0;
}

/**
 * mt_trace_file_get_locked() - a file of a trace is being opened
 * @tr: the trace
 *
 * So that rmdir refuses an instance with a file open: the file's
 * release may come after debugfs removed it, and still needs @tr.
 *
 * Context: under mt_mutex.
 * Return: 0, or -ENODEV if rmdir is removing the instance.
 */
int mt_trace_file_get_locked(struct mt_trace *tr)
{
	lockdep_assert_held(&mt_mutex);
	if (tr->removing)
		return -ENODEV;
	tr->files++;
	return 0;
}

/**
 * mt_trace_file_put_locked() - a file of a trace was closed
 * @tr: the trace
 *
 * Context: under mt_mutex.
 */
void mt_trace_file_put_locked(struct mt_trace *tr)
{
	lockdep_assert_held(&mt_mutex);
	tr->files--;
}

/**
 * mt_trace_file_get() - as mt_trace_file_get_locked(), taking mt_mutex
 * @tr: the trace
 *
 * Return: 0, or -ENODEV.
 */
int mt_trace_file_get(struct mt_trace *tr)
{
	int ret;

	mutex_lock(&mt_mutex);
	ret = mt_trace_file_get_locked(tr);
	mutex_unlock(&mt_mutex);
	return ret;
}

/**
 * mt_trace_file_put() - as mt_trace_file_put_locked(), taking mt_mutex
 * @tr: the trace
 */
void mt_trace_file_put(struct mt_trace *tr)
{
	mutex_lock(&mt_mutex);
	mt_trace_file_put_locked(tr);
	mutex_unlock(&mt_mutex);
}
