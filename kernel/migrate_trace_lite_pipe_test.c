// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of trace_pipe read while writers run: writers whose clocks
 * step back, threads hopping from CPU to CPU under load, and a writer
 * slower than the reader.  Each checks that every move comes out once,
 * in time order, with no clamped line.  Like migrate_trace_lite_test.c,
 * an init section suite that uses the real buffers and leaves them reset.
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
#include <linux/uio.h>

#include "migrate_trace_lite_test.h"

/* Writer threads of a live test, at most; stepped rounds of each. */
#define MT_LIVE_WRITERS		4
#define MT_LIVE_ROUNDS		32
#define MT_LIVE_MOVES		(MT_LIVE_ROUNDS * MT_TEST_STEPS)
/* How long the load test's threads hop from CPU to CPU. */
#define MT_LIVE_LOAD_MS		300
/* However long a slow (KASAN, KCSAN, TCG) kernel may take. */
#define MT_LIVE_WAIT		(30 * HZ)

struct mt_live;

/* One writer: a kernel thread that starts on @cpu. */
struct mt_live_writer {
	struct mt_live *l;
	struct task_struct *t;
	struct task_struct *moved;	/* the made-up task it moves (stepped) */
	int cpu;
	unsigned int idx;
	unsigned int logged;		/* stepped moves, or hops */
	unsigned int off_cpu;		/* stepped rounds run off @cpu */
	/* What the reader found of it: */
	unsigned int next;		/* stepped: the next move expected */
	unsigned int seen;		/* moves in the stream */
	unsigned int wrong;		/* out of order, twice, on another CPU */
};

struct mt_live {
	struct mt_live_writer w[MT_LIVE_WRITERS];
	unsigned int nr;
	atomic_t ready, running;
	struct completion go;
	bool stop;
	unsigned long end;		/* load: when the hops stop */
};

/* A test's thread, done with its work: wait for kthread_stop(). */
static void mt_test_park(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static void mt_live_park(struct mt_live *l)
{
	/* What it counted is seen by whoever sees it done. */
	atomic_dec_return_release(&l->running);
	mt_test_park();
}

/* Ready on its CPU, the thread waits for the trace to start. */
static bool mt_live_wait_go(struct mt_live_writer *w)
{
	atomic_inc(&w->l->ready);
	wait_for_completion(&w->l->go);
	return !READ_ONCE(w->l->stop);
}

/*
 * On its CPU, rounds of the made-up task's moves at the stepped times of
 * mt_test_step_ns(), relative to a clock read in the round, a millisecond or
 * two apart: the CPU's clock runs ahead, steps back, runs ahead again.
 * Each move has a pid of its own, PID_MAX_LIMIT + the writer's and the
 * move's number.
 */
static int mt_live_step_fn(void *data)
{
	struct mt_live_writer *w = data;
	unsigned int round, i;
	unsigned long flags;
	u64 base;

	if (!mt_live_wait_go(w))
		goto out;
	for (round = 0; round < MT_LIVE_ROUNDS && !READ_ONCE(w->l->stop); round++) {
		local_irq_save(flags);
		w->off_cpu += smp_processor_id() != w->cpu;
		/* Busy before the clock is read, as the hooks are. */
		mt_writer_begin();
		base = local_clock();
		for (i = 0; i < MT_TEST_STEPS; i++) {
			w->moved->pid = PID_MAX_LIMIT + w->idx * MT_LIVE_MOVES + w->logged++;
			mt_log_move_at(w->moved, 1, MT_WHY(MT_CAUSE_DETACH_TASKS,
							   MT_REASON_LB_FIRST),
				       base + mt_test_step_ns(i));
		}
		mt_writer_end();
		local_irq_restore(flags);
		usleep_range(1000, 2000);
	}
out:
	mt_live_park(w->l);
	return 0;
}

/* Real moves, as fast as it can: to the next online CPU, and again. */
static int mt_live_hop_fn(void *data)
{
	struct mt_live_writer *w = data;
	int cpu = w->cpu;

	if (!mt_live_wait_go(w))
		goto out;
	while (!READ_ONCE(w->l->stop) && time_before(jiffies, w->l->end)) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		if (!set_cpus_allowed_ptr(current, cpumask_of(cpu)))
			w->logged++;
	}
out:
	mt_live_park(w->l);
	return 0;
}

