// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the trace event sched_migrate_reason: its registration
 * holds one count of the hooks' static key beside mt and mstat, in any
 * order of enables and disables and when the three are toggled at once,
 * and a move reaches the event's probes with its cause and reason.  Like
 * migrate_trace_lite_test.c, an init section suite that uses the real
 * state and leaves it reset, and the event without a probe of ours.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <trace/events/migrate_trace_lite.h>

#include "migrate_trace_lite_test.h"

/* The three consumers of the hooks' key. */
enum { MT_EV_TEST_EVENT, MT_EV_TEST_MT, MT_EV_TEST_MSTAT, MT_EV_TEST_NR };

/* What the test's probe saw of the made-up task. */
static struct {
	struct task_struct *p;
	unsigned int calls;
	int dest_cpu;
	unsigned int cause;
	unsigned int reason;
} mt_ev_seen;

/* Whether the probe is registered: a failed test must not leave it. */
static bool mt_ev_registered;

static void mt_ev_probe(void *data, struct task_struct *p, int dest_cpu,
			unsigned int cause, unsigned int reason)
{
	/* The scheduler's own moves fire it too: only the test's task counts. */
	if (p != READ_ONCE(mt_ev_seen.p))
		return;
	WRITE_ONCE(mt_ev_seen.calls, mt_ev_seen.calls + 1);
	WRITE_ONCE(mt_ev_seen.dest_cpu, dest_cpu);
	WRITE_ONCE(mt_ev_seen.cause, cause);
	WRITE_ONCE(mt_ev_seen.reason, reason);
}

static int mt_ev_on(void)
{
	int ret = register_trace_sched_migrate_reason(mt_ev_probe, NULL);

	if (!ret)
		WRITE_ONCE(mt_ev_registered, true);
	return ret;
}

static int mt_ev_off(void)
{
	int ret = unregister_trace_sched_migrate_reason(mt_ev_probe, NULL);

	if (!ret)
		WRITE_ONCE(mt_ev_registered, false);
	return ret;
}

/* After each test, before the suites' cleanup: no probe of ours is left. */
static void mt_ev_cleanup(void *data)
{
	if (READ_ONCE(mt_ev_registered))
		mt_ev_off();
	tracepoint_synchronize_unregister();
	WRITE_ONCE(mt_ev_seen.p, NULL);
}

static int mt_ev_init(struct kunit *test)
{
	int ret = mt_test_init(test);

	if (ret)
		return ret;
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "no CONFIG_TRACEPOINTS: no event");
	/* The key counts below assume no consumer of the event's own. */
	if (trace_sched_migrate_reason_enabled())
		kunit_skip(test, "sched_migrate_reason has a consumer (trace_event=?)");
	return kunit_add_action_or_reset(test, mt_ev_cleanup, NULL);
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
static int ms_test_restart(void)
{
	int ret = ms_reset_locked();

	return ret ? ret : ms_start_locked();
}
#endif

/* Turn consumer @which on or off.  Return: 0, or the error. */
static int mt_ev_consumer(int which, bool on)
{
	switch (which) {
	case MT_EV_TEST_EVENT:
		return on ? mt_ev_on() : mt_ev_off();
	case MT_EV_TEST_MT:
		/* Continued: a stopped trace needs no reset to go on. */
		return mt_trace_enable(on, on);
	default:
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
		if (on)
			return mt_test_locked(ms_test_restart);
		return mt_test_locked(ms_test_stop);
#else
		return 0;
#endif
	}
}

static const u8 mt_ev_orders[6][MT_EV_TEST_NR] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
};

/*
 * The event, mt and mstat each hold one reference on the hooks' key while
 * on: after every enable and disable, in every order of enabling and of
 * disabling (36 sequences), the count is the number of consumers on, and
 * 0 (every hook a NOP) once all are off.
 */
static void mt_test_event_key_balance(struct kunit *test)
{
	int nr = IS_ENABLED(CONFIG_SNSC_LITE_MIGRATION_STAT) ? 3 : 2;
	int e, d, k, on, which;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, static_key_count(&mt_hooks_key.key), 0);
	for (e = 0; e < ARRAY_SIZE(mt_ev_orders); e++) {
		for (d = 0; d < ARRAY_SIZE(mt_ev_orders); d++) {
			on = 0;
			for (k = 0; k < MT_EV_TEST_NR; k++) {
				which = mt_ev_orders[e][k];
				if (which >= nr)
					continue;
				KUNIT_ASSERT_EQ(test, mt_ev_consumer(which, true), 0);
				KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), ++on);
			}
			/* A second start of mt changes nothing. */
			KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 1), 0);
			KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), on);
			for (k = 0; k < MT_EV_TEST_NR; k++) {
				which = mt_ev_orders[d][k];
				if (which >= nr)
					continue;
				KUNIT_ASSERT_EQ(test, mt_ev_consumer(which, false), 0);
				KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), --on);
			}
			KUNIT_ASSERT_EQ(test, static_key_count(&mt_hooks_key.key), 0);
		}
	}
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&mt_hooks_key));
}

