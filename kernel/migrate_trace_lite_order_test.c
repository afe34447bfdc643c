// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace's time order and of its dump on
 * oops: a clock that steps back in the middle of a trace, read through
 * each of the three outputs (the trace file's merge, trace_pipe and the
 * dump), and the dump's seek to the newest records of a ring.  Like
 * migrate_trace_lite_test.c, an init section suite that uses the real
 * buffers and leaves them reset.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include "migrate_trace_lite_test.h"

/* The trace file's merge: mt_snap_walk(&mt_top, ) callback. */
static void mt_order_see_rec(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
{
	struct mt_order *o = arg;

	mt_order_see(o, cpu, ts);
	o->clamped += rec->type == MT_EV_CLAMPED;
	if (rec->type < MT_CAUSE_END &&
	    ((const struct mt_rec_migrate *)rec)->pid == PID_MAX_LIMIT)
		o->stepped++;
}

/* The dump's lines, which would go to the console. */
static void mt_order_oops_line(const char *line, unsigned int len)
{
	struct mt_order *o = kunit_get_current_test()->priv;
	char buf[MT_LINE_MAX + 1];

	len = min_t(unsigned int, len, MT_LINE_MAX);
	memcpy(buf, line, len);
	buf[len] = '\0';
	o->ended = !strcmp(buf, "# end of dump\n");
	mt_order_see_line(o, buf);
}

/* trace_pipe to its end, as a reader would get it. */
static void mt_order_read_pipe(struct kunit *test, struct mt_order *o)
{
	const size_t size = SZ_1M;
	char *buf = kvmalloc(size, GFP_KERNEL), *line, *p;
	size_t len = 0, n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	while (len < size - 1 && (n = mt_test_pipe_read(buf + len, size - 1 - len)))
		len += n;
	buf[len] = '\0';
	for (p = buf; (line = strsep(&p, "\n"));)
		mt_order_see_line(o, line);
	kvfree(buf);
}

struct mt_steps {
	struct task_struct *t;
	u64 base;
};

/* On a CPU, interrupts off: the made-up task's moves at the stepped times. */
static void mt_log_steps(void *info)
{
	struct mt_steps *a = info;
	unsigned int i;

	for (i = 0; i < MT_TEST_STEPS; i++)
		mt_log_move_at(a->t, 1, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST),
			       a->base + mt_test_step_ns(i));
}

static void mt_expect_ordered(struct kunit *test, struct mt_order *o,
			      const char *output)
{
	KUNIT_EXPECT_EQ_MSG(test, o->cpu_backwards, 0, "%s: a CPU's time went back", output);
	KUNIT_EXPECT_EQ_MSG(test, o->backwards, 0, "%s: not in time order", output);
	KUNIT_EXPECT_EQ_MSG(test, o->stepped, 2 * MT_TEST_STEPS,
			    "%s: moves of the stepped clock missing", output);
	/* Each step back has its clamped line, in every output. */
	KUNIT_EXPECT_GE_MSG(test, o->clamped, 4, "%s: clamped lines missing", output);
}

/* As the boot parameter or nobody left it. */
static void mt_test_oops_restore(void *records)
{
	mt_oops_set_records((unsigned long)records);
}

/*
 * A clock that steps back in the middle of a trace, on two CPUs: every
 * output keeps each CPU's times, and all times, from going back, and
 * counts the records it held at the time before them.
 */
