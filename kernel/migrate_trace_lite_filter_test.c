// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the trace's filter: every form of its text, the names it
 * refuses, its text read back and written again, when it may change, and
 * the hooks recording only what it selects.  Like the main suite they use
 * the real buffers, so they are an init section suite that runs at boot,
 * before anybody traces, and leaves everything reset.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/idle.h>
#include <linux/seq_buf.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "migrate_trace_lite_test.h"

#define TTWU		MT_CAUSE_TRY_TO_WAKE_UP
#define DETACH		MT_CAUSE_DETACH_TASKS

/* @text parsed into a copy of @f, which it returns. */
static struct mt_filter mt_test_parse(struct kunit *test, const struct mt_filter *f,
				      const char *text, bool replace, int want)
{
	struct mt_filter g = *f;
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ_MSG(test, mt_filter_parse(&g, buf, replace), want, "'%s'", text);
	return g;
}

static const char *mt_test_show(struct kunit *test, const struct mt_filter *f)
{
	char *buf = kunit_kzalloc(test, MT_FILTER_TEXT_MAX, GFP_KERNEL);
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(&s, buf, MT_FILTER_TEXT_MAX);
	mt_filter_show(&s, f);
	KUNIT_EXPECT_FALSE(test, seq_buf_has_overflowed(&s));
	seq_buf_str(&s);
	return buf;
}

/* Each form of the text, written over everything or over nothing. */
static void mt_test_filter_forms(struct kunit *test)
{
	u64 lb_busy_load = BIT_ULL(MT_REASON_LB_FIRST);
	struct mt_filter all, none, f;
	unsigned int c;

	mt_filter_set_all(&all);
	memset(&none, 0, sizeof(none));
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &all), "all");
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &none), "0");
	f = mt_test_parse(test, &all, "0", true, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f), "0");
	f = mt_test_parse(test, &all, "try_to_wake_up\n", true, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f), "try_to_wake_up");
	f = mt_test_parse(test, &all, " detach_tasks/lb_busy_load ", true, 0);
	KUNIT_EXPECT_EQ(test, f.mask[DETACH], lb_busy_load);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f), "detach_tasks/lb_busy_load");
	/* ">>" adds to what there is. */
	f = mt_test_parse(test, &f, "try_to_wake_up", false, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f),
			   "try_to_wake_up detach_tasks/lb_busy_load");
	f = mt_test_parse(test, &f, "!detach_tasks/lb_busy_load", false, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f), "try_to_wake_up");
	/* ">" with an exclusion first starts from everything. */
	f = mt_test_parse(test, &none, "!try_to_wake_up", true, 0);
	for (c = 1; c < MT_CAUSE_END; c++)
		KUNIT_EXPECT_EQ_MSG(test, f.mask[c], c == TTWU ? 0 : ~0ULL, "cause %u", c);
	f = mt_test_parse(test, &none, "!try_to_wake_up/idle_prev", true, 0);
	KUNIT_EXPECT_EQ(test, f.mask[TTWU], ~BIT_ULL(MT_REASON_IDLE_PREV));
	/* A cause's moves without a reason. */
	f = mt_test_parse(test, &all, "detach_tasks/none", true, 0);
	KUNIT_EXPECT_EQ(test, f.mask[DETACH], ~mt_cause_reasons[DETACH]);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &f), "detach_tasks/none");
	f = mt_test_parse(test, &none, "all", true, 0);
	KUNIT_EXPECT_TRUE(test, mt_filter_is_all(&f));
}

/* Unknown names, impossible pairs and empty text leave the filter as it was. */
static void mt_test_filter_refused(struct kunit *test)
{
	static const char * const bad[] = {
		"bogus", "try_to_wake_up bogus", "detach_tasks/idle_prev",
		"try_to_wake_up/", "/idle_prev", "!", "try_to_wake_up/bogus",
		"TRY_TO_WAKE_UP", "try_to_wake_up/none/x", "", "\t\n",
		"detach_tasks/lb_busy_load try_to_wake_up/lb_busy_load",
	};
	struct mt_filter f, g;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	f.mask[TTWU] = BIT_ULL(MT_REASON_IDLE_CPU);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		g = mt_test_parse(test, &f, bad[i], true, -EINVAL);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&g, &f, sizeof(f)), 0, "'%s'", bad[i]);
		g = mt_test_parse(test, &f, bad[i], false, -EINVAL);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&g, &f, sizeof(f)), 0, "'%s'", bad[i]);
	}
}

