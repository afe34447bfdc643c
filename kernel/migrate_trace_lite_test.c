// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace and statistics.  They use the real
 * buffers and state, so they must run before anybody traces: the suite is
 * an init section suite, which runs at boot and cannot be run again from
 * debugfs.  They leave everything reset.  No assertion may fail while
 * mt_mutex is held: a failed one ends the test there.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/deadline.h>
#include <linux/sched/idle.h>
#include <linux/sched/rt.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "migrate_trace_lite.h"
#include "migrate_trace_lite_test.h"

/* What a snapshot holds, in the order it would print it. */
struct mt_test_seen {
	unsigned int n, marks;
	unsigned long mark;		/* count the marks of this value */
	u64 last_ts;
	bool ordered;
	int cpu[8];
	u64 ts[8];
	pid_t mig_pid;			/* keep the migration of this pid */
	struct mt_rec_migrate mig_first;
	struct mt_rec_migrate mig;	/* the last one */
	int mig_cpu;
	unsigned int migs;
	unsigned int comms;		/* set_task_comm names of mig_pid */
	unsigned int migs_before_comm;	/* its moves before its first name */
};

static void mt_test_see(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
{
	struct mt_test_seen *s = arg;

	if (s->n && ts < s->last_ts)
		s->ordered = false;
	if (s->n < ARRAY_SIZE(s->ts)) {
		s->cpu[s->n] = cpu;
		s->ts[s->n] = ts;
	}
	s->last_ts = ts;
	s->n++;
	if (rec->type == MT_EV_MARK &&
	    ((const struct mt_rec_mark *)rec)->mark == s->mark)
		s->marks++;
	if (rec->type == MT_CAUSE_DETACH_TASKS &&
	    ((const struct mt_rec_migrate *)rec)->pid == s->mig_pid) {
		s->mig = *(const struct mt_rec_migrate *)rec;
		if (!s->migs++)
			s->mig_first = s->mig;
		s->mig_cpu = cpu;
	}
	if (rec->type == MT_EV_SET_TASK_COMM &&
	    ((const struct mt_rec_comm *)rec)->pid == s->mig_pid &&
	    !s->comms++)
		s->migs_before_comm = s->migs;
}

static void mt_test_walk(struct kunit *test, struct mt_test_seen *s)
{
	s->ordered = true;
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see, s), 0);
}

static void mt_test_api_mark(struct kunit *test)
{
	struct mt_test_seen s = { .mark = 0xfeed };

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_trace_mark(0xfeedUL);
	mt_trace_mark(0xfeedUL);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.marks, 2);
	KUNIT_EXPECT_TRUE(test, s.ordered);
	mt_test_reset(test);
}

static void mt_test_mark_while_stopped(struct kunit *test)
{
	mt_test_reset(test);
	mt_trace_mark(0x77UL);
	KUNIT_EXPECT_TRUE(test, mt_ring_empty());
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated());
}

/* Each rule of mt_trace_enable(), and the state it leaves. */
static void mt_test_enable_rules(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(2, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(-1, 0), -EINVAL);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated());

	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());
	KUNIT_EXPECT_TRUE(test, mt_ring_allocated());
	KUNIT_EXPECT_TRUE(test, mt_trace_started());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());

	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());

	/* The buffer holds a trace: only an explicit restart continues it. */
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), -EBUSY);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 1), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);

	/* A reset frees the buffers and allows a new start. */
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated());
	KUNIT_EXPECT_FALSE(test, mt_trace_started());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
}

/*
 * Migrations logged by the hook, read back field by field: the first
 * record of a CPU's ring takes the ring's slow path, the second its fast
 * path; each writes the reason its own way.
 */
static void mt_test_migration_fields(struct kunit *test)
{
	struct mt_test_seen s = { .mig_pid = current->pid };
	unsigned long flags;
	unsigned int from, to;
	int cpu;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs");
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	cpu = smp_processor_id();
	from = task_cpu(current);
	to = cpumask_any_but(cpu_possible_mask, from);
	__mt_migrate_task(current, to,
			  MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST + 5));
	__mt_migrate_task(current, to,
			  MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST + 6));
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.migs, 2);
	KUNIT_EXPECT_EQ(test, s.mig_first.hdr.type, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, s.mig_first.hdr.reason, MT_REASON_LB_FIRST + 5);
	KUNIT_EXPECT_EQ(test, s.mig_first.pid, current->pid);
	KUNIT_EXPECT_EQ(test, s.mig_cpu, cpu);
	KUNIT_EXPECT_EQ(test, s.mig.from, from);
	KUNIT_EXPECT_EQ(test, s.mig.to, to);
	KUNIT_EXPECT_EQ(test, s.mig.pid, current->pid);
	KUNIT_EXPECT_EQ(test, s.mig.hdr.type, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, s.mig.hdr.reason, MT_REASON_LB_FIRST + 6);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s.mig.hdr.reason], "lb_idle_task");
	mt_test_reset(test);
}

