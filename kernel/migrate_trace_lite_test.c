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
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_buf.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/threads.h>

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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see, s), 0);
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
	KUNIT_EXPECT_TRUE(test, mt_ring_empty(&mt_top.buf));
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
}

/* Each rule of mt_trace_enable(), and the state it leaves. */
static void mt_test_enable_rules(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));

	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());
	KUNIT_EXPECT_TRUE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_TRUE(test, mt_trace_started(&mt_top));
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
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_FALSE(test, mt_trace_started(&mt_top));
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
 * The wakeup hook fills a record before it reads the clock; a delta past
 * 32 bits, or a clock that stepped back, then sends the filled record to
 * the ring's slow path (a time record, or a clamped one, before it),
 * whose fields must be the move's still.
 */
static void mt_test_filled_slow(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_filled");
	struct mt_test_moves *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	unsigned long flags;
	int this, b, c, i;

	KUNIT_ASSERT_NOT_NULL(test, st);
	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	st->pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	mt_test_place(t, b);
	__mt_migrate_wakeup(t, c);		/* the ring's first record */
	__mt_migrate_wakeup(t, c);		/* the fast path */
	/* The CPU's last record 8.6 s ago: a delta past 32 bits. */
	raw_cpu_write(mt_rings.wlast, raw_cpu_read(mt_rings.wlast) - (1ULL << 33));
	__mt_migrate_wakeup(t, c);
	/* Its last record a second ahead: the clock stepped back. */
	raw_cpu_write(mt_rings.wlast, raw_cpu_read(mt_rings.wlast) + NSEC_PER_SEC);
	mt_note(t, MT_REASON_IDLE_PREV);
	__mt_migrate_wakeup(t, c);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_GT(test, mt_ring_clamped(&mt_top.buf, this), 0UL);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, st), 0);
	KUNIT_ASSERT_EQ_MSG(test, st->n, 4U, "moves: %s", mt_test_moves_str(test, st));
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, st->m[i].cause, MT_CAUSE_TRY_TO_WAKE_UP);
		KUNIT_EXPECT_EQ(test, st->m[i].from, b);
		KUNIT_EXPECT_EQ(test, st->m[i].to, c);
	}
	KUNIT_EXPECT_EQ(test, st->m[2].reason, MT_REASON_NONE);
	KUNIT_EXPECT_EQ(test, st->m[3].reason, MT_REASON_IDLE_PREV);
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
static void mt_test_walk_for_real(struct mt_trace *tr, u64 ts)
{
	kunit_deactivate_static_stub(kunit_get_current_test(), mt_take_task_list);
	mt_take_task_list(tr, ts);
}