/* A consumer toggled by a thread of its own, beside the others. */
struct mt_ev_toggler {
	int which;
	int errors;
	struct completion done;
};

static int mt_ev_toggle_fn(void *data)
{
	struct mt_ev_toggler *t = data;
	int i;

	for (i = 0; i < 20; i++) {
		t->errors += !!mt_ev_consumer(t->which, true);
		t->errors += !!mt_ev_consumer(t->which, false);
	}
	complete(&t->done);
	return 0;
}

/*
 * The three consumers toggled at once, each by its own thread, 20 times:
 * once all are done, the hooks' key is 0 again.
 */
static void mt_test_event_key_concurrent(struct kunit *test)
{
	struct mt_ev_toggler t[MT_EV_TEST_NR];
	struct task_struct *k;
	int i, started;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, static_key_count(&mt_hooks_key.key), 0);
	for (started = 0; started < MT_EV_TEST_NR; started++) {
		t[started].which = started;
		t[started].errors = 0;
		init_completion(&t[started].done);
		k = kthread_run(mt_ev_toggle_fn, &t[started], "mt_toggle/%d",
				started);
		if (IS_ERR(k))
			break;
	}
	/* The threads use @t: wait for those that run before any verdict. */
	for (i = 0; i < started; i++) {
		wait_for_completion(&t[i].done);
		KUNIT_EXPECT_EQ(test, t[i].errors, 0);
	}
	KUNIT_ASSERT_EQ(test, started, MT_EV_TEST_NR);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&mt_hooks_key));
}

/* Move @t to @to through __mt_migrate_task(), as a hook site does. */
static void mt_ev_move(struct task_struct *t, unsigned int to,
		       unsigned int why)
{
	unsigned long flags;

	local_irq_save(flags);
	__mt_migrate_task(t, to, why);
	local_irq_restore(flags);
}

/*
 * With mt and mstat off, a move reaches a probe of the event with its
 * cause and reason, and a move that keeps the CPU does not; with mt on,
 * and with mstat alone, the same.
 */
static void mt_test_event_move(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_test_event");
	unsigned int to = cpumask_any_but(cpu_possible_mask, task_cpu(t));

	memset(&mt_ev_seen, 0, sizeof(mt_ev_seen));
	WRITE_ONCE(mt_ev_seen.p, t);
	KUNIT_ASSERT_EQ(test, mt_ev_on(), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), 1);
	mt_ev_move(t, to, MT_WHY(MT_CAUSE_DETACH_TASKS, MT_REASON_LB_IDLE_UTIL));
	KUNIT_EXPECT_EQ(test, mt_ev_seen.calls, 1);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.dest_cpu, to);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.cause, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.reason, MT_REASON_LB_IDLE_UTIL);
	mt_ev_move(t, to, MT_WHY(MT_CAUSE_PUSH_RT_TASK, MT_REASON_RT_LOWEST_RQ));
	mt_ev_move(t, task_cpu(t), MT_WHY(MT_CAUSE_PUSH_DL_TASK, 0));
	KUNIT_EXPECT_EQ(test, mt_ev_seen.calls, 2);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.cause, MT_CAUSE_PUSH_RT_TASK);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.reason, MT_REASON_RT_LOWEST_RQ);
	/* With mt on as well: the same move, the same why. */
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_ev_move(t, to, MT_WHY(MT_CAUSE_MIGRATION_CPU_STOP, MT_REASON_AFFINITY));
	KUNIT_EXPECT_EQ(test, mt_ev_seen.calls, 3);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.cause, MT_CAUSE_MIGRATION_CPU_STOP);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.reason, MT_REASON_AFFINITY);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
	/* With mstat alone. */
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_test_restart), 0);
	mt_ev_move(t, to, MT_WHY(MT_CAUSE_PULL_DL_TASK, MT_REASON_DL_LATER_RQ));
	KUNIT_EXPECT_EQ(test, mt_ev_seen.calls, 4);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.cause, MT_CAUSE_PULL_DL_TASK);
	KUNIT_EXPECT_EQ(test, mt_ev_seen.reason, MT_REASON_DL_LATER_RQ);
	mt_test_locked(ms_test_stop);
#endif
	KUNIT_EXPECT_EQ(test, mt_ev_off(), 0);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, static_key_count(&mt_hooks_key.key), 0);
}

static struct kunit_case mt_event_test_cases[] = {
	KUNIT_CASE(mt_test_event_key_balance),
	KUNIT_CASE(mt_test_event_key_concurrent),
	KUNIT_CASE(mt_test_event_move),
	{}
};

static struct kunit_suite mt_event_test_suite = {
	.name = "migrate_trace_lite_event",
	.test_cases = mt_event_test_cases,
	.init = mt_ev_init,
};

kunit_test_init_section_suite(mt_event_test_suite);