/*
 * A task that went through exit_notify() may be reaped, and leave the
 * task list, before the scheduler is done with it: its move is preceded
 * by its name, once per trace.  A move of a live task, or of one still
 * on its way out, logs no name.
 */
static void mt_test_exiting_named(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_exiting");
	struct mt_test_seen s = { .mig_pid = t->pid };
	int i;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	for (i = 0; i < 4; i++) {
		t->flags = i ? PF_EXITING : 0;
		t->exit_state = i > 1 ? EXIT_ZOMBIE : 0;
		mt_test_move(t);
	}
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.migs, 4);
	KUNIT_EXPECT_EQ(test, s.comms, 1);
	KUNIT_EXPECT_EQ(test, s.migs_before_comm, 2);
	KUNIT_EXPECT_TRUE(test, s.ordered);
	mt_test_reset(test);
}

/*
 * The real walk, once the stub that runs in its place did its part.  It
 * runs under mt_mutex, where no assertion may fail; the one inside
 * kunit_deactivate_static_stub() cannot, since the stub is active.
 */
static void mt_test_walk_for_real(u64 ts)
{
	kunit_deactivate_static_stub(kunit_get_current_test(), mt_take_task_list);
	mt_take_task_list(ts);
}

/* The start's walk, with the test's task moved and renamed while it runs. */
static void mt_test_walk_late(u64 ts)
{
	struct task_struct *t = kunit_get_current_test()->priv;
	unsigned long flags;

	mt_test_move(t);
	local_irq_save(flags);
	__mt_set_task_comm(t);
	local_irq_restore(flags);
	mt_test_walk_for_real(ts);
}

/*
 * A task can move, exit and be reaped while the start walks the tasks,
 * and then the walk does not name it: moves are logged only once the
 * walk is done.  A name logged meanwhile, as by a fork or an exec, is
 * kept.  The made-up task is in no task list, as a reaped one.
 */
static void mt_test_start_names_first(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_late");
	struct mt_test_seen s = { .mig_pid = t->pid };

	test->priv = t;
	mt_test_reset(test);
	kunit_activate_static_stub(test, mt_take_task_list, mt_test_walk_late);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_test_move(t);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.comms, 1);
	KUNIT_EXPECT_EQ(test, s.migs, 1);
	KUNIT_EXPECT_EQ(test, s.migs_before_comm, 0);
	KUNIT_EXPECT_TRUE(test, s.ordered);
	mt_test_reset(test);
}

/* The start's walk, with names logged on this CPU until one is refused. */
static void mt_test_walk_refused(u64 ts)
{
	unsigned long flags;
	int i;

	local_irq_save(flags);
	for (i = 0; i < 1000 && !mt_ring_dropped(smp_processor_id()); i++)
		__mt_set_task_comm(current);
	local_irq_restore(flags);
	mt_test_walk_for_real(ts);
}

/*
 * A name refused while the start walks the tasks ends the trace, as a
 * refused record does once it runs: the start succeeds, the trace stops
 * at once, and the refusal is counted.
 */
static void mt_test_start_refused(struct kunit *test)
{
	unsigned long size = mt_buf_size_kb, dropped = 0;
	int cpu;

	mt_test_reset(test);
	/* Only a trace that does not overwrite refuses records. */
	KUNIT_ASSERT_FALSE(test, READ_ONCE(mt_overwrite));
	WRITE_ONCE(mt_buf_size_kb, 1);
	kunit_activate_static_stub(test, mt_take_task_list, mt_test_walk_refused);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	WRITE_ONCE(mt_buf_size_kb, size);
	KUNIT_EXPECT_TRUE(test, mt_trace_started());
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	for_each_possible_cpu(cpu)
		dropped += mt_ring_dropped(cpu);
	KUNIT_EXPECT_GT(test, dropped, 0);
	mt_test_reset(test);
}

/* The records of this CPU's ring from its oldest: count, first pid, order. */
static unsigned int mt_test_read(u32 *first_pid, u64 *first_entry, bool *ordered,
				 u64 *last_ts)
{
	struct mt_ring *r = this_cpu_ptr(&mt_rings);
	struct mt_cursor cur;
	struct mt_rec *rec;
	unsigned int n = 0;
	u32 pid = 0;
	u64 ts;

	*ordered = true;
	mt_ring_oldest(r, &cur);
	*first_entry = cur.entry;
	while ((rec = mt_cursor_peek(r, &cur, &ts))) {
		u32 p = ((struct mt_rec_migrate *)rec)->pid;

		if (!n)
			*first_pid = p;
		else if (p != pid + 1)
			*ordered = false;
		pid = p;
		*last_ts = ts;
		mt_cursor_next(&cur, rec);
		n++;
	}
	return n;
}