/* The start's walk, with the test's task moved and renamed while it runs. */
static void mt_test_walk_late(struct mt_trace *tr, u64 ts)
{
	struct task_struct *t = kunit_get_current_test()->priv;
	unsigned long flags;

	mt_test_move(t);
	local_irq_save(flags);
	__mt_set_task_comm(t);
	local_irq_restore(flags);
	mt_test_walk_for_real(tr, ts);
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
static void mt_test_walk_refused(struct mt_trace *tr, u64 ts)
{
	unsigned long flags;
	int i;

	local_irq_save(flags);
	for (i = 0; i < 1000 && !mt_ring_dropped(&mt_top.buf, smp_processor_id()); i++)
		__mt_set_task_comm(current);
	local_irq_restore(flags);
	mt_test_walk_for_real(tr, ts);
}

/*
 * A name refused while the start walks the tasks ends the trace, as a
 * refused record does once it runs: the start succeeds, the trace stops
 * at once, and the refusal is counted.
 */
static void mt_test_start_refused(struct kunit *test)
{
	unsigned long size = mt_top.buf_size_kb, dropped = 0;
	int cpu;

	mt_test_reset(test);
	/* Only a trace that does not overwrite refuses records. */
	KUNIT_ASSERT_FALSE(test, READ_ONCE(mt_top.buf.overwrite));
	WRITE_ONCE(mt_top.buf_size_kb, 1);
	kunit_activate_static_stub(test, mt_take_task_list, mt_test_walk_refused);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	WRITE_ONCE(mt_top.buf_size_kb, size);
	KUNIT_EXPECT_TRUE(test, mt_trace_started(&mt_top));
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	for_each_possible_cpu(cpu)
		dropped += mt_ring_dropped(&mt_top.buf, cpu);
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
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(&mt_top.buf, 16), 0);
	KUNIT_EXPECT_EQ(test, mt_top.buf.chunk_size, 4096);
	KUNIT_EXPECT_EQ(test, mt_top.buf.nr_chunks, 4);
	/* Kept on this CPU, yet preemptible: a failed expectation allocates. */
	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, mt_test_fill(10000, 1000, 10), 4 * per_chunk);
	n = mt_test_read(&first, &first_entry, &ordered, &last_ts);
	KUNIT_EXPECT_EQ(test, n, 4 * per_chunk);
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_TRUE(test, ordered);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, cpu), 0);

	mt_ring_reset(&mt_top.buf);
	WRITE_ONCE(mt_top.buf.overwrite, true);
	KUNIT_EXPECT_EQ(test, mt_test_fill(3000, 1000, 10), 3000);
	n = mt_test_read(&first, &first_entry, &ordered, &last_ts);
	/* The three full chunks before the current one, and the current. */
	KUNIT_EXPECT_EQ(test, n, 3 * per_chunk + 3000 % per_chunk);
	KUNIT_EXPECT_EQ(test, first, 3000 - n);
	KUNIT_EXPECT_EQ(test, first_entry, 3000 - n);
	KUNIT_EXPECT_TRUE(test, ordered);
	KUNIT_EXPECT_EQ(test, last_ts, 1000 + 2999 * 10);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, cpu), 3000 - n);
	KUNIT_EXPECT_EQ(test, mt_ring_entries(&mt_top.buf, cpu), 3000);
	migrate_enable();
	WRITE_ONCE(mt_top.buf.overwrite, false);
	mt_ring_free(&mt_top.buf);
}

/* Gaps that do not fit a 32-bit delta: the times still come back exact. */
static void mt_test_time_records(struct kunit *test)
{
	u64 step = 5ULL * NSEC_PER_SEC + 7, first_entry, last_ts;
	bool ordered;
	u32 first;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(&mt_top.buf, 64), 0);
	/* Kept on this CPU, yet preemptible: a failed expectation allocates. */
	migrate_disable();
	KUNIT_EXPECT_EQ(test, mt_test_fill(100, 12345, step), 100);
	KUNIT_EXPECT_EQ(test, mt_test_read(&first, &first_entry, &ordered, &last_ts), 100);
	KUNIT_EXPECT_EQ(test, last_ts, 12345 + 99 * step);
	KUNIT_EXPECT_TRUE(test, ordered);
	migrate_enable();
	mt_ring_free(&mt_top.buf);
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
		r = mt_ring_write(this_cpu_ptr(&mt_rings), sizeof(*r), MT_EV_MARK, a->ts[i]);
		if (!r)
			return;
		r->pid = 0;
		r->unused = 0;
		r->mark = a->ts[i];
		mt_ring_commit(this_cpu_ptr(&mt_rings), r);
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
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(&mt_top.buf, 16), 0);
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
	mt_ring_free(&mt_top.buf);
}

/*
 * More buffer than the memory available: the start is refused with
 * -ENOMEM before anything is allocated, and leaves the trace as it was.
 */
static void mt_test_start_too_big(struct kunit *test)
{
	mt_test_reset(test);
	/* The cleanup puts the size back. */
	WRITE_ONCE(mt_top.buf_size_kb, 1048576UL);
	if ((u64)num_online_cpus() << 30 <= (u64)si_mem_available() << PAGE_SHIFT)
		kunit_skip(test, "1 GiB per online CPU fits in this machine");
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_FALSE(test, mt_trace_started(&mt_top));
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), 0);
	WRITE_ONCE(mt_top.buf_size_kb, 16UL);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_ring_nr_buffers(&mt_top.buf), num_online_cpus());
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf),
			(unsigned long long)num_online_cpus() * 16 * 1024);
	mt_test_reset(test);
}