/* What is read back, written back, is the same filter; the longest fits. */
static void mt_test_filter_round_trip(struct kunit *test)
{
	static const char * const texts[] = {
		"0", "all", "try_to_wake_up", "!try_to_wake_up/idle_prev",
		"detach_tasks/none push_cpu_stop/rt", "!detach_tasks/none",
		"!0", "try_to_wake_up !try_to_wake_up/none",
	};
	struct mt_filter all, f, g;
	unsigned int c, r, i;
	char *every;
	size_t len = 0;

	mt_filter_set_all(&all);
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		int want = strcmp(texts[i], "!0") ? 0 : -EINVAL;

		f = mt_test_parse(test, &all, texts[i], true, want);
		memset(&g, 0x5a, sizeof(g));
		g = mt_test_parse(test, &g, mt_test_show(test, &f), true, 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&g, &f, sizeof(f)), 0, "'%s'", texts[i]);
	}
	/* Every pair by name: the longest text there is. */
	every = kunit_kzalloc(test, MT_FILTER_TEXT_MAX * 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, every);
	for (c = 1; c < MT_CAUSE_END; c++) {
		len += scnprintf(every + len, MT_FILTER_TEXT_MAX * 2 - len, "%s/none ",
				 mt_cause_names[c]);
		for (r = 1; r < MT_REASON_END; r++)
			if (mt_cause_reasons[c] & BIT_ULL(r))
				len += scnprintf(every + len, MT_FILTER_TEXT_MAX * 2 - len,
						 "%s/%s ", mt_cause_names[c],
						 mt_reason_names[r]);
	}
	KUNIT_EXPECT_LT(test, len + 1, (size_t)MT_FILTER_TEXT_MAX);
	memset(&g, 0, sizeof(g));
	g = mt_test_parse(test, &g, every, true, 0);
	KUNIT_EXPECT_TRUE(test, mt_filter_is_all(&g));
	/* One pair out of every cause that has reasons: the longest text read. */
	for (c = 1; c < MT_CAUSE_END; c++)
		if (mt_cause_reasons[c])
			g.mask[c] &= ~BIT_ULL(__ffs64(mt_cause_reasons[c]));
	KUNIT_EXPECT_LT(test, strlen(mt_test_show(test, &g)) + 1, (size_t)MT_FILTER_TEXT_MAX);
}

static int mt_test_filter_write(struct kunit *test, const char *text, bool replace)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return mt_trace_filter_write(buf, replace);
}

/* The filter changes only before a trace starts, and sets its key. */
static void mt_test_filter_when(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "try_to_wake_up", true), 0);
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "bogus", true), -EINVAL);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &mt_trace_filter), "try_to_wake_up");
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "detach_tasks", false), -EBUSY);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	/* Stopped, its records were made under this filter still. */
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "detach_tasks", false), -EBUSY);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &mt_trace_filter), "try_to_wake_up");
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "all", true), 0);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
}

#define MT_TEST_FILTER \
	"detach_tasks/lb_busy_load try_to_wake_up !try_to_wake_up/idle_cpu"

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
/* The moves of @cause and @reason the statistics counted, in any period. */
static u64 mt_test_stat_count(unsigned int cause, unsigned int reason)
{
	u64 n = 0, period;

	for (period = 0; period < 4; period++)
		n += ms_read_count(period, ms_column(cause, reason));
	return n;
}

static void mt_test_stat_start(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, mt_test_locked(ms_start_locked), 0);
}

/* The statistics counted the moves the filter left out. */
static void mt_test_stat_check(struct kunit *test)
{
	mutex_lock(&mt_mutex);
	ms_stop_locked();
	mutex_unlock(&mt_mutex);
	KUNIT_EXPECT_EQ(test, mt_test_stat_count(MT_CAUSE_AFFINE_MOVE_TASK,
						 MT_REASON_AFFINITY), 1ULL);
	KUNIT_EXPECT_EQ(test, mt_test_stat_count(TTWU, MT_REASON_IDLE_CPU), 1ULL);
}
#else
static void mt_test_stat_start(struct kunit *test)
{
}

