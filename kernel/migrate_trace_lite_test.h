/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of the migration trace share: a control
 * operation under mt_mutex, a reset, and a made-up task to move.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_TEST_H
#define _KERNEL_MIGRATE_TRACE_LITE_TEST_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uio.h>

#include "migrate_trace_lite.h"

/* Run one control operation under mt_mutex. */
static inline int mt_test_locked(int (*fn)(void))
{
	int ret;

	mutex_lock(&mt_mutex);
	ret = fn();
	mutex_unlock(&mt_mutex);
	return ret;
}

/* Reset the top trace, for mt_test_locked(). */
static inline int mt_test_reset_top(void)
{
	return mt_reset_locked(&mt_top);
}

static inline void mt_test_reset(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, mt_test_locked(mt_test_reset_top), 0);
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
/* Stop mstat, for mt_test_locked(). */
static inline int ms_test_stop(void)
{
	ms_stop_locked();
	return 0;
}
#endif

/* The tunables a test may change, as they were before it. */
static struct {
	unsigned long buf_size_kb;
	bool overwrite;
	struct mt_filter filter;
	struct mt_pids pids;
} mt_test_saved;

/*
 * After every test, passed or failed, last of its cleanups: no trace or
 * stat left running or allocated, the tunables as they were (a cleanup
 * that cannot do so fails the test).  A failed
 * assertion ends a test anywhere; the next test, the boot and user space
 * find the facilities as if no test had run.
 */
static inline void mt_test_cleanup(void *data)
{
	struct kunit *test = data;

	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	mutex_lock(&mt_mutex);
	KUNIT_EXPECT_EQ(test, mt_reset_locked(&mt_top), 0);
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
	KUNIT_EXPECT_EQ(test, ms_reset_locked(), 0);
#endif
	WRITE_ONCE(mt_top.buf.overwrite, mt_test_saved.overwrite);
	WRITE_ONCE(mt_top.buf_size_kb, mt_test_saved.buf_size_kb);
	mt_trace_set_filter_locked(&mt_top, &mt_test_saved.filter);
	KUNIT_EXPECT_EQ(test, mt_trace_set_pids_locked(&mt_top, &mt_test_saved.pids), 0);
	mutex_unlock(&mt_mutex);
}

/* The suites' .init: registered first, the cleanup runs after the test's own. */
static inline int mt_test_init(struct kunit *test)
{
	mt_test_saved.overwrite = READ_ONCE(mt_top.buf.overwrite);
	mt_test_saved.buf_size_kb = READ_ONCE(mt_top.buf_size_kb);
	mt_test_saved.filter = mt_top.filter;
	mt_test_saved.pids = mt_top.pids;
	return kunit_add_action_or_reset(test, mt_test_cleanup, test);
}

/*
 * A task known nowhere else, named @comm, with a pid alloc_pid() never
 * hands out.  The hooks read only its pid, name, flags, exit_state and
 * CPU (0): a reason given keeps them from looking at more.
 */
static inline struct task_struct *
mt_test_made_up_task(struct kunit *test, const char *comm)
{
	struct task_struct *t;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs");
	if (!IS_ENABLED(CONFIG_THREAD_INFO_IN_TASK))
		kunit_skip(test, "task_cpu() of a made-up task needs its stack");
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->pid = PID_MAX_LIMIT;
	strscpy(t->comm, comm);
	return t;
}

/* Move @t by the load balancer to another CPU. */
static inline void mt_test_move(struct task_struct *t)
{
	unsigned int to = cpumask_any_but(cpu_possible_mask, task_cpu(t));
	unsigned long flags;

	local_irq_save(flags);
	__mt_migrate_task(t, to, MT_WHY(MT_CAUSE_DETACH_TASKS,
					MT_REASON_LB_FIRST));
	local_irq_restore(flags);
}

/* Write @n 16-byte records on this CPU, @step ns apart from @ts. */
static inline unsigned int mt_test_fill(unsigned int n, u64 ts, u64 step)
{
	struct mt_rec_migrate *r;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	for (i = 0; i < n; i++) {
		r = mt_ring_write(this_cpu_ptr(&mt_rings), sizeof(*r),
				  MT_CAUSE_TRY_TO_WAKE_UP, ts + i * step);
		if (!r)
			break;
		r->from = 0;
		r->to = 1;
		r->pid = i;
		mt_ring_commit(this_cpu_ptr(&mt_rings), r);
	}
	local_irq_restore(flags);
	return i;
}

/* Milliseconds after the base of each move: a step back of 3 ms after the third. */
#define MT_TEST_STEPS	6

static inline u64 mt_test_step_ns(unsigned int i)
{
	static const unsigned int ms[MT_TEST_STEPS] = { 2, 3, 4, 1, 2, 5 };

	return ms[i] * NSEC_PER_MSEC;
}