/* Mark the last byte of each online CPU's buffer: a new buffer is zeroed. */
static void mt_test_mark_buffers(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		per_cpu_ptr(&mt_rings, cpu)->data[mt_top.buf.nr_chunks *
						  mt_top.buf.chunk_size - 1] = 0x5a;
}

/* The online CPUs whose buffer lost its mark: reallocated (or gone). */
static unsigned int mt_test_unmarked_buffers(void)
{
	unsigned int n = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(&mt_rings, cpu);

		n += !r->data || r->data[mt_top.buf.nr_chunks * mt_top.buf.chunk_size - 1] != 0x5a;
	}
	return n;
}

/*
 * A write of buffer_size_kb allocates the buffers at once, for each
 * online CPU; the same size again keeps them; the start allocates
 * nothing more, and once it ran the size is fixed until the reset,
 * which frees them.  64 KiB: 16 chunks, so that the trace's own records
 * do not reach the last byte.
 */
static void mt_test_size_write_allocates(struct kunit *test)
{
	unsigned long long bytes = (unsigned long long)num_online_cpus() * 64 * 1024;

	mt_test_reset(test);
	KUNIT_ASSERT_FALSE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_ASSERT_EQ(test, mt_trace_set_size(&mt_top, 64), 0);
	KUNIT_ASSERT_TRUE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_FALSE(test, mt_trace_started(&mt_top));
	KUNIT_EXPECT_EQ(test, READ_ONCE(mt_top.buf_size_kb), 64);
	KUNIT_EXPECT_EQ(test, mt_ring_nr_buffers(&mt_top.buf), num_online_cpus());
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes);
	mt_test_mark_buffers();
	KUNIT_EXPECT_EQ(test, mt_trace_set_size(&mt_top, 64), 0);
	KUNIT_EXPECT_EQ(test, mt_test_unmarked_buffers(), 0);

	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());
	KUNIT_EXPECT_EQ_MSG(test, mt_test_unmarked_buffers(), 0,
			    "the start allocated buffers again");
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes);
	KUNIT_EXPECT_EQ(test, mt_trace_set_size(&mt_top, 32), -EBUSY);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_set_size(&mt_top, 32), -EBUSY);
	KUNIT_EXPECT_EQ(test, READ_ONCE(mt_top.buf_size_kb), 64);
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes);

	/* Another size after a reset: new buffers, of that size. */
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_set_size(&mt_top, 64), 0);
	mt_test_mark_buffers();
	KUNIT_ASSERT_EQ(test, mt_trace_set_size(&mt_top, 16), 0);
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes / 4);
	KUNIT_EXPECT_EQ(test, mt_top.buf.nr_chunks, 4);
	mt_test_reset(test);
}

/*
 * A write of buffer_size_kb that the memory refuses (more than 7/8 of
 * what is available) fails with -ENOMEM and changes nothing: the buffers
 * allocated before, their size and their memory stay, and the start then
 * uses them; with none allocated, none are.
 */
static void mt_test_size_write_refused(struct kunit *test)
{
	unsigned long long bytes = (unsigned long long)num_online_cpus() * 16 * 1024;
	unsigned long size = READ_ONCE(mt_top.buf_size_kb);

	if ((u64)num_online_cpus() << 30 <= (u64)si_mem_available() << PAGE_SHIFT)
		kunit_skip(test, "1 GiB per online CPU fits in this machine");
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_trace_set_size(&mt_top, 1048576), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_EQ(test, READ_ONCE(mt_top.buf_size_kb), size);

	KUNIT_ASSERT_EQ(test, mt_trace_set_size(&mt_top, 16), 0);
	mt_test_mark_buffers();
	KUNIT_EXPECT_EQ(test, mt_trace_set_size(&mt_top, 1048576), -ENOMEM);
	KUNIT_EXPECT_EQ(test, READ_ONCE(mt_top.buf_size_kb), 16);
	KUNIT_ASSERT_TRUE(test, mt_ring_allocated(&mt_top.buf));
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes);
	KUNIT_EXPECT_EQ_MSG(test, mt_test_unmarked_buffers(), 0,
			    "the refused write changed the buffers");
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_test_unmarked_buffers(), 0);
	KUNIT_EXPECT_EQ(test, mt_ring_total_bytes(&mt_top.buf), bytes);
	mt_test_reset(test);
}