static void mt_test_stat_check(struct kunit *test)
{
}
#endif

/*
 * The hooks record the moves the filter selects, in order, and nothing
 * of the others: no record, no loss.  A move left out still takes its
 * note, so a later move of the task cannot inherit it, and the
 * statistics count it.
 */
static void mt_test_filter_hooks(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_filtered");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned long flags;
	int this, b, c, cpu;
	u64 lost = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	s->pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_filter_write(test, MT_TEST_FILTER, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_test_stat_start(test);
	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	mt_test_place(t, b);
	mt_migrate_task_lb(t, c, MT_CAUSE_DETACH_TASKS, __CPU_NOT_IDLE, 0);	/* in */
	mt_migrate_task_lb(t, c, MT_CAUSE_DETACH_TASKS, CPU_IDLE, 1);	/* out */
	__mt_migrate_task(t, c, MT_CAUSE_AFFINE_MOVE_TASK);			/* out */
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, c);						/* out */
	__mt_migrate_wakeup(t, c);				/* in, no reason */
	mt_note(t, MT_REASON_IDLE_PREV);
	__mt_migrate_wakeup(t, c);						/* in */
	local_irq_restore(flags);
	mt_test_stat_check(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ_MSG(test, s->n, 3U, "moves: %s", mt_test_moves_str(test, s));
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, s->m[0].reason, MT_REASON_LB_FIRST);
	KUNIT_EXPECT_EQ(test, s->m[1].cause, TTWU);
	KUNIT_EXPECT_EQ(test, s->m[1].reason, MT_REASON_NONE);
	KUNIT_EXPECT_EQ(test, s->m[2].cause, TTWU);
	KUNIT_EXPECT_EQ(test, s->m[2].reason, MT_REASON_IDLE_PREV);
	for_each_possible_cpu(cpu)
		lost += mt_ring_dropped(cpu) + mt_ring_overwritten(cpu);
	KUNIT_EXPECT_EQ(test, lost, 0ULL);
	mt_test_reset(test);
}

/*
 * A filter that selects no wakeup leaves one out before its reason is
 * resolved; the wakeup still takes its note, so that a later move of the
 * task that the filter selects cannot inherit it.  The statistics do not
 * run: with them, the wakeup's reason is resolved for their count.
 */
static void mt_test_filter_reject_cause(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_rejected");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned long flags;
	int this, b, c;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	s->pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_filter_write(test, "migration_cpu_stop", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	mt_test_place(t, b);
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, c);					/* out */
	__mt_migrate_task(t, c, MT_CAUSE_MIGRATION_CPU_STOP);	/* in, no reason */
	mt_note(t, MT_REASON_FALLBACK);
	__mt_migrate_task(t, c, MT_CAUSE_MIGRATION_CPU_STOP);	/* in */
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ_MSG(test, s->n, 2U, "moves: %s", mt_test_moves_str(test, s));
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_MIGRATION_CPU_STOP);
	KUNIT_EXPECT_EQ(test, s->m[0].reason, MT_REASON_NONE);
	KUNIT_EXPECT_EQ(test, s->m[1].cause, MT_CAUSE_MIGRATION_CPU_STOP);
	KUNIT_EXPECT_EQ(test, s->m[1].reason, MT_REASON_FALLBACK);
	mt_test_reset(test);
}

static struct kunit_case mt_filter_test_cases[] = {
	KUNIT_CASE(mt_test_filter_forms),
	KUNIT_CASE(mt_test_filter_refused),
	KUNIT_CASE(mt_test_filter_round_trip),
	KUNIT_CASE(mt_test_filter_when),
	KUNIT_CASE(mt_test_filter_hooks),
	KUNIT_CASE(mt_test_filter_reject_cause),
	{}
};

static struct kunit_suite mt_filter_test_suite = {
	.name = "migrate_trace_lite_filter",
	.test_cases = mt_filter_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_filter_test_suite);