/* The times of one output, across CPUs and within each. */
struct mt_order {
	u64 last;
	u64 *cpu_last;
	unsigned int lines;
	unsigned int backwards;		/* a line before the one above it */
	unsigned int cpu_backwards;	/* a line before its CPU's last */
	unsigned int stepped;		/* moves of the made-up task */
	unsigned int clamped;		/* clamped lines */
	bool ended;			/* the dump's last line was seen */
};

static inline void mt_order_init(struct kunit *test, struct mt_order *o)
{
	*o = (struct mt_order){ };
	o->cpu_last = kunit_kcalloc(test, nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o->cpu_last);
}

static inline void mt_order_see(struct mt_order *o, int cpu, u64 ts)
{
	if (o->lines && ts < o->last)
		o->backwards++;
	if (ts < o->cpu_last[cpu])
		o->cpu_backwards++;
	o->last = ts;
	o->cpu_last[cpu] = ts;
	o->lines++;
}

/* An event line of text, "0x<16 hex digits> CPU ..."; others are skipped. */
static inline void mt_order_see_line(struct mt_order *o, const char *line)
{
	unsigned long long ts;
	unsigned int cpu;
	u32 from, to, pid;

	if (sscanf(line, "0x%llx %u", &ts, &cpu) != 2 || cpu >= nr_cpu_ids)
		return;
	mt_order_see(o, cpu, ts);
	if (sscanf(line, "0x%*x %*u . . 0 %u", &from) == 1 && from == MT_EV_CLAMPED)
		o->clamped++;
	if (sscanf(line, "0x%*x %*u %u %u %u", &from, &to, &pid) == 3 &&
	    pid == PID_MAX_LIMIT)
		o->stepped++;
}

/* A non-blocking read() of trace_pipe into @buf.  Return: bytes read. */
static inline size_t mt_test_pipe_read(char *buf, size_t size)
{
	struct kvec kv = { .iov_base = buf, .iov_len = size };
	struct iov_iter to;
	ssize_t n;

	iov_iter_kvec(&to, ITER_DEST, &kv, 1, size);
	n = mt_pipe_read_iter(&mt_top, &to, true);
	return n > 0 ? n : 0;
}

static inline void mt_test_pipe_put(void *unused)
{
	mt_pipe_put(&mt_top);
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

static inline void mt_test_see_moves(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
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

/* The first moves of @s as "cause reason from>to", for a failure's message. */
static inline const char *mt_test_moves_str(struct kunit *test, const struct mt_test_moves *s)
{
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned int i, len = 0;

	if (!buf)
		return "";
	for (i = 0; i < min(s->n, 4U); i++) {
		u8 r = s->m[i].reason;

		len += scnprintf(buf + len, 256 - len, "%s %s %u>%u; ",
				 mt_cause_names[s->m[i].cause],
				 r < MT_REASON_END && mt_reason_names[r] ?
				 mt_reason_names[r] : "-",
				 s->m[i].from, s->m[i].to);
	}
	if (s->n > 4)
		scnprintf(buf + len, 256 - len, "(%u more)", s->n - 4);
	return buf;
}

/*
 * Whether the moves of @s are whole: the first leaves @from, each other
 * leaves the CPU the one before it reached, and the last reaches @to
 * (unless negative: the task may still be on its way).  A test's own
 * move is the first; the scheduler may move its thread again before the
 * trace stops (a balance pulling it while it waits for its CPU), and
 * those moves must be there too.
 */
static inline void mt_test_expect_chain(struct kunit *test,
					const struct mt_test_moves *s,
					int from, int to)
{
	unsigned int i;

	KUNIT_ASSERT_GT(test, s->n, 0U);
	KUNIT_ASSERT_LE(test, s->n, ARRAY_SIZE(s->m));
	for (i = 0; i < s->n; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->m[i].from, i ? s->m[i - 1].to : from,
				    "moves: %s", mt_test_moves_str(test, s));
	if (to >= 0)
		KUNIT_EXPECT_EQ_MSG(test, s->m[s->n - 1].to, to,
				    "moves: %s", mt_test_moves_str(test, s));
}

/* Three distinct possible CPUs: this one, and two others (irqs off). */
static inline void mt_test_three_cpus(int *this, int *b, int *c)
{
	*this = smp_processor_id();
	*b = cpumask_any_but(cpu_possible_mask, *this);
	*c = cpumask_next(*b, cpu_possible_mask);
	if (*c == *this)
		*c = cpumask_next(*c, cpu_possible_mask);
}

/* Put a made-up task on @cpu, allowed everywhere, as the hooks look at it. */
static inline void mt_test_place(struct task_struct *t, int cpu)
{
	WRITE_ONCE(task_thread_info(t)->cpu, cpu);
	t->wake_cpu = cpu;
	t->cpus_ptr = &t->cpus_mask;
	cpumask_copy(&t->cpus_mask, cpu_possible_mask);
}

#endif /* _KERNEL_MIGRATE_TRACE_LITE_TEST_H */