/* However the test ends: let the threads out of every wait, stop them. */
static void mt_live_end(void *data)
{
	struct mt_live *l = data;
	unsigned int i;

	WRITE_ONCE(l->stop, true);
	complete_all(&l->go);
	for (i = 0; i < l->nr; i++) {
		if (l->w[i].t)
			kthread_stop_put(l->w[i].t);
		l->w[i].t = NULL;
	}
}

/* A writer thread on each of the first online CPUs, up to MT_LIVE_WRITERS. */
static void mt_live_start(struct kunit *test, struct mt_live *l, int (*fn)(void *))
{
	unsigned long end = jiffies + MT_LIVE_WAIT;
	int cpu;

	init_completion(&l->go);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_live_end, l), 0);
	for_each_online_cpu(cpu) {
		struct mt_live_writer *w = &l->w[l->nr];
		struct task_struct *t;

		if (l->nr == MT_LIVE_WRITERS)
			break;
		*w = (struct mt_live_writer){ .l = l, .cpu = cpu, .idx = l->nr };
		if (fn == mt_live_step_fn)
			w->moved = mt_test_made_up_task(test, "mt_live");
		t = kthread_create(fn, w, "mt_live/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		w->t = get_task_struct(t);
		l->nr++;
		atomic_inc(&l->running);
		set_cpus_allowed_ptr(t, cpumask_of(cpu));
		wake_up_process(t);
	}
	while (atomic_read(&l->ready) < l->nr) {
		KUNIT_ASSERT_TRUE_MSG(test, time_before(jiffies, end),
				      "the writer threads did not start");
		usleep_range(1000, 2000);
	}
}

/* trace_pipe's lines, read a piece at a time as a reader would. */
struct mt_live_reader {
	struct mt_live *l;
	char *buf;
	size_t len;			/* of a line not yet whole */
	struct mt_order o;
	bool live;			/* the writers still run */
	unsigned int live_lines;	/* of the writers, read while they ran */
	u32 watch_pid;			/* lines moving this pid are counted */
	unsigned int watched;
};

#define MT_LIVE_BUF	SZ_64K

static void mt_live_see_line(struct mt_live_reader *rd, const char *line)
{
	struct mt_live *l = rd->l;
	unsigned long long ts;
	u32 cpu, from, to, pid;
	unsigned int i;

	mt_order_see_line(&rd->o, line);
	if (sscanf(line, "0x%llx %u %u %u %u", &ts, &cpu, &from, &to, &pid) != 5)
		return;
	rd->watched += rd->watch_pid && pid == rd->watch_pid;
	for (i = 0; i < l->nr; i++) {
		struct mt_live_writer *w = &l->w[i];

		if (w->moved) {
			u32 id = pid - PID_MAX_LIMIT;

			if (pid < PID_MAX_LIMIT || id / MT_LIVE_MOVES != i)
				continue;
			/* In the order logged, each once, on its CPU. */
			if (id % MT_LIVE_MOVES != w->next || cpu != w->cpu)
				w->wrong++;
			w->next = id % MT_LIVE_MOVES + 1;
		} else if (pid != w->t->pid) {
			continue;
		}
		w->seen++;
		rd->live_lines += rd->live;
		return;
	}
}

/* One non-blocking read; its whole lines are looked at.  Return: bytes. */
static size_t mt_live_read(struct mt_live_reader *rd)
{
	size_t n = mt_test_pipe_read(rd->buf + rd->len, MT_LIVE_BUF - 1 - rd->len);
	char *line = rd->buf, *nl;

	rd->len += n;
	rd->buf[rd->len] = '\0';
	while ((nl = strchr(line, '\n'))) {
		*nl = '\0';
		mt_live_see_line(rd, line);
		line = nl + 1;
	}
	rd->len = strlen(line);
	memmove(rd->buf, line, rd->len);
	return n;
}