/* Write @n records on this CPU from pid *@pid on; count those refused. */
static unsigned int mt_test_fill_count(unsigned int n, u32 *pid)
{
	struct mt_rec_migrate *r;
	unsigned int i, kept = 0;
	unsigned long flags;

	local_irq_save(flags);
	for (i = 0; i < n; i++) {
		u64 ts = 1000 + *pid * 10ULL;

		r = mt_ring_write(this_cpu_ptr(&mt_rings), sizeof(*r), MT_CAUSE_TRY_TO_WAKE_UP, ts);
		if (!r) {
			mt_ring_drop(this_cpu_ptr(&mt_rings), ts);
			continue;
		}
		r->from = 0;
		r->to = 1;
		r->pid = (*pid)++;
		mt_ring_commit(this_cpu_ptr(&mt_rings), r);
		kept++;
	}
	local_irq_restore(flags);
	return kept;
}

/*
 * Overwrite switched while a ring fills: each chunk switch does as the
 * flag says then, and the counts stay exact.  A 16 KiB ring is four
 * chunks of P = 254 migrations.  Off: 3.5 P, all kept.  On: 3 P more,
 * the switches to chunks 4, 5 and 6 recycle chunks 0, 1 and 2 (3 P
 * overwritten).  Off again: the half of chunk 6 left is filled, then the
 * switch to chunk 7 finds chunk 3 not read: the rest is dropped.  Logged
 * = kept + overwritten, and the header says so.
 */
static void mt_test_overwrite_switched(struct kunit *test)
{
	unsigned int p = (4096 - MT_CHUNK_HDR) / 16, n;
	u64 first_entry, last_ts;
	char *header, want[64];
	struct seq_buf sb;
	u32 pid = 0, first;
	bool ordered;
	int cpu;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(&mt_top.buf, 16), 0);
	KUNIT_ASSERT_EQ(test, mt_top.buf.nr_chunks, 4);
	header = kunit_kzalloc(test, mt_header_max(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, header);
	/* Kept on this CPU, yet preemptible: a failed expectation allocates. */
	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, mt_trace_set_overwrite(&mt_top, false), 0);
	KUNIT_EXPECT_EQ(test, mt_test_fill_count(3 * p + p / 2, &pid), 3 * p + p / 2);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, cpu), 0);

	KUNIT_EXPECT_EQ(test, mt_trace_set_overwrite(&mt_top, true), 0);
	KUNIT_EXPECT_EQ(test, mt_test_fill_count(3 * p, &pid), 3 * p);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, cpu), 3 * p);
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, cpu), 0);

	KUNIT_EXPECT_EQ(test, mt_trace_set_overwrite(&mt_top, false), 0);
	KUNIT_EXPECT_EQ(test, mt_test_fill_count(p, &pid), p - p / 2);
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, cpu), p / 2);
	KUNIT_EXPECT_EQ_MSG(test, mt_ring_overwritten(&mt_top.buf, cpu), 3 * p,
			    "what was overwritten while the flag was on is counted");
	KUNIT_EXPECT_EQ(test, mt_ring_entries(&mt_top.buf, cpu), 7 * p);

	n = mt_test_read(&first, &first_entry, &ordered, &last_ts);
	KUNIT_EXPECT_EQ(test, n, 4 * p);
	KUNIT_EXPECT_EQ(test, first, 3 * p);
	KUNIT_EXPECT_EQ(test, first_entry, 3 * p);
	KUNIT_EXPECT_TRUE(test, ordered);
	KUNIT_EXPECT_EQ(test, n + mt_ring_overwritten(&mt_top.buf, cpu),
			mt_ring_entries(&mt_top.buf, cpu));
	migrate_enable();

	seq_buf_init(&sb, header, mt_header_max());
	mt_show_header(&mt_top, &sb, false);
	snprintf(want, sizeof(want), "# dropped %u\n# overwritten %u\n", p / 2, 3 * p);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strnstr(header, want, seq_buf_used(&sb)),
				  "no \"%s\" in the header", want);
	snprintf(want, sizeof(want), "# cpu_lost %d %u %u\n", cpu, p / 2, 3 * p);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strnstr(header, want, seq_buf_used(&sb)),
				  "no \"%s\" in the header", want);
	mt_ring_free(&mt_top.buf);
}