/*
 * A 16 KiB ring is four 4 KiB chunks of 254 migrations: it takes exactly
 * that many, then refuses; with overwrite it keeps the newest chunks and
 * counts the rest as overwritten.
 */
static void mt_test_ring_chunks(struct kunit *test)
{
	unsigned int per_chunk = (4096 - MT_CHUNK_HDR) / 16, n;
	u64 first_entry, last_ts;
	bool ordered;
	u32 first;
	int cpu;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(16), 0);
	KUNIT_EXPECT_EQ(test, mt_chunk_size, 4096);
	KUNIT_EXPECT_EQ(test, mt_nr_chunks, 4);
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, mt_test_fill(10000, 1000, 10), 4 * per_chunk);
	n = mt_test_read(&first, &first_entry, &ordered, &last_ts);
	KUNIT_EXPECT_EQ(test, n, 4 * per_chunk);
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_TRUE(test, ordered);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(cpu), 0);

	mt_ring_reset();
	WRITE_ONCE(mt_overwrite, true);
	KUNIT_EXPECT_EQ(test, mt_test_fill(3000, 1000, 10), 3000);
	n = mt_test_read(&first, &first_entry, &ordered, &last_ts);
	/* The three full chunks before the current one, and the current. */
	KUNIT_EXPECT_EQ(test, n, 3 * per_chunk + 3000 % per_chunk);
	KUNIT_EXPECT_EQ(test, first, 3000 - n);
	KUNIT_EXPECT_EQ(test, first_entry, 3000 - n);
	KUNIT_EXPECT_TRUE(test, ordered);
	KUNIT_EXPECT_EQ(test, last_ts, 1000 + 2999 * 10);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(cpu), 3000 - n);
	KUNIT_EXPECT_EQ(test, mt_ring_entries(cpu), 3000);
	put_cpu();
	WRITE_ONCE(mt_overwrite, false);
	mt_ring_free();
}

/* Gaps that do not fit a 32-bit delta: the times still come back exact. */
static void mt_test_time_records(struct kunit *test)
{
	u64 step = 5ULL * NSEC_PER_SEC + 7, first_entry, last_ts;
	bool ordered;
	u32 first;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(64), 0);
	get_cpu();
	KUNIT_EXPECT_EQ(test, mt_test_fill(100, 12345, step), 100);
	KUNIT_EXPECT_EQ(test, mt_test_read(&first, &first_entry, &ordered, &last_ts), 100);
	KUNIT_EXPECT_EQ(test, last_ts, 12345 + 99 * step);
	KUNIT_EXPECT_TRUE(test, ordered);
	put_cpu();
	mt_ring_free();
}

struct mt_test_mark_args {
	u64 ts[2];
};

static void mt_test_mark_at(void *info)
{
	struct mt_test_mark_args *a = info;
	struct mt_rec_mark *r;
	int i;

	for (i = 0; i < 2; i++) {
		r = mt_ring_write(sizeof(*r), MT_EV_MARK, a->ts[i]);
		if (!r)
			return;
		r->pid = 0;
		r->unused = 0;
		r->mark = a->ts[i];
		mt_ring_commit(r);
	}
}

/* Records of two CPUs come out merged by time, whatever CPU wrote first. */
static void mt_test_merge_order(struct kunit *test)
{
	struct mt_test_mark_args a = { { 10, 40 } }, b = { { 20, 30 } };
	struct mt_test_seen s = { };
	int c0, c1;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	c0 = cpumask_first(cpu_online_mask);
	c1 = cpumask_next(c0, cpu_online_mask);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(16), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(c1, mt_test_mark_at, &b, 1), 0);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(c0, mt_test_mark_at, &a, 1), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.n, 4);
	KUNIT_EXPECT_TRUE(test, s.ordered);
	KUNIT_EXPECT_EQ(test, s.ts[0], 10);
	KUNIT_EXPECT_EQ(test, s.ts[3], 40);
	KUNIT_EXPECT_EQ(test, s.cpu[0], c0);
	KUNIT_EXPECT_EQ(test, s.cpu[1], c1);
	KUNIT_EXPECT_EQ(test, s.cpu[2], c1);
	KUNIT_EXPECT_EQ(test, s.cpu[3], c0);
	mt_ring_free();
}

/*
 * The reasons: each name, and each way the hooks arrive at one.  Most
 * reasons are checked on the guests by workloads that make the scheduler
 * take them (the mt_wakeups, mt_balance and mt_smt selftests); these
 * pin what a hook makes of a decision, including those no workload on
 * QEMU can produce (harness/reasons-tested), and two kernel paths
 * user space cannot reach.
 */