static void mt_live_kvfree(void *p)
{
	kvfree(p);
}

/*
 * Start the trace and a trace_pipe reader, let the writers go, read
 * while they run (a short sleep when there was nothing), then stop the
 * trace and read the rest.
 */
static void mt_live_run(struct kunit *test, struct mt_live *l,
			struct mt_live_reader *rd)
{
	unsigned long end = jiffies + MT_LIVE_WAIT;

	*rd = (struct mt_live_reader){ .l = l, .buf = kvmalloc(MT_LIVE_BUF, GFP_KERNEL) };
	KUNIT_ASSERT_NOT_NULL(test, rd->buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_live_kvfree, rd->buf), 0);
	mt_order_init(test, &rd->o);
	KUNIT_ASSERT_EQ(test, mt_pipe_get(&mt_top), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_pipe_put, NULL), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	rd->live = true;
	l->end = jiffies + msecs_to_jiffies(MT_LIVE_LOAD_MS);
	complete_all(&l->go);
	while (atomic_read_acquire(&l->running) && time_before(jiffies, end)) {
		if (!mt_live_read(rd))
			usleep_range(50, 100);
		cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&l->running), 0, "the writers did not end");
	rd->live = false;
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	while (mt_live_read(rd))
		;
	KUNIT_EXPECT_EQ_MSG(test, rd->len, 0, "the stream ends inside a line");
	kunit_release_action(test, mt_test_pipe_put, NULL);
}

/* The clamps of the trace: the rings' records, trace_pipe's own lines. */
static unsigned long mt_live_ring_clamped(void)
{
	unsigned long clamped = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		clamped += mt_ring_clamped(&mt_top.buf, cpu);
	return clamped;
}

static void mt_live_expect_whole(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, mt_ring_dropped(&mt_top.buf, cpu), 0);
		KUNIT_EXPECT_EQ(test, mt_ring_overwritten(&mt_top.buf, cpu), 0);
	}
}

/*
 * trace_pipe read while writers on up to four CPUs log across clock
 * steps: each CPU's clock runs ahead by up to 5 ms and steps back, round
 * after round, while the reader hands out what the busy marks and its
 * own clock allow.  The stream is in time order, each CPU's moves come
 * in the order logged, each once; the rings' clamped records are there,
 * one line each, and the reader, whose clamp would hide a fault of the
 * rings or of its bound, had none to make (on a stable clock).
 */
static void mt_test_pipe_live_step(struct kunit *test)
{
	struct mt_live *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct mt_live_reader *rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	unsigned int i, logged = 0;
	unsigned long ring;

	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	mt_test_reset(test);
	mt_live_start(test, l, mt_live_step_fn);
	mt_live_run(test, l, rd);
	ring = mt_live_ring_clamped();

	for (i = 0; i < l->nr; i++) {
		struct mt_live_writer *w = &l->w[i];

		KUNIT_EXPECT_EQ_MSG(test, w->logged, MT_LIVE_MOVES, "writer on CPU %d", w->cpu);
		KUNIT_EXPECT_EQ_MSG(test, w->off_cpu, 0, "writer on CPU %d moved", w->cpu);
		KUNIT_EXPECT_EQ_MSG(test, w->seen, w->logged,
				    "CPU %d: stepped moves missing or twice", w->cpu);
		KUNIT_EXPECT_EQ_MSG(test, w->wrong, 0,
				    "CPU %d: stepped moves out of order, twice or elsewhere",
				    w->cpu);
		logged += w->logged;
	}
	KUNIT_EXPECT_EQ(test, rd->o.cpu_backwards, 0);
	KUNIT_EXPECT_EQ(test, rd->o.backwards, 0);
	KUNIT_EXPECT_GT_MSG(test, rd->live_lines, 0,
			    "no stepped move was read while the writers ran");
	/* Two steps back a round, each a clamped record, each in the stream. */
	KUNIT_EXPECT_GE(test, ring, 2 * logged / MT_TEST_STEPS);
	KUNIT_EXPECT_EQ(test, rd->o.clamped, ring + mt_reader_clamped(&mt_top.rd));
	if (sched_clock_stable())
		KUNIT_EXPECT_EQ(test, mt_reader_clamped(&mt_top.rd), 0);
	mt_live_expect_whole(test);
	kunit_info(test, "%u writers, %u stepped moves (%u read live), clamped: ring %lu, trace_pipe %llu",
		   l->nr, logged, rd->live_lines, ring, mt_reader_clamped(&mt_top.rd));
	kunit_release_action(test, mt_live_end, l);
	mt_test_reset(test);
}