static void mt_test_stepped_clock(struct kunit *test)
{
	struct mt_steps a = { .t = mt_test_made_up_task(test, "mt_stepped") };
	unsigned long clamped = 0, dump_records = READ_ONCE(mt_oops_records);
	struct mt_order o;
	int c0, c1, cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	c0 = cpumask_first(cpu_online_mask);
	c1 = cpumask_next(c0, cpu_online_mask);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_oops_restore,
							(void *)dump_records), 0);
	KUNIT_ASSERT_EQ(test, mt_oops_set_records(64), 0);
	KUNIT_ASSERT_EQ(test, mt_pipe_get(&mt_top), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_pipe_put, NULL), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	a.base = local_clock();
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c0, mt_log_steps, &a, 1), 0);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c1, mt_log_steps, &a, 1), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	for_each_possible_cpu(cpu)
		clamped += mt_ring_clamped(&mt_top.buf, cpu);
	/* 1 and 2 ms come after 4 ms on each CPU. */
	KUNIT_EXPECT_GE(test, clamped, 4);

	mt_order_init(test, &o);
	KUNIT_EXPECT_EQ(test, mt_snap_walk(&mt_top, mt_order_see_rec, &o), 0);
	mt_expect_ordered(test, &o, "trace");

	mt_order_init(test, &o);
	test->priv = &o;
	kunit_activate_static_stub(test, mt_oops_line, mt_order_oops_line);
	mt_oops_dump();
	kunit_deactivate_static_stub(test, mt_oops_line);
	mt_expect_ordered(test, &o, "dump on oops");
	KUNIT_EXPECT_TRUE(test, o.ended);

	mt_order_init(test, &o);
	mt_order_read_pipe(test, &o);
	mt_expect_ordered(test, &o, "trace_pipe");
	/*
	 * The rings put each CPU's records in order, the merge the CPUs:
	 * the reader's own clamp, which would hide a fault of both, had
	 * nothing to do.  Nothing was dropped either.
	 */
	KUNIT_EXPECT_EQ(test, mt_reader_clamped(&mt_top.rd), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, cpu), 0);

	kunit_release_action(test, mt_test_pipe_put, NULL);
	kunit_release_action(test, mt_test_oops_restore, (void *)dump_records);
	mt_test_reset(test);
}

/* The pid of the record at a snapshot reader's place, or U32_MAX. */
static u32 mt_pid_at(struct mt_ring *r, struct mt_cursor *cur)
{
	struct mt_rec *rec;
	u64 ts;

	rec = mt_cursor_peek(r, cur, &ts);
	return rec ? ((struct mt_rec_migrate *)rec)->pid : U32_MAX;
}

/* Where the dump starts: @newest records back from the end of this CPU's ring. */
static u32 mt_newest_pid(u64 newest, u64 *entry)
{
	struct mt_ring *r = this_cpu_ptr(&mt_rings);
	struct mt_cursor cur;

	mt_ring_oldest_chunk(r, &cur);
	mt_ring_seek_newest(r, &cur, newest);
	*entry = cur.entry;
	return mt_pid_at(r, &cur);
}

/*
 * The dump's seek to the newest records goes by the chunk headers: it
 * lands on the right record whatever the chunk, in a ring that stopped
 * full and in a flight recorder that recycled chunks.
 */
static void mt_test_dump_newest(struct kunit *test)
{
	unsigned int per_chunk = (4096 - MT_CHUNK_HDR) / 16;
	u64 entry;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_ring_alloc(&mt_top.buf, 64), 0);
	/* Kept on this CPU, yet preemptible: a failed expectation allocates. */
	migrate_disable();
	KUNIT_EXPECT_EQ(test, mt_test_fill(3000, 1000, 10), 3000);
	KUNIT_EXPECT_EQ(test, mt_newest_pid(100, &entry), 2900);
	KUNIT_EXPECT_EQ(test, entry, 2900);
	/* The first record of a chunk, and the last one of the ring. */
	KUNIT_EXPECT_EQ(test, mt_newest_pid(3000 - 3 * per_chunk, &entry), 3 * per_chunk);
	KUNIT_EXPECT_EQ(test, mt_newest_pid(1, &entry), 2999);
	/* More than there are: from the oldest. */
	KUNIT_EXPECT_EQ(test, mt_newest_pid(5000, &entry), 0);
	/* A writer stopped between its count and its commit: not a record. */
	local64_inc(&this_cpu_ptr(&mt_rings)->entries);
	KUNIT_EXPECT_EQ(test, mt_newest_pid(100, &entry), 2900);
	local64_dec(&this_cpu_ptr(&mt_rings)->entries);

	mt_ring_reset(&mt_top.buf);
	WRITE_ONCE(mt_top.buf.overwrite, true);
	KUNIT_EXPECT_EQ(test, mt_test_fill(10000, 1000, 10), 10000);
	KUNIT_EXPECT_EQ(test, mt_newest_pid(64, &entry), 10000 - 64);
	KUNIT_EXPECT_EQ(test, entry, 10000 - 64);
	/* More than the ring holds: its oldest chunk's first record. */
	KUNIT_EXPECT_EQ(test, mt_newest_pid(9000, &entry), 10000 - 10000 % per_chunk -
			15 * per_chunk);
	migrate_enable();
	WRITE_ONCE(mt_top.buf.overwrite, false);
	mt_ring_free(&mt_top.buf);
}

/* The pid whose saved_comm lines the dump test counts, and their count. */
struct mt_named {
	u32 pid;
	unsigned int lines;
};