static const char * const mt_test_reason_names[MT_REASON_END] = {
	"", "wake_affine", "wake_affine_busy", "idle_target", "busy_target",
	"idle_prev", "kthread_prev", "idle_recent", "idle_capacity",
	"idle_smt_sibling", "idle_core", "idle_cpu", "slow_path",
	"energy_aware", "wake_current_cpu", "rt_lowest_rq", "dl_later_rq",
	"fallback", "affinity_at_wakeup", "numa_at_wakeup", "affinity",
	"migrate_enable", "exec_balance", "numa_migrate", "rt", "dl",
	"active_balance",
	"lb_busy_load", "lb_busy_util", "lb_busy_task", "lb_busy_misfit",
	"lb_idle_load", "lb_idle_util", "lb_idle_task", "lb_idle_misfit",
	"lb_newidle_load", "lb_newidle_util", "lb_newidle_task",
	"lb_newidle_misfit",
};

/* The 38 reasons by name, as the trace and the stat headers give them. */
static void mt_test_reason_table(struct kunit *test)
{
	int r;

	KUNIT_EXPECT_EQ(test, MT_REASON_END, 39);
	KUNIT_EXPECT_NULL(test, mt_reason_names[MT_REASON_NONE]);
	for (r = MT_REASON_NONE + 1; r < MT_REASON_END; r++)
		KUNIT_EXPECT_STREQ_MSG(test, mt_reason_names[r],
				       mt_test_reason_names[r], "reason %d", r);
}

/* The moves of one pid a walk finds, in order. */
struct mt_test_moves {
	pid_t pid;
	unsigned int n;
	struct {
		u8 cause, reason;
		u16 from, to;
	} m[48];
};

static void mt_test_see_moves(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
{
	const struct mt_rec_migrate *mig = (const void *)rec;
	struct mt_test_moves *s = arg;

	if (rec->type == MT_CAUSE_NONE || rec->type >= MT_CAUSE_END ||
	    mig->pid != s->pid)
		return;
	if (s->n < ARRAY_SIZE(s->m)) {
		s->m[s->n].cause = rec->type;
		s->m[s->n].reason = rec->reason;
		s->m[s->n].from = mig->from;
		s->m[s->n].to = mig->to;
	}
	s->n++;
}

/* Three distinct possible CPUs: this one, and two others (irqs off). */
static void mt_test_three_cpus(int *this, int *b, int *c)
{
	*this = smp_processor_id();
	*b = cpumask_any_but(cpu_possible_mask, *this);
	*c = cpumask_next(*b, cpu_possible_mask);
	if (*c == *this)
		*c = cpumask_next(*c, cpu_possible_mask);
}

/* Put a made-up task on @cpu, allowed everywhere, as the hooks look at it. */
static void mt_test_place(struct task_struct *t, int cpu)
{
	WRITE_ONCE(task_thread_info(t)->cpu, cpu);
	t->wake_cpu = cpu;
	t->cpus_ptr = &t->cpus_mask;
	cpumask_copy(&t->cpus_mask, cpu_possible_mask);
}

/*
 * A wakeup's reason is the decision select_task_rq() noted for the task,
 * but: a task whose CPU was taken from it while it slept moves for that
 * (affinity_at_wakeup), and so does one a NUMA swap placed elsewhere
 * (numa_at_wakeup); an idle or busy target that is the waker's own CPU
 * was wake_affine()'s choice (wake_affine, wake_affine_busy).  A note
 * for another task, or none, gives no reason.
 */
static void mt_test_wakeup_reasons(struct kunit *test)
{
	static const unsigned int passed[] = {
		MT_REASON_IDLE_TARGET, MT_REASON_BUSY_TARGET, MT_REASON_IDLE_PREV,
		MT_REASON_KTHREAD_PREV, MT_REASON_IDLE_RECENT,
		MT_REASON_IDLE_CAPACITY, MT_REASON_IDLE_SMT, MT_REASON_IDLE_CORE,
		MT_REASON_IDLE_CPU, MT_REASON_SLOW_PATH, MT_REASON_ENERGY_AWARE,
		MT_REASON_WAKE_CURRENT_CPU, MT_REASON_RT_LOWEST_RQ,
		MT_REASON_DL_LATER_RQ, MT_REASON_FALLBACK,
	};
	struct task_struct *t = mt_test_made_up_task(test, "mt_wakee");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int want[ARRAY_SIZE(passed) + 6], n = 0, i;
	unsigned long flags;
	int this, b, c;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	s->pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	/* From b to the waker's CPU. */
	mt_test_place(t, b);
	mt_note(t, MT_REASON_IDLE_TARGET);
	__mt_migrate_wakeup(t, this);
	want[n++] = MT_REASON_WAKE_AFFINE;
	mt_note(t, MT_REASON_BUSY_TARGET);
	__mt_migrate_wakeup(t, this);
	want[n++] = MT_REASON_WAKE_AFFINE_BUSY;
	/* From b to c, not the waker's CPU: the note as it is. */
	for (i = 0; i < ARRAY_SIZE(passed); i++) {
		mt_note(t, passed[i]);
		__mt_migrate_wakeup(t, c);
		want[n++] = passed[i];
	}
	mt_note(current, MT_REASON_IDLE_CORE);
	__mt_migrate_wakeup(t, c);
	want[n++] = MT_REASON_NONE;
	/* Its CPU no longer allowed, whatever the note. */
	cpumask_clear_cpu(b, &t->cpus_mask);
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, c);
	want[n++] = MT_REASON_AFFINITY_AT_WAKEUP;
	/* Placed on c by a swap while asleep on b, allowed on b. */
	mt_test_place(t, b);
	t->wake_cpu = c;
	mt_note(t, MT_REASON_IDLE_PREV);
	__mt_migrate_wakeup(t, c);
	want[n++] = MT_REASON_NUMA_AT_WAKEUP;
	/* No move, no record. */
	t->wake_cpu = b;
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, b);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, s->m[i].cause, MT_CAUSE_TRY_TO_WAKE_UP, "move %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s->m[i].reason, want[i], "move %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s->m[i].from, b, "move %u", i);
	}
	mt_test_reset(test);
}

