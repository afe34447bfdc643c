// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of three reasons taken on real kernel paths by kernel
 * threads of the test: a wakeup onto the waker's CPU, migrate_enable()
 * carrying out an affinity change, and an RT push.  Like the main suite
 * they use the real buffers, so they are an init section suite that runs
 * at boot, before anybody traces, and leaves everything reset.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/threads.h>

#include "migrate_trace_lite_test.h"

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
	struct task_struct *t;
	bool stop;
	int b;
};

/* However long a step may take on a slow (KCSAN, KASAN, TCG) kernel. */
#define MT_TEST_WAIT	(30 * HZ)

/*
 * The end of a test's kernel thread, however the test ends: let it out
 * of every wait, stop it, drop it.  Registered before the thread runs, it
 * also runs before KUnit frees what the thread uses.
 */
static void mt_test_kthread_end(void *data)
{
	struct mt_test_kthread *k = data;

	WRITE_ONCE(k->stop, true);
	complete_all(&k->go);
	if (k->t)
		kthread_stop_put(k->t);
	k->t = NULL;
}

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

/* Whether @t went to sleep in @state (and off its CPU) in time. */
static bool mt_test_inactive(struct task_struct *t, unsigned int state)
{
	unsigned long end = jiffies + MT_TEST_WAIT;

	while (!wait_task_inactive(t, state)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
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
	while (!cpumask_equal(&current->cpus_mask, cpumask_of(k->b)) &&
	       !READ_ONCE(k->stop))
		usleep_range(1000, 2000);
	migrate_enable();
	/* Without preemption: the stopper moves it while it is queued. */
	cond_resched();
	complete(&k->done);
	mt_test_kthread_park();
	return 0;
}

/*
 * The moves of @k's thread made by @fn, as the trace has them, and the
 * CPU it sleeps on at the end (the trace stopped once it was asleep).
 */
static void mt_test_kthread_run(struct kunit *test, int (*fn)(void *),
				struct mt_test_moves *s, int *a, int *b, int *end)
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
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_kthread_end, k), 0);
	t = kthread_create(fn, k, "mt_test_kthread");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	k->t = get_task_struct(t);
	s->pid = t->pid;
	set_cpus_allowed_ptr(t, cpumask_of(*a));
	wake_up_process(t);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&k->ready, MT_TEST_WAIT), 0UL);
	mt_test_reset(test);
	if (fn == mt_test_current_cpu_fn) {
		/* Asleep on a, woken from b. */
		KUNIT_ASSERT_TRUE(test, mt_test_inactive(t, TASK_UNINTERRUPTIBLE));
		KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
		complete_on_current_cpu(&k->go);
	} else {
		/* Returns once migrate_enable() moved it. */
		KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
		set_cpus_allowed_ptr(t, cpumask_of(*b));
	}
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&k->done, MT_TEST_WAIT), 0UL);
	KUNIT_EXPECT_TRUE(test, mt_test_inactive(t, TASK_INTERRUPTIBLE));
	*end = task_cpu(t);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	kunit_release_action(test, mt_test_kthread_end, k);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
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
	struct task_struct *t[3];
	bool stop_d, stop;
};

/* As mt_test_kthread_end(), for the three threads. */
static void mt_test_rt_end(void *data)
{
	struct mt_test_rt *k = data;
	int i;

	WRITE_ONCE(k->stop_d, true);
	WRITE_ONCE(k->stop, true);
	complete_all(&k->go);
	for (i = 0; i < ARRAY_SIZE(k->t); i++) {
		if (k->t[i])
			kthread_stop_put(k->t[i]);
		k->t[i] = NULL;
	}
}

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
					    struct mt_test_rt *k, int i, int cpu)
{
	struct task_struct *t = kthread_create(fn, k, "mt_test_rt");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	k->t[i] = get_task_struct(t);
	set_cpus_allowed_ptr(t, cpumask_of(cpu));
	wake_up_process(t);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&k->ready, MT_TEST_WAIT), 0UL);
	return t;
}

/* Whether @t gets to @cpu (and runs there, if @running) in time. */
static bool mt_test_reaches(struct task_struct *t, int cpu, bool running)
{
	unsigned long end = jiffies + MT_TEST_WAIT;

	while (task_cpu(t) != cpu || (running && !READ_ONCE(t->on_cpu))) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

/*
 * One round of the scene above: c's moves, from its wakeup on a until it
 * is on b.  Whether it got there in time.
 */
static bool mt_test_push_round(struct kunit *test, struct mt_test_moves *s,
			       int a, int b)
{
	struct mt_test_rt *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct task_struct *c;
	bool reached;

	KUNIT_ASSERT_NOT_NULL(test, k);
	init_completion(&k->ready);
	init_completion(&k->go);
	cpumask_clear(&k->both);
	cpumask_set_cpu(a, &k->both);
	cpumask_set_cpu(b, &k->both);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mt_test_rt_end, k), 0);
	/* c sleeps on a; d runs on b; m runs on a, unable to migrate. */
	c = mt_test_rt_start(test, mt_test_rt_c, k, 1, a);
	KUNIT_ASSERT_TRUE(test, mt_test_inactive(c, TASK_UNINTERRUPTIBLE));
	mt_test_rt_start(test, mt_test_rt_d, k, 2, b);
	mt_test_rt_start(test, mt_test_rt_m, k, 0, a);
	memset(s, 0, sizeof(*s));
	s->pid = c->pid;
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	complete(&k->go);
	/* c runs on a, m waits there, before d goes to sleep. */
	KUNIT_EXPECT_TRUE(test, mt_test_reaches(c, a, true));
	WRITE_ONCE(k->stop_d, true);
	reached = mt_test_reaches(c, b, false);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	/* m first: then c and d. */
	kunit_release_action(test, mt_test_rt_end, k);
	KUNIT_EXPECT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	mt_test_reset(test);
	return reached;
}