/*
 * The bound of busy marks and slack under load: threads on up to four
 * CPUs move from CPU to CPU as fast as they can, for real, for
 * MT_LIVE_LOAD_MS, while trace_pipe is read.  Every move is there, in
 * time order; with a stable clock neither the rings nor the reader
 * clamped a line.  The counts are printed: how many clamps an
 * overcommitted guest makes.
 */
static void mt_test_pipe_load(struct kunit *test)
{
	struct mt_live *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct mt_live_reader *rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	unsigned int i, hops = 0;
	unsigned long ring;

	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	mt_test_reset(test);
	mt_live_start(test, l, mt_live_hop_fn);
	mt_live_run(test, l, rd);
	ring = mt_live_ring_clamped();

	for (i = 0; i < l->nr; i++) {
		struct mt_live_writer *w = &l->w[i];

		KUNIT_EXPECT_EQ_MSG(test, w->seen, w->logged,
				    "thread from CPU %d: moves missing", w->cpu);
		hops += w->logged;
	}
	KUNIT_EXPECT_GT(test, hops, 0);
	KUNIT_EXPECT_EQ(test, rd->o.cpu_backwards, 0);
	KUNIT_EXPECT_EQ(test, rd->o.backwards, 0);
	KUNIT_EXPECT_GT_MSG(test, rd->live_lines, 0, "no move was read while the threads ran");
	KUNIT_EXPECT_EQ(test, rd->o.clamped, ring + mt_reader_clamped(&mt_top.rd));
	if (sched_clock_stable()) {
		KUNIT_EXPECT_EQ(test, ring, 0);
		KUNIT_EXPECT_EQ(test, mt_reader_clamped(&mt_top.rd), 0);
	}
	mt_live_expect_whole(test);
	kunit_info(test, "%u threads, %u moves (%u read live), %u lines, clamped: ring %lu, trace_pipe %llu",
		   l->nr, hops, rd->live_lines, rd->o.lines, ring, mt_reader_clamped(&mt_top.rd));
	kunit_release_action(test, mt_live_end, l);
	mt_test_reset(test);
}

/* A writer that took its timestamp and has not committed yet. */
struct mt_slow {
	struct task_struct *t;
	struct task_struct *moved;
	u64 ts;
	bool stamped, release, done;
};

/*
 * On its CPU, interrupts off: busy, the clock read, then nothing until
 * the test lets it commit (or 200 ms passed), as a writer would whose
 * CPU stalls between the two (a vCPU the host does not run).
 */
static int mt_slow_writer_fn(void *data)
{
	struct mt_slow *s = data;
	unsigned long flags;
	u64 deadline;

	local_irq_save(flags);
	mt_writer_begin();
	s->ts = local_clock();
	deadline = s->ts + 200 * NSEC_PER_MSEC;
	/* Pairs with mt_test_wait_flag(): the test sees the busy mark first. */
	smp_store_release(&s->stamped, true);
	/* Pairs with the test's release: it logged its move before this. */
	while (!smp_load_acquire(&s->release) && local_clock() < deadline)
		cpu_relax();
	mt_log_move_at(s->moved, 1, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST),
		       s->ts);
	mt_writer_end();
	local_irq_restore(flags);
	/* Pairs with mt_test_wait_flag(): the commit is seen before this. */
	smp_store_release(&s->done, true);
	mt_test_park();
	return 0;
}

static void mt_slow_end(void *data)
{
	struct mt_slow *s = data;

	/* Pairs with the writer's acquire: let it out of its wait. */
	smp_store_release(&s->release, true);
	if (s->t)
		kthread_stop_put(s->t);
	s->t = NULL;
}