static void mt_named_oops_line(const char *line, unsigned int len)
{
	struct mt_named *n = kunit_get_current_test()->priv;
	char buf[MT_LINE_MAX + 1];
	u32 pid, type;

	len = min_t(unsigned int, len, MT_LINE_MAX);
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, "0x%*x %*u . . %u %u :", &pid, &type) == 2 &&
	    pid == n->pid && type == MT_EV_SAVED_COMM)
		n->lines++;
}

/* On a CPU, interrupts off: a move of each task of @info, in turn. */
static void mt_log_pair(void *info)
{
	struct task_struct **t = info;

	mt_log_move_at(t[0], 1, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST),
		       local_clock());
	mt_log_move_at(t[1], 1, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST),
		       local_clock());
}

/*
 * Two pids that share a slot of the name cache, the cached one moving
 * second: the dump names it all the same.  The first pid's failed
 * look-up must not use up the slot.
 */
static void mt_test_dump_shared_slot(struct kunit *test)
{
	struct task_struct *t[2] = {
		mt_test_made_up_task(test, "mt_uncached"),
		mt_test_made_up_task(test, "mt_cached"),
	};
	unsigned long dump_records = READ_ONCE(mt_oops_records);
	struct mt_named n;
	char comm[TASK_COMM_LEN];
	int cpu = cpumask_first(cpu_online_mask);

	/* Pids alloc_pid() never hands out, in the same slot. */
	t[0]->pid = PID_MAX_LIMIT + 5;
	t[1]->pid = PID_MAX_LIMIT + 5 + MT_COMM_SLOTS;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_oops_restore,
							(void *)dump_records), 0);
	KUNIT_ASSERT_EQ(test, mt_oops_set_records(64), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_log_comm(MT_EV_SET_TASK_COMM, t[1]);
	KUNIT_ASSERT_TRUE(test, mt_comm_lookup(&mt_top, t[1]->pid, comm));
	KUNIT_ASSERT_FALSE(test, mt_comm_lookup(&mt_top, t[0]->pid, comm));
	KUNIT_EXPECT_EQ(test, smp_call_function_single(cpu, mt_log_pair, t, 1), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);

	n = (struct mt_named){ .pid = t[1]->pid };
	test->priv = &n;
	kunit_activate_static_stub(test, mt_oops_line, mt_named_oops_line);
	mt_oops_dump();
	kunit_deactivate_static_stub(test, mt_oops_line);
	KUNIT_EXPECT_EQ_MSG(test, n.lines, 1, "the cached pid of a shared slot is not named");

	kunit_release_action(test, mt_test_oops_restore, (void *)dump_records);
	mt_test_reset(test);
}

struct mt_reset_arg {
	struct completion started, done;
	int ret;
};

static int mt_reset_thread(void *data)
{
	struct mt_reset_arg *a = data;

	complete(&a->started);
	a->ret = mt_trace_reset(&mt_top);
	/* For the test and for its cleanup, which waits again. */
	complete_all(&a->done);
	return 0;
}

/*
 * However the test ends: the dump is not left running, and the thread is
 * gone before KUnit frees what it writes.
 */
static void mt_test_reset_thread_end(void *data)
{
	struct mt_reset_arg *a = data;

	atomic_cmpxchg(&mt_dump_state, MT_DUMP_RUNNING, MT_DUMP_DONE);
	wait_for_completion(&a->done);
}

/*
 * A reset waits for a dump on oops that still reads the buffers, but not
 * with mt_mutex held: every other control file stays usable meanwhile.
 */
static void mt_test_reset_waits_unlocked(struct kunit *test)
{
	struct mt_reset_arg *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct task_struct *t;
	bool locked;

	KUNIT_ASSERT_NOT_NULL(test, a);
	init_completion(&a->started);
	init_completion(&a->done);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	atomic_set(&mt_dump_state, MT_DUMP_RUNNING);
	t = kthread_run(mt_reset_thread, a, "mt_reset");
	if (IS_ERR(t)) {
		atomic_set(&mt_dump_state, MT_DUMP_DONE);
		KUNIT_FAIL(test, "cannot start the resetting thread: %ld", PTR_ERR(t));
		return;
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_reset_thread_end, a), 0);
	/* It runs; then well inside the reset's 10 s bound, it waits. */
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&a->started, 20 * HZ), 0);
	msleep(200);
	locked = mutex_trylock(&mt_mutex);
	if (locked)
		mutex_unlock(&mt_mutex);
	KUNIT_EXPECT_TRUE_MSG(test, locked, "a reset holds mt_mutex while a dump runs");
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&a->done),
			       "a reset freed the buffers under a running dump");
	atomic_set(&mt_dump_state, MT_DUMP_DONE);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&a->done, 20 * HZ), 0);
	KUNIT_EXPECT_EQ(test, a->ret, 0);
	KUNIT_EXPECT_FALSE(test, mt_trace_started(&mt_top));
}