static void mt_test_mark_here(void *unused)
{
	mt_trace_mark(0xfeedUL);
}

static void mt_test_move_and_mark(void *unused)
{
	mt_log_move_at(current, cpumask_first(cpu_online_mask),
		       MT_WHY(MT_CAUSE_DETACH_TASKS, 0), local_clock());
	mt_test_mark_here(NULL);
}

/*
 * A CPU whose buffer could not be allocated when it came online: its
 * records are refused and counted as nobuf, the trace goes on for the
 * other CPUs, and every reader passes over the CPU.  The scheduler's own
 * moves on that CPU may add to its count meanwhile.
 */
static void mt_test_cpu_without_buffer(struct kunit *test)
{
	struct mt_test_seen s = { .mark = 0xfeed };
	char *data, *header, want[48];
	struct mt_ring *r;
	struct seq_buf sb;
	int c0, c1;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	c0 = cpumask_first(cpu_online_mask);
	c1 = cpumask_next(c0, cpu_online_mask);
	r = per_cpu_ptr(&mt_rings, c1);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	/* As mt_ring_cpu_prepare() leaves a CPU after a failure. */
	data = r->data;
	WRITE_ONCE(r->data, NULL);
	r->wchunk = NULL;
	r->wtail = 0;
	r->wlimit = 0;
	KUNIT_EXPECT_EQ(test, mt_ring_nr_buffers(&mt_top.buf), num_online_cpus() - 1);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 1), 0);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c1, mt_test_move_and_mark,
						       NULL, 1), 0);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c0, mt_test_mark_here,
						       NULL, 1), 0);
	KUNIT_EXPECT_TRUE(test, mt_trace_running());
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_GE(test, mt_ring_nobuf(&mt_top.buf, c1), 2);
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, c1), 0);
	/* The header tells the tools what the CPU lost. */
	header = kunit_kzalloc(test, mt_header_max(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, header);
	seq_buf_init(&sb, header, mt_header_max());
	mt_show_header(&mt_top, &sb, false);
	snprintf(want, sizeof(want), "# cpu_lost %d %lu 0\n", c1, mt_ring_nobuf(&mt_top.buf, c1));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strnstr(header, want, seq_buf_used(&sb)),
				  "no \"%s\" in the header", want);
	KUNIT_EXPECT_EQ(test, mt_ring_entries(&mt_top.buf, c1), 0);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, c1), 0);
	mt_test_walk(test, &s);
	KUNIT_EXPECT_EQ(test, s.marks, 1);
	KUNIT_EXPECT_TRUE(test, s.ordered);
	KUNIT_EXPECT_GT(test, mt_ring_used(&mt_top.buf), 0);
	/* The reset frees it with the others. */
	WRITE_ONCE(r->data, data);
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_ring_nobuf(&mt_top.buf, c1), 0);
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

/*
 * Counts land in the period of their time, idle periods stay zero, a
 * cause's reason column counts with it, and events past the history are
 * dropped and stop the collection.
 */
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

static u64 ms_test_read(u64 now)
{
	u64 rows;

	mutex_lock(&mt_mutex);
	rows = ms_read_locked(now);
	mutex_unlock(&mt_mutex);
	return rows;
}

/*
 * A reader folds the counts of a CPU whose period ended without asking
 * it, and every count still lands in the history once: a move counted
 * into that period after the reader looked (a hook that took its time
 * before the end), the CPU's own fold when it moves on, and the stop's.
 * A CPU still in its period, or just past its end, holds its row back.
 */