/*
 * The other causes' reasons: the load balancer's from its idle type and
 * migration type, active balancing's, a stopper's from its request (the
 * note migration_cpu_stop() makes), a fork's from its placement, an
 * affinity move's, and push_cpu_stop()'s from the pushed task's class.
 */
static void mt_test_move_reasons(struct kunit *test)
{
	static const unsigned int stopper[] = {
		MT_REASON_AFFINITY, MT_REASON_MIGRATE_ENABLE,
		MT_REASON_EXEC_BALANCE, MT_REASON_NUMA_MIGRATE,
	};
	static const unsigned int fork[] = {
		MT_REASON_SLOW_PATH, MT_REASON_RT_LOWEST_RQ, MT_REASON_FALLBACK,
	};
	static const char * const idle[] = { "busy", "idle", "newidle" };
	static const char * const type[] = { "load", "util", "task", "misfit" };
	struct task_struct *t = mt_test_made_up_task(test, "mt_moved");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int i, j, n = 0;
	unsigned long flags;
	char name[32];
	int this, b, c;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	s->pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	mt_test_place(t, b);
	for (i = 0; i < CPU_MAX_IDLE_TYPES; i++)
		for (j = 0; j < 4; j++)
			mt_migrate_task_lb(t, c, MT_CAUSE_DETACH_TASKS, i, j);
	mt_migrate_task_lb(t, c, MT_CAUSE_DETACH_ONE_TASK, CPU_IDLE, 2);
	for (i = 0; i < ARRAY_SIZE(stopper); i++) {
		mt_note(t, stopper[i]);
		__mt_migrate_task(t, c, MT_CAUSE_MIGRATION_CPU_STOP);
	}
	for (i = 0; i < ARRAY_SIZE(fork); i++) {
		mt_note(t, fork[i]);
		__mt_migrate_task(t, c, MT_CAUSE_WAKE_UP_NEW_TASK);
	}
	__mt_migrate_task(t, c, MT_CAUSE_AFFINE_MOVE_TASK);
	t->prio = MAX_RT_PRIO - 1 - 10;
	__mt_migrate_task(t, c, MT_CAUSE_PUSH_CPU_STOP);
	t->prio = MAX_DL_PRIO - 1;
	__mt_migrate_task(t, c, MT_CAUSE_PUSH_CPU_STOP);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 12 + 1 + ARRAY_SIZE(stopper) + ARRAY_SIZE(fork) + 3);
	for (i = 0; i < CPU_MAX_IDLE_TYPES; i++) {
		for (j = 0; j < 4; j++, n++) {
			snprintf(name, sizeof(name), "lb_%s_%s", idle[i], type[j]);
			KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_DETACH_TASKS);
			KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[n].reason], name);
		}
	}
	KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_DETACH_ONE_TASK);
	KUNIT_EXPECT_EQ(test, s->m[n++].reason, MT_REASON_ACTIVE_BALANCE);
	for (i = 0; i < ARRAY_SIZE(stopper); i++, n++) {
		KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_MIGRATION_CPU_STOP);
		KUNIT_EXPECT_EQ(test, s->m[n].reason, stopper[i]);
	}
	for (i = 0; i < ARRAY_SIZE(fork); i++, n++) {
		KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_WAKE_UP_NEW_TASK);
		KUNIT_EXPECT_EQ(test, s->m[n].reason, fork[i]);
	}
	KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_AFFINE_MOVE_TASK);
	KUNIT_EXPECT_EQ(test, s->m[n++].reason, MT_REASON_AFFINITY);
	KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_PUSH_CPU_STOP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[n++].reason], "rt");
	KUNIT_EXPECT_EQ(test, s->m[n].cause, MT_CAUSE_PUSH_CPU_STOP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[n++].reason], "dl");
	mt_test_reset(test);
}