/* A writer that keeps moving on under a reader one lap behind. */
static bool mt_no_catch_up(struct mt_pipe_cpu *pc, struct mt_ring *r,
			   unsigned long ws)
{
	return false;
}

struct mt_lap {
	u64 ts;
	unsigned int n;
	unsigned int written;
};

/*
 * On a CPU, interrupts off: @n records 1 ns apart from now on, after
 * whatever the CPU logged before.
 */
static void mt_log_lap(void *info)
{
	struct mt_lap *l = info;

	l->ts = local_clock();
	l->written = mt_test_fill(l->n, l->ts, 1);
}

/*
 * A flight recorder's CPU recycles the chunk under trace_pipe's cursor
 * and the reader fails to catch up: that CPU's kept records, older than
 * another CPU's, must still come out first, with no clamped line.
 */
static void mt_test_pipe_lapped(struct kunit *test)
{
	struct mt_lap a = { .n = 10000 }, b = { .n = 1 };
	struct mt_order o;
	int c0, c1;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	c0 = cpumask_first(cpu_online_mask);
	c1 = cpumask_next(c0, cpu_online_mask);
	mt_test_reset(test);
	WRITE_ONCE(mt_top.buf.overwrite, true);
	WRITE_ONCE(mt_top.buf_size_kb, 64);
	KUNIT_ASSERT_EQ(test, mt_pipe_get(&mt_top), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_pipe_put, NULL), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	/* The prologue and what the CPUs logged so far. */
	mt_order_init(test, &o);
	mt_order_read_pipe(test, &o);

	/* CPU c0 laps the reader; then c1 logs a record after all of c0's. */
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c0, mt_log_lap, &a, 1), 0);
	KUNIT_EXPECT_EQ(test, a.written, a.n);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(c1, mt_log_lap, &b, 1), 0);
	KUNIT_EXPECT_EQ(test, b.written, b.n);
	KUNIT_EXPECT_GT(test, b.ts, a.ts + a.n);
	/* Past the reader's slack: only c0's ring can hold c1's record back. */
	usleep_range(100, 200);

	kunit_activate_static_stub(test, mt_pipe_catch_up, mt_no_catch_up);
	mt_order_read_pipe(test, &o);
	kunit_deactivate_static_stub(test, mt_pipe_catch_up);
	mt_order_read_pipe(test, &o);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_order_read_pipe(test, &o);

	KUNIT_EXPECT_EQ_MSG(test, o.clamped, 0,
			    "a lapped CPU's records came out after a later one's");
	KUNIT_EXPECT_EQ(test, mt_reader_clamped(&mt_top.rd), 0);
	KUNIT_EXPECT_EQ(test, o.backwards, 0);
	kunit_release_action(test, mt_test_pipe_put, NULL);
	mt_test_reset(test);
}

/* Records of one CPU, of pids no task has, and what a reader got of them. */
struct mt_flip {
	unsigned int n;		/* to write */
	unsigned int kept;	/* the ring took */
	u32 pid;		/* the next one's pid */
	int cpu;
	u64 lines;		/* of them trace_pipe handed out */
	u64 lost;		/* in the CPU's lost lines */
};

#define MT_FLIP_PID	(PID_MAX_LIMIT + 1)

/* On the CPU, interrupts off: @n records 1 ns apart from now on. */
static void mt_flip_fill(void *info)
{
	struct mt_flip *f = info;
	u64 ts = local_clock();
	struct mt_rec_migrate *r;
	unsigned int i;

	f->kept = 0;
	for (i = 0; i < f->n; i++) {
		r = mt_ring_write(this_cpu_ptr(&mt_rings), sizeof(*r),
				  MT_CAUSE_TRY_TO_WAKE_UP, ts + i);
		if (!r) {
			mt_ring_drop(this_cpu_ptr(&mt_rings), ts + i);
			continue;
		}
		r->from = 0;
		r->to = 1;
		r->pid = f->pid++;
		mt_ring_commit(this_cpu_ptr(&mt_rings), r);
		f->kept++;
	}
}