static void mt_test_stat_remote_read(struct kunit *test)
{
	unsigned int why = MT_WHY(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_IDLE_CORE);
	unsigned int col = ms_column(MT_CAUSE_TRY_TO_WAKE_UP, MT_REASON_IDLE_CORE);
	unsigned int cause = MT_CAUSE_TRY_TO_WAKE_UP - 1;
	unsigned long flags;
	u64 p, t0, late;

	/* The times below need the reader's slack (two ticks) well under p/2. */
	KUNIT_ASSERT_EQ(test, ms_period_msec, 1000);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_start_locked), 0);
	/* Only the counts below: the scheduler's own hooks stay out. */
	WRITE_ONCE(ms_collecting, false);
	p = ms_period_msec * NSEC_PER_MSEC;
	/*
	 * Period 10 and on, as in mt_test_stat_periods().  Every CPU is in
	 * period 0 but those that count below, which move to period 10.
	 */
	t0 = ms_start_ns + 10 * p;
	late = t0 + p + 2 * TICK_NSEC;
	local_irq_save(flags);
	ms_count(why, t0 + p / 2);
	ms_count(why, t0 + p / 2 + 1);
	local_irq_restore(flags);
	/* In period 10, and just past its end: its row is not final. */
	KUNIT_EXPECT_EQ(test, ms_test_read(t0 + p / 2), 10);
	KUNIT_EXPECT_EQ(test, ms_test_read(t0 + p + 1), 10);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 0);
	/* Every CPU idle since period 10's end: row 10 is final, folded. */
	KUNIT_EXPECT_EQ(test, ms_test_read(late), 11);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 2);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, cause), 2);
	/* Read again: nothing new, nothing twice. */
	KUNIT_EXPECT_EQ(test, ms_test_read(late), 11);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 2);
	/* A move of period 10 counted after the read comes with the next. */
	local_irq_save(flags);
	ms_count(why, t0 + p / 2 + 2);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ms_test_read(late), 11);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 3);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, cause), 3);
	/*
	 * Another after that read, then the CPU moves to period 12: its own
	 * fold adds what no reader took, once.
	 */
	local_irq_save(flags);
	ms_count(why, t0 + p / 2 + 3);
	ms_count(why, t0 + 2 * p + 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 4);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, cause), 4);
	/* That CPU holds row 12 back until its period ends too. */
	KUNIT_EXPECT_EQ(test, ms_test_read(t0 + 2 * p + 2), 11);
	KUNIT_EXPECT_EQ(test, ms_test_read(t0 + 3 * p + 2 * TICK_NSEC), 13);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, col), 1);
	KUNIT_EXPECT_EQ(test, ms_read_count(11, cause), 0);
	/* The stop's fold of every CPU adds nothing a reader took. */
	mt_test_locked(ms_test_stop);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, col), 4);
	KUNIT_EXPECT_EQ(test, ms_read_count(10, cause), 4);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, col), 1);
	KUNIT_EXPECT_EQ(test, ms_read_count(12, cause), 1);
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_reset_locked), 0);
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

static struct kunit_case mt_test_cases[] = {
	KUNIT_CASE(mt_test_api_mark),
	KUNIT_CASE(mt_test_mark_while_stopped),
	KUNIT_CASE(mt_test_enable_rules),
	KUNIT_CASE(mt_test_migration_fields),
	KUNIT_CASE(mt_test_exiting_named),
	KUNIT_CASE(mt_test_filled_slow),
	KUNIT_CASE(mt_test_start_names_first),
	KUNIT_CASE(mt_test_start_refused),
	KUNIT_CASE(mt_test_ring_chunks),
	KUNIT_CASE(mt_test_time_records),
	KUNIT_CASE(mt_test_merge_order),
	KUNIT_CASE(mt_test_start_too_big),
	KUNIT_CASE(mt_test_size_write_allocates),
	KUNIT_CASE(mt_test_size_write_refused),
	KUNIT_CASE(mt_test_overwrite_switched),
	KUNIT_CASE(mt_test_cpu_without_buffer),
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
	KUNIT_CASE(mt_test_stat_periods),
	KUNIT_CASE(mt_test_stat_untimed),
	KUNIT_CASE(mt_test_stat_remote_read),
#endif
	{}
};

static struct kunit_suite mt_test_suite = {
	.name = "migrate_trace_lite",
	.test_cases = mt_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_test_suite);