/*
 * Two real paths no user space workload of the test kernels reaches: a
 * kernel thread woken by complete_on_current_cpu() (WF_CURRENT_CPU, whose
 * only other user is seccomp's user notification, not built in them), and
 * an affinity change of a kernel thread inside migrate_disable(), carried
 * out by its migrate_enable().  The thread sleeps on CPU a; the test
 * runs on CPU b.
 */
struct mt_test_kthread {
	struct completion ready, go, done;
	struct cpumask both;
	int b;
};

static void mt_test_kthread_park(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Allowed on a and b, it sleeps on a until woken from b. */
static int mt_test_current_cpu_fn(void *data)
{
	struct mt_test_kthread *k = data;

	set_cpus_allowed_ptr(current, &k->both);
	complete(&k->ready);
	wait_for_completion(&k->go);
	complete(&k->done);
	mt_test_kthread_park();
	return 0;
}

/* Its CPU changes from a to b while it may not migrate. */
static int mt_test_migrate_enable_fn(void *data)
{
	struct mt_test_kthread *k = data;

	migrate_disable();
	complete(&k->ready);
	/* Until the test has moved it to b (and waits for the move). */
	while (!cpumask_equal(&current->cpus_mask, cpumask_of(k->b)))
		usleep_range(1000, 2000);
	migrate_enable();
	/* Without preemption: the stopper moves it while it is queued. */
	cond_resched();
	complete(&k->done);
	mt_test_kthread_park();
	return 0;
}

/* The moves of @k's thread made by @fn, as the trace has them. */
static void mt_test_kthread_run(struct kunit *test, int (*fn)(void *),
				struct mt_test_moves *s, int *a, int *b)
{
	struct mt_test_kthread *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, k);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	k->b = *b;
	init_completion(&k->ready);
	init_completion(&k->go);
	init_completion(&k->done);
	cpumask_clear(&k->both);
	cpumask_set_cpu(*a, &k->both);
	cpumask_set_cpu(*b, &k->both);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(*b)), 0);
	t = kthread_create(fn, k, "mt_test_kthread");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	s->pid = t->pid;
	set_cpus_allowed_ptr(t, cpumask_of(*a));
	wake_up_process(t);
	wait_for_completion(&k->ready);
	mt_test_reset(test);
	if (fn == mt_test_current_cpu_fn) {
		/* Asleep on a, woken from b. */
		while (!wait_task_inactive(t, TASK_UNINTERRUPTIBLE))
			usleep_range(1000, 2000);
		KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
		complete_on_current_cpu(&k->go);
	} else {
		/* Returns once migrate_enable() moved it. */
		KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
		set_cpus_allowed_ptr(t, cpumask_of(*b));
	}
	wait_for_completion(&k->done);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	kthread_stop(t);
	put_task_struct(t);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	mt_test_reset(test);
}

/*
 * push_cpu_stop() for real: on CPU a, a SCHED_FIFO thread (m) inside
 * migrate_disable() is preempted by a higher one (c), allowed on b too;
 * on b, a higher one still (d) goes to sleep.  The pull toward b finds
 * m, the highest task it could take, unable to migrate, and has the
 * stopper push a's running task, c, to b instead: push_cpu_stop, rt.
 */
struct mt_test_rt {
	struct completion ready, go;
	struct cpumask both;
	bool stop_d, stop;
};

static int mt_test_rt_m(void *data)
{
	struct mt_test_rt *k = data;

	sched_set_fifo_low(current);
	set_cpus_allowed_ptr(current, &k->both);
	migrate_disable();
	complete(&k->ready);
	while (!READ_ONCE(k->stop))
		cond_resched();
	migrate_enable();
	mt_test_kthread_park();
	return 0;
}

static int mt_test_rt_c(void *data)
{
	struct mt_test_rt *k = data;

	sched_set_fifo(current);
	set_cpus_allowed_ptr(current, &k->both);
	complete(&k->ready);
	wait_for_completion(&k->go);
	while (!READ_ONCE(k->stop))
		cond_resched();
	mt_test_kthread_park();
	return 0;
}

static int mt_test_rt_d(void *data)
{
	struct sched_param sp = { .sched_priority = MAX_RT_PRIO / 2 + 10 };
	struct mt_test_rt *k = data;

	sched_setscheduler_nocheck(current, SCHED_FIFO, &sp);
	complete(&k->ready);
	/* Without preemption, cond_resched() is what lets RCU go on. */
	while (!READ_ONCE(k->stop_d))
		cond_resched();
	mt_test_kthread_park();
	return 0;
}