static void mt_test_unpin(void *unused)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* Wait for @flag, at most MT_LIVE_WAIT. */
static bool mt_test_wait_flag(bool *flag)
{
	unsigned long end = jiffies + MT_LIVE_WAIT;

	/* Pairs with the writer's release of @flag. */
	while (!smp_load_acquire(flag)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * The busy mark, alone: a writer on one CPU took its timestamp and
 * stalls before its commit, far longer than the slack, while this CPU
 * logs a later move and reads trace_pipe.  The later move must wait for
 * the stalled one: handed out first, it would put the stalled record
 * behind it, clamped by the reader.
 */
static void mt_test_pipe_slow_writer(struct kunit *test)
{
	struct mt_slow *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct mt_live *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct mt_live_reader *rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	struct task_struct *later, *t;
	unsigned long flags;
	unsigned int early;
	int c0, c1;
	u64 ts;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs");
	c0 = cpumask_first(cpu_online_mask);
	c1 = cpumask_next(c0, cpu_online_mask);
	s->moved = mt_test_made_up_task(test, "mt_slow");
	later = mt_test_made_up_task(test, "mt_later");
	later->pid = PID_MAX_LIMIT + 1;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_unpin, NULL), 0);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(c1)), 0);
	*rd = (struct mt_live_reader){ .l = l, .buf = kvmalloc(MT_LIVE_BUF, GFP_KERNEL),
				       .watch_pid = later->pid };
	KUNIT_ASSERT_NOT_NULL(test, rd->buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_live_kvfree, rd->buf), 0);
	mt_order_init(test, &rd->o);
	KUNIT_ASSERT_EQ(test, mt_pipe_get(&mt_top), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_pipe_put, NULL), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_slow_end, s), 0);
	t = kthread_create(mt_slow_writer_fn, s, "mt_slow");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	s->t = get_task_struct(t);
	set_cpus_allowed_ptr(t, cpumask_of(c0));
	wake_up_process(t);
	KUNIT_ASSERT_TRUE_MSG(test, mt_test_wait_flag(&s->stamped),
			      "the writer did not take its timestamp");

	/* Well past the slack: a later move of this CPU, then a read. */
	usleep_range(100, 200);
	local_irq_save(flags);
	mt_writer_begin();
	ts = local_clock();
	mt_log_move_at(later, 1, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_FIRST), ts);
	mt_writer_end();
	local_irq_restore(flags);
	usleep_range(100, 200);
	while (mt_live_read(rd))
		;
	early = rd->watched;

	/* Pairs with the writer's acquire: this CPU's move is logged. */
	smp_store_release(&s->release, true);
	KUNIT_EXPECT_TRUE(test, mt_test_wait_flag(&s->done));
	KUNIT_EXPECT_GT(test, ts, s->ts + 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	while (mt_live_read(rd))
		;
	KUNIT_EXPECT_EQ_MSG(test, early, 0,
			    "a move was handed out before a busy CPU's earlier one");
	KUNIT_EXPECT_EQ(test, rd->watched, 1);
	KUNIT_EXPECT_EQ(test, rd->o.stepped, 1);
	KUNIT_EXPECT_EQ(test, rd->o.backwards, 0);
	KUNIT_EXPECT_EQ(test, rd->o.clamped, 0);
	KUNIT_EXPECT_EQ(test, mt_reader_clamped(&mt_top.rd), 0);
	kunit_release_action(test, mt_slow_end, s);
	kunit_release_action(test, mt_test_pipe_put, NULL);
	kunit_release_action(test, mt_test_unpin, NULL);
	mt_test_reset(test);
}

static struct kunit_case mt_pipe_test_cases[] = {
	KUNIT_CASE(mt_test_pipe_live_step),
	KUNIT_CASE(mt_test_pipe_load),
	KUNIT_CASE(mt_test_pipe_slow_writer),
	{}
};

static struct kunit_suite mt_pipe_test_suite = {
	.name = "migrate_trace_lite_pipe",
	.test_cases = mt_pipe_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_pipe_test_suite);