/* Read trace_pipe as far as it goes: count the test's lines and lost lines. */
static void mt_flip_read(struct kunit *test, struct mt_flip *f)
{
	const size_t size = SZ_1M;
	char *buf = kvmalloc(size, GFP_KERNEL), *line, *p;
	unsigned long long count;
	unsigned int cpu, kind;
	size_t len = 0, n;
	u32 pid;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	f->lines = 0;
	f->lost = 0;
	while (len < size - 1 && (n = mt_test_pipe_read(buf + len, size - 1 - len)))
		len += n;
	buf[len] = '\0';
	for (p = buf; (line = strsep(&p, "\n"));) {
		if (sscanf(line, "0x%*x %u . . 0 %u %llu", &cpu, &kind, &count) == 3 &&
		    cpu == f->cpu && kind == MT_EV_LOST)
			f->lost += count;
		else if (sscanf(line, "0x%*x %u 0 1 %u", &cpu, &pid) == 2 &&
			 cpu == f->cpu && pid >= MT_FLIP_PID)
			f->lines++;
	}
	kvfree(buf);
}

/*
 * Overwrite switched off under a trace_pipe reader that the flight
 * recorder overtook: the reader still catches up (it goes by the ring,
 * not the flag), and gets every record as kept or lost, once.  Then,
 * off, the ring takes what the reader released and drops the rest, in
 * a lost line at the end.  The records are written while the trace is
 * stopped, so that nothing else is logged meanwhile; a 16 KiB ring holds
 * four chunks of P = 254.
 */
static void mt_test_pipe_overwrite_off(struct kunit *test)
{
	unsigned int p = (4096 - MT_CHUNK_HDR) / 16, room;
	struct mt_flip f = { .n = 2000, .pid = MT_FLIP_PID };
	u64 over0, drop0;
	struct mt_ring *r;

	f.cpu = cpumask_first(cpu_online_mask);
	r = per_cpu_ptr(&mt_rings, f.cpu);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_set_overwrite(&mt_top, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_set_size(&mt_top, 16), 0);
	KUNIT_ASSERT_EQ(test, mt_pipe_get(&mt_top), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_pipe_put, NULL), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	/* The prologue and what the scheduler logged: the reader at the end. */
	mt_flip_read(test, &f);
	over0 = mt_ring_overwritten(&mt_top.buf, f.cpu);
	drop0 = mt_ring_dropped(&mt_top.buf, f.cpu);
	KUNIT_EXPECT_EQ(test, drop0, 0);

	/* On: the writer laps the reader, recycling its chunk. */
	KUNIT_ASSERT_EQ(test, smp_call_function_single(f.cpu, mt_flip_fill, &f, 1), 0);
	KUNIT_EXPECT_EQ(test, f.kept, f.n);
	KUNIT_EXPECT_EQ(test, mt_trace_set_overwrite(&mt_top, false), 0);
	mt_flip_read(test, &f);
	KUNIT_EXPECT_EQ_MSG(test, f.lines + f.lost, f.n,
			    "kept %llu + lost %llu: the reader did not catch up",
			    f.lines, f.lost);
	KUNIT_EXPECT_GT(test, f.lines, 0);
	KUNIT_EXPECT_LE(test, f.lines, 4 * p);
	KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, f.cpu) - over0, f.lost);
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, f.cpu), drop0);

	/* Off: the rest of the reader's chunk and the three it released. */
	room = p - r->wtail / 16 + 3 * p;
	KUNIT_ASSERT_EQ(test, smp_call_function_single(f.cpu, mt_flip_fill, &f, 1), 0);
	KUNIT_EXPECT_EQ(test, f.kept, room);
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, f.cpu) - drop0, f.n - room);
	mt_flip_read(test, &f);
	KUNIT_EXPECT_EQ(test, f.lines, room);
	KUNIT_EXPECT_EQ(test, f.lost, f.n - room);
	kunit_release_action(test, mt_test_pipe_put, NULL);
	mt_test_reset(test);
}

static struct kunit_case mt_order_test_cases[] = {
	KUNIT_CASE(mt_test_stepped_clock),
	KUNIT_CASE(mt_test_dump_newest),
	KUNIT_CASE(mt_test_dump_shared_slot),
	KUNIT_CASE(mt_test_reset_waits_unlocked),
	KUNIT_CASE(mt_test_pipe_lapped),
	KUNIT_CASE(mt_test_pipe_overwrite_off),
	{}
};

static struct kunit_suite mt_order_test_suite = {
	.name = "migrate_trace_lite_order",
	.test_cases = mt_order_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_order_test_suite);