static struct task_struct *mt_test_rt_start(struct kunit *test, int (*fn)(void *),
					    struct mt_test_rt *k, int cpu)
{
	struct task_struct *t = kthread_create(fn, k, "mt_test_rt");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	set_cpus_allowed_ptr(t, cpumask_of(cpu));
	wake_up_process(t);
	wait_for_completion(&k->ready);
	return t;
}

static void mt_test_push_cpu_stop(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct mt_test_rt *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct task_struct *m, *c, *d;
	int a, b, here, i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, k);
	if (num_online_cpus() < 3)
		kunit_skip(test, "needs 3 online CPUs");
	a = cpumask_first(cpu_online_mask);
	b = cpumask_next(a, cpu_online_mask);
	here = cpumask_next(b, cpu_online_mask);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(here)), 0);
	init_completion(&k->ready);
	init_completion(&k->go);
	cpumask_clear(&k->both);
	cpumask_set_cpu(a, &k->both);
	cpumask_set_cpu(b, &k->both);
	/* c sleeps on a; d runs on b; m runs on a, unable to migrate. */
	c = mt_test_rt_start(test, mt_test_rt_c, k, a);
	while (!wait_task_inactive(c, TASK_UNINTERRUPTIBLE))
		usleep_range(1000, 2000);
	d = mt_test_rt_start(test, mt_test_rt_d, k, b);
	m = mt_test_rt_start(test, mt_test_rt_m, k, a);
	s->pid = c->pid;
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	complete(&k->go);
	/* c runs on a, m waits there, before d goes to sleep. */
	for (i = 0; i < 1000 && !(READ_ONCE(c->on_cpu) && task_cpu(c) == a); i++)
		usleep_range(1000, 2000);
	WRITE_ONCE(k->stop_d, true);
	for (i = 0; i < 1000 && task_cpu(c) != b; i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	WRITE_ONCE(k->stop, true);
	kthread_stop(m);
	kthread_stop(c);
	kthread_stop(d);
	put_task_struct(m);
	put_task_struct(c);
	put_task_struct(d);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_PUSH_CPU_STOP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[0].reason], "rt");
	KUNIT_EXPECT_EQ(test, s->m[0].from, a);
	KUNIT_EXPECT_EQ(test, s->m[0].to, b);
}

static void mt_test_wake_current_cpu(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int a, b;

	KUNIT_ASSERT_NOT_NULL(test, s);
	mt_test_kthread_run(test, mt_test_current_cpu_fn, s, &a, &b);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_TRY_TO_WAKE_UP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[0].reason], "wake_current_cpu");
	KUNIT_EXPECT_EQ(test, s->m[0].from, a);
	KUNIT_EXPECT_EQ(test, s->m[0].to, b);
}

static void mt_test_migrate_enable(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int a, b;

	KUNIT_ASSERT_NOT_NULL(test, s);
	mt_test_kthread_run(test, mt_test_migrate_enable_fn, s, &a, &b);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_MIGRATION_CPU_STOP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[0].reason], "migrate_enable");
	KUNIT_EXPECT_EQ(test, s->m[0].from, a);
	KUNIT_EXPECT_EQ(test, s->m[0].to, b);
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

/*
 * Counts land in the period of their time, idle periods stay zero, a
 * cause's reason column counts with it, and events past the history are
 * dropped and stop the collection.
 */
static int ms_test_stop(void)
{
	ms_stop_locked();
	return 0;
}