/*
 * Whether a round's moves of c hold the stopper's push.  They must be
 * whole and each the RT class's: the pulls and pushes with no reason,
 * the stopper's push a's running task pushed to b, for its class.
 */
static bool mt_test_push_seen(struct kunit *test, const struct mt_test_moves *s,
			      int a, int b)
{
	bool pushed = false;
	unsigned int i;

	mt_test_expect_chain(test, s, a, -1);
	for (i = 0; i < s->n; i++) {
		if (s->m[i].cause != MT_CAUSE_PUSH_CPU_STOP) {
			KUNIT_EXPECT_TRUE_MSG(test, s->m[i].cause == MT_CAUSE_PULL_RT_TASK ||
					      s->m[i].cause == MT_CAUSE_PUSH_RT_TASK,
					      "moves: %s", mt_test_moves_str(test, s));
			KUNIT_EXPECT_EQ(test, s->m[i].reason, MT_REASON_NONE);
			continue;
		}
		KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[i].reason], "rt");
		KUNIT_EXPECT_EQ(test, s->m[i].from, a);
		KUNIT_EXPECT_EQ(test, s->m[i].to, b);
		pushed = true;
	}
	return pushed;
}

/*
 * Mostly a round holds the one push.  But the pull races with the
 * stopper it queued: b pulls again while it looks for its next task,
 * and once a's stopper has preempted c, that pull takes c itself (and
 * a, its stopper done, may pull c back; if nothing pulls again, c stays
 * on a).  The trace has those moves too; a round without the push, or
 * in which c did not get to b, is run again.
 */
static void mt_test_push_cpu_stop(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int a, b, here, round;
	bool reached, pushed;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (num_online_cpus() < 3)
		kunit_skip(test, "needs 3 online CPUs");
	a = cpumask_first(cpu_online_mask);
	b = cpumask_next(a, cpu_online_mask);
	here = cpumask_next(b, cpu_online_mask);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(here)), 0);
	for (round = 0; round < 3; round++) {
		reached = mt_test_push_round(test, s, a, b);
		/* Once on b, c has moves to show: none would be a loss. */
		pushed = (reached || s->n) && mt_test_push_seen(test, s, a, b);
		if ((reached && pushed) || test->status == KUNIT_FAILURE)
			break;
		kunit_info(test, "round %d%s, again: %s", round,
			   reached ? "" : " (c stayed on a)", mt_test_moves_str(test, s));
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_LT_MSG(test, round, 3, "no push in 3 rounds; the last: %s",
			    mt_test_moves_str(test, s));
}

static void mt_test_wake_current_cpu(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int i;
	int a, b, end;

	KUNIT_ASSERT_NOT_NULL(test, s);
	mt_test_kthread_run(test, mt_test_current_cpu_fn, s, &a, &b, &end);
	mt_test_expect_chain(test, s, a, end);
	/* Pulled by a balance while it waited on b for the CPU. */
	for (i = 1; i < s->n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, s->m[i].cause == MT_CAUSE_DETACH_TASKS ||
				      s->m[i].cause == MT_CAUSE_DETACH_ONE_TASK,
				      "moves: %s", mt_test_moves_str(test, s));
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_TRY_TO_WAKE_UP);
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[0].reason], "wake_current_cpu");
	KUNIT_EXPECT_EQ(test, s->m[0].to, b);
}

static void mt_test_migrate_enable(struct kunit *test)
{
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int a, b, end;

	KUNIT_ASSERT_NOT_NULL(test, s);
	mt_test_kthread_run(test, mt_test_migrate_enable_fn, s, &a, &b, &end);
	/* Allowed on b alone, it has nowhere else to go. */
	KUNIT_ASSERT_EQ_MSG(test, s->n, 1, "moves: %s", mt_test_moves_str(test, s));
	mt_test_expect_chain(test, s, a, end);
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_MIGRATION_CPU_STOP);
	/* migrate_enable() only let the affinity change happen. */
	KUNIT_EXPECT_STREQ(test, mt_reason_names[s->m[0].reason], "affinity");
	KUNIT_EXPECT_EQ(test, s->m[0].to, b);
}

static struct kunit_case mt_kthreads_test_cases[] = {
	KUNIT_CASE_SLOW(mt_test_wake_current_cpu),
	KUNIT_CASE_SLOW(mt_test_migrate_enable),
	KUNIT_CASE_SLOW(mt_test_push_cpu_stop),
	{}
};

static struct kunit_suite mt_kthreads_test_suite = {
	.name = "migrate_trace_lite_kthreads",
	.test_cases = mt_kthreads_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_kthreads_test_suite);