static void mt_test_stat_periods(struct kunit *test)
{
	unsigned int col = ms_column(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_IDLE_CORE);
	unsigned int none = ms_column(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_NONE);
	unsigned long flags;
	u64 p, t0;

	KUNIT_ASSERT_NE(test, col, 0);
	KUNIT_ASSERT_NE(test, col, none);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
	/* The default period; nothing else may change it before userspace. */
	KUNIT_ASSERT_EQ(test, ms_period_msec, 1000);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_start_locked), 0);
	/* Only the counts below: the scheduler's own hooks stay out. */
	WRITE_ONCE(ms_collecting, false);
	p = ms_period_msec * NSEC_PER_MSEC;
	/*
	 * Periods 10 and on: a migration the scheduler makes before the
	 * hooks stop counting lands in period 0, not in these.
	 */
	t0 = ms_start_ns + 10 * p;
	local_irq_save(flags);
	ms_count(MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_IDLE_CORE), t0 + p / 2);
	ms_count(MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_IDLE_CORE),
		 t0 + p / 2 + 1);
	ms_count(MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST), t0 + p + 5);
	/* A cause without reasons counts in its own column. */
	ms_count(MT_CAUSE_PUSH_RT_TASK, t0 + 2 * p + 1);
	ms_count(MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_NONE), t0 + 3 * p + 5);
	/* A reason the cause cannot have is counted as its none. */
	ms_count(MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_PUSH_DL), t0 + 3 * p + 6);
	local_irq_restore(flags);
	mt_test_locked(ms_test_stop);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, MT_CAUSE_TRY_TO_WAKE_UP - 1), 2);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 2);
	KUNIT_EXPECT_EQ(test, ms_read_count(11, MT_CAUSE_DETACH_TASKS - 1), 1);
	col = ms_column(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST);
	KUNIT_EXPECT_EQ(test, ms_read_count(11, col), 1);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, MT_CAUSE_TRY_TO_WAKE_UP - 1), 0);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, MT_CAUSE_PUSH_RT_TASK - 1), 1);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, none), 0);
	KUNIT_EXPECT_EQ(test, ms_read_count(13, MT_CAUSE_TRY_TO_WAKE_UP - 1), 2);
	KUNIT_EXPECT_EQ(test, ms_read_count(13, none), 2);

	/* Past the last period of the history: dropped, collection stops. */
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_start_locked), 0);
	KUNIT_EXPECT_TRUE(test, ms_stat_running());
	local_irq_save(flags);
	ms_count(MT_CAUSE_TRY_TO_WAKE_UP,
		 ms_start_ns + (u64)CONFIG_SNSC_LITE_MIGRATION_STAT_DATA_SIZE *
		 3600 * p + 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_FALSE(test, ms_stat_running());
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
}

/*
 * The stat alone reads no clock until the tick count reaches its limit,
 * short of the period's end; from there on the clock decides the period
 * of each move.  32-bit kernels read the clock for every move.
 */
static void mt_test_stat_untimed(struct kunit *test)
{
	unsigned int why = MT_WHY(MT_CAUSE_PUSH_RT_TASK, 0);
	unsigned int col = ms_column(MT_CAUSE_PUSH_RT_TASK, 0);
	unsigned long flags;

	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_start_locked), 0);
	/* Only the counts below: the scheduler's own hooks stay out. */
	WRITE_ONCE(ms_collecting, false);
	local_irq_save(flags);
	/* Well before the limit: period 0, whatever the clock says. */
	this_cpu_write(ms_period_end_tick, jiffies + 100);
	ms_count_untimed(why);
	this_cpu_write(ms_period_end, local_clock() - 1);
	ms_count_untimed(why);
	/* At the limit, the period not over: still period 0. */
	this_cpu_write(ms_period_end, local_clock() + NSEC_PER_SEC);
	this_cpu_write(ms_period_end_tick, jiffies);
	ms_count_untimed(why);
	/* At the limit, the period over by the clock: period 1. */
	this_cpu_write(ms_period_end, local_clock() - 1);
	ms_count_untimed(why);
	local_irq_restore(flags);
	mt_test_locked(ms_test_stop);
	if (BITS_PER_LONG == 32) {
		/* The second move went by the clock, into period 1. */
		KUNIT_EXPECT_EQ(test, ms_read_count(0, col), 1);
		KUNIT_EXPECT_EQ(test, ms_read_count(1, col), 2);
		KUNIT_EXPECT_EQ(test, ms_read_count(2, col), 1);
	} else {
		KUNIT_EXPECT_EQ(test, ms_read_count(0, col), 3);
		KUNIT_EXPECT_EQ(test, ms_read_count(1, col), 1);
	}
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

static struct kunit_case mt_test_cases[] = {
	KUNIT_CASE(mt_test_api_mark),
	KUNIT_CASE(mt_test_mark_while_stopped),
	KUNIT_CASE(mt_test_enable_rules),
	KUNIT_CASE(mt_test_migration_fields),
	KUNIT_CASE(mt_test_exiting_named),
	KUNIT_CASE(mt_test_start_names_first),
	KUNIT_CASE(mt_test_start_refused),
	KUNIT_CASE(mt_test_ring_chunks),
	KUNIT_CASE(mt_test_time_records),
	KUNIT_CASE(mt_test_merge_order),
	KUNIT_CASE(mt_test_reason_table),
	KUNIT_CASE(mt_test_wakeup_reasons),
	KUNIT_CASE(mt_test_move_reasons),
	KUNIT_CASE(mt_test_wake_current_cpu),
	KUNIT_CASE(mt_test_migrate_enable),
	KUNIT_CASE(mt_test_push_cpu_stop),
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
	KUNIT_CASE(mt_test_stat_periods),
	KUNIT_CASE(mt_test_stat_untimed),
#endif
	{}
};

static struct kunit_suite mt_test_suite = {
	.name = "migrate_trace_lite",
	.test_cases = mt_test_cases,
};

kunit_test_init_section_suite(mt_test_suite);
