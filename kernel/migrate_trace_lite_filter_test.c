// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the trace's filters: every form of their text, what
 * they refuse, their text read back and written again, when they may
 * change, and the hooks recording only what they select; for the pid
 * filter, also the children it follows.  Like the main suite they use
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
	return mt_trace_filter_write(&mt_top, buf, replace);
}

/*
 * The filter changes only before a trace starts; its key is on from the
 * start to the reset, so that a filter for the next trace costs nothing.
 */
static void mt_test_filter_when(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "try_to_wake_up", true), 0);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	/* The stat's and the event's hooks stay on their fast path. */
	KUNIT_EXPECT_FALSE(test, mt_hooks_rare());
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "bogus", true), -EINVAL);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &mt_top.filter), "try_to_wake_up");
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "detach_tasks", false), -EBUSY);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	/* Stopped, its records were made under this filter still. */
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "detach_tasks", false), -EBUSY);
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &mt_top.filter), "try_to_wake_up");
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	KUNIT_EXPECT_STREQ(test, mt_test_show(test, &mt_top.filter), "try_to_wake_up");
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "all", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	mt_test_reset(test);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ_MSG(test, s->n, 3U, "moves: %s", mt_test_moves_str(test, s));
	KUNIT_EXPECT_EQ(test, s->m[0].cause, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, s->m[0].reason, MT_REASON_LB_FIRST);
	KUNIT_EXPECT_EQ(test, s->m[1].cause, TTWU);
	KUNIT_EXPECT_EQ(test, s->m[1].reason, MT_REASON_NONE);
	KUNIT_EXPECT_EQ(test, s->m[2].cause, TTWU);
	KUNIT_EXPECT_EQ(test, s->m[2].reason, MT_REASON_IDLE_PREV);
	for_each_possible_cpu(cpu)
		lost += mt_ring_dropped(&mt_top.buf, cpu) + mt_ring_overwritten(&mt_top.buf, cpu);
	KUNIT_EXPECT_EQ(test, lost, 0ULL);
	mt_test_reset(test);
}

/* ---- the pid filter (set_event_pid, event_fork) ---------------------------- */

/* Pids no task has at boot: pid_max is far below the limit then. */
#define MT_TEST_PID(n)	((pid_t)(PID_MAX_LIMIT - (n)))

static const char *mt_test_pids_str(struct kunit *test, const struct mt_pids *p)
{
	char *buf = kunit_kzalloc(test, MT_PIDS_TEXT_MAX, GFP_KERNEL);
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(&s, buf, MT_PIDS_TEXT_MAX);
	mt_pids_show(&s, p);
	KUNIT_EXPECT_FALSE(test, seq_buf_has_overflowed(&s));
	seq_buf_str(&s);
	return buf;
}

/* @text parsed into a copy of @p, which it returns. */
static struct mt_pids *mt_test_pids_parse(struct kunit *test, const struct mt_pids *p,
					  const char *text, bool replace, int want)
{
	struct mt_pids *q = kunit_kmalloc(test, sizeof(*q), GFP_KERNEL);
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	*q = *p;
	KUNIT_EXPECT_EQ_MSG(test, mt_pids_parse(q, buf, replace), want, "'%s'", text);
	return q;
}

/* Each form: blanks, order, repeats, ">" and ">>", and no pid at all. */
static void mt_test_pids_forms(struct kunit *test)
{
	struct mt_pids *none = kunit_kzalloc(test, sizeof(*none), GFP_KERNEL);
	char max[16];
	struct mt_pids *p;

	KUNIT_ASSERT_NOT_NULL(test, none);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, none), "");
	p = mt_test_pids_parse(test, none, "12 34\n", true, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, p), "12 34");
	p = mt_test_pids_parse(test, p, "\t7\n34  7 1 ", true, 0);
	KUNIT_EXPECT_EQ(test, p->nr, 3U);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, p), "1 7 34");
	/* ">>" adds. */
	p = mt_test_pids_parse(test, p, "5 7", false, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, p), "1 5 7 34");
	/* No pid: ">>" keeps them, ">" selects every task again. */
	p = mt_test_pids_parse(test, p, "\t\n", false, 0);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, p), "1 5 7 34");
	p = mt_test_pids_parse(test, p, "", false, 0);
	KUNIT_EXPECT_EQ(test, p->nr, 4U);
	p = mt_test_pids_parse(test, p, "\n", true, 0);
	KUNIT_EXPECT_EQ(test, p->nr, 0U);
	p = mt_test_pids_parse(test, p, "12", true, 0);
	p = mt_test_pids_parse(test, p, "", true, 0);
	KUNIT_EXPECT_EQ(test, p->nr, 0U);
	/* The idle tasks' 0 and the highest pid there can be. */
	snprintf(max, sizeof(max), "%d 0", (pid_t)(PID_MAX_LIMIT - 1));
	p = mt_test_pids_parse(test, none, max, true, 0);
	KUNIT_EXPECT_EQ(test, p->nr, 2U);
	KUNIT_EXPECT_EQ(test, p->pid[0], 0);
	KUNIT_EXPECT_EQ(test, p->pid[1], (pid_t)(PID_MAX_LIMIT - 1));
	/* The flag is event_fork's. */
	none->fork = true;
	p = mt_test_pids_parse(test, none, "3", true, 0);
	KUNIT_EXPECT_TRUE(test, p->fork);
}

static int mt_test_pids_write(struct kunit *test, const char *text, bool replace)
{
	char *buf = kunit_kstrdup(test, text, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return mt_trace_pids_write(&mt_top, buf, replace);
}

/* Words that are no pid, and one pid too many, leave the pids as they were. */
static void mt_test_pids_refused(struct kunit *test)
{
	static const char * const bad[] = {
		"abc", "-1", "+5", "12a", "0x10", "1.5", "12 abc", "3 -4",
		"99999999999999999999", "4194304", "1,2",
	};
	char *many = kunit_kzalloc(test, MT_PIDS_TEXT_MAX * 2, GFP_KERNEL);
	char limit[16];
	unsigned int i;
	size_t len = 0;

	KUNIT_ASSERT_NOT_NULL(test, many);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_pids_write(test, "12 34", true), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, mt_test_pids_write(test, bad[i], true), -EINVAL,
				    "'%s'", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, mt_test_pids_write(test, bad[i], false), -EINVAL,
				    "'%s'", bad[i]);
		KUNIT_EXPECT_STREQ_MSG(test, mt_test_pids_str(test, &mt_top.pids), "12 34",
				       "'%s'", bad[i]);
	}
	snprintf(limit, sizeof(limit), "%d", (pid_t)PID_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, limit, false), -EINVAL);
	/* MT_PIDS_MAX, then one more. */
	for (i = 0; i < MT_PIDS_MAX; i++)
		len += scnprintf(many + len, MT_PIDS_TEXT_MAX * 2 - len, "%u ", 100 + i);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, many, true), 0);
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, MT_PIDS_MAX);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "100 101", false), 0);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "5", false), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, MT_PIDS_MAX);
	KUNIT_EXPECT_EQ(test, mt_top.pids.pid[0], 100);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "", true), 0);
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, 0U);
	KUNIT_EXPECT_NULL(test, mt_top.pid_bits);
}

/* The most pids, each of the most digits, read back fit and write back. */
static void mt_test_pids_round_trip(struct kunit *test)
{
	struct mt_pids *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct mt_pids *q;
	const char *text;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < MT_PIDS_MAX; i++)
		p->pid[i] = PID_MAX_LIMIT - MT_PIDS_MAX + i;
	p->nr = MT_PIDS_MAX;
	text = mt_test_pids_str(test, p);
	/* And the newline of set_event_pid's read. */
	KUNIT_EXPECT_LE(test, strlen(text) + 1, (size_t)MT_PIDS_TEXT_MAX);
	q = mt_test_pids_parse(test, p, text, true, 0);
	KUNIT_EXPECT_EQ(test, memcmp(p, q, sizeof(*p)), 0);
}

/*
 * The pids and event_fork change only before a trace starts; the pids
 * turn the key on from the start to the reset.
 */
static void mt_test_pids_when(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_ASSERT_TRUE(test, mt_filter_is_all(&mt_top.filter));
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "12", true), 0);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	KUNIT_EXPECT_NOT_NULL(test, mt_top.pid_bits);
	KUNIT_EXPECT_EQ(test, mt_trace_event_fork_set(&mt_top, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "34", false), -EBUSY);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "", true), -EBUSY);
	KUNIT_EXPECT_EQ(test, mt_trace_event_fork_set(&mt_top, false), -EBUSY);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "34", false), -EBUSY);
	KUNIT_EXPECT_STREQ(test, mt_test_pids_str(test, &mt_top.pids), "12");
	KUNIT_EXPECT_TRUE(test, mt_top.pids.fork);
	mt_test_reset(test);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	/* Either filter turns the key on at the start. */
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "try_to_wake_up", true), 0);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "12", true), 0);
	KUNIT_EXPECT_EQ(test, mt_test_filter_write(test, "all", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_filtering());
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "\n", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_FALSE(test, mt_filtering());
	mt_test_reset(test);
	KUNIT_EXPECT_NULL(test, mt_top.pid_bits);
	/* A release's clearing: refused once started, else event_fork kept. */
	KUNIT_EXPECT_EQ(test, mt_test_pids_write(test, "12", true), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_event_fork_set(&mt_top, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_trace_pids_clear(&mt_top);
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, 1U);
	mt_test_reset(test);
	mt_trace_pids_clear(&mt_top);
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, 0U);
	KUNIT_EXPECT_NULL(test, mt_top.pid_bits);
	KUNIT_EXPECT_TRUE(test, mt_top.pids.fork);
	KUNIT_EXPECT_EQ(test, mt_trace_event_fork_set(&mt_top, false), 0);
}

/* A made-up task of pid @pid, its moves counted in @s. */
static struct task_struct *mt_test_pid_task(struct kunit *test, pid_t pid,
					    struct mt_test_moves **s)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_pid");

	t->pid = pid;
	*s = kunit_kzalloc(test, sizeof(**s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *s);
	(*s)->pid = pid;
	return t;
}

/* Whether the header of the trace has the line @want. */
static bool mt_test_header_has(struct kunit *test, const char *want)
{
	char *header = kunit_kzalloc(test, mt_header_max(), GFP_KERNEL);
	struct seq_buf sb;

	KUNIT_ASSERT_NOT_NULL(test, header);
	seq_buf_init(&sb, header, mt_header_max());
	mt_show_header(&mt_top, &sb, false);
	return strnstr(header, want, seq_buf_used(&sb));
}

/*
 * The hooks record the moves of the pids selected, and of no other,
 * under the filter of causes too; the header lists the pids.  Nothing
 * is lost.
 */
static void mt_test_pids_hooks(struct kunit *test)
{
	struct mt_test_moves *sa, *sb, *sc;
	struct task_struct *a = mt_test_pid_task(test, MT_TEST_PID(1), &sa);
	struct task_struct *b = mt_test_pid_task(test, MT_TEST_PID(2), &sb);
	struct task_struct *c = mt_test_pid_task(test, MT_TEST_PID(3), &sc);
	unsigned long flags;
	char text[64];
	u64 lost = 0;
	int cpu;

	snprintf(text, sizeof(text), "%d %d", MT_TEST_PID(1), MT_TEST_PID(3));
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_pids_write(test, text, true), 0);
	KUNIT_ASSERT_EQ(test, mt_test_filter_write(test, "detach_tasks", true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_test_move(a);
	mt_test_move(b);
	mt_test_move(a);
	local_irq_save(flags);
	/* c is selected, its cause is not. */
	__mt_migrate_task(c, cpumask_any_but(cpu_possible_mask, task_cpu(c)),
			  MT_CAUSE_AFFINE_MOVE_TASK);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, sa), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, sb), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, sc), 0);
	KUNIT_EXPECT_EQ(test, sa->n, 2U);
	KUNIT_EXPECT_EQ(test, sb->n, 0U);
	KUNIT_EXPECT_EQ(test, sc->n, 0U);
	for_each_possible_cpu(cpu)
		lost += mt_ring_dropped(&mt_top.buf, cpu) + mt_ring_overwritten(&mt_top.buf, cpu);
	KUNIT_EXPECT_EQ(test, lost, 0ULL);
	snprintf(text, sizeof(text), "\n# pid_filter %d %d\n", MT_TEST_PID(3), MT_TEST_PID(1));
	KUNIT_EXPECT_TRUE(test, mt_test_header_has(test, text));
	KUNIT_EXPECT_FALSE(test, mt_test_header_has(test, "# event_fork"));
	mt_test_reset(test);
}

/*
 * A fork by a selected task selects the child with event_fork, and only
 * then; a fork by another task does not.  The next trace selects only
 * the pids written again.
 */
static void mt_test_pids_fork(struct kunit *test)
{
	struct mt_test_moves *s1, *s2, *s3;
	struct task_struct *c1 = mt_test_pid_task(test, MT_TEST_PID(1), &s1);
	struct task_struct *c2 = mt_test_pid_task(test, MT_TEST_PID(2), &s2);
	struct task_struct *c3 = mt_test_pid_task(test, MT_TEST_PID(3), &s3);
	char text[64];

	/* The test's own task forks them: it stays on this CPU meanwhile. */
	snprintf(text, sizeof(text), "%d", current->pid);
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_pids_write(test, text, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_event_fork_set(&mt_top, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	__mt_copy_process(c1);
	mt_test_move(c1);
	mt_test_move(c2);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_TRUE(test, mt_test_header_has(test, "\n# event_fork 1\n"));
	snprintf(text, sizeof(text), "\n# pid_filter %d\n", current->pid);
	KUNIT_EXPECT_TRUE(test, mt_test_header_has(test, text));
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s1), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s2), 0);
	KUNIT_EXPECT_EQ(test, s1->n, 1U);
	KUNIT_EXPECT_EQ(test, s2->n, 0U);
	/* The child was followed, not written: the next trace leaves it out. */
	KUNIT_EXPECT_EQ(test, mt_top.pids.nr, 1U);
	mt_test_reset(test);
	s1->n = 0;
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_test_move(c1);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s1), 0);
	KUNIT_EXPECT_EQ(test, s1->n, 0U);
	/* Without event_fork, the child is not selected. */
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_event_fork_set(&mt_top, false), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	__mt_copy_process(c2);
	mt_test_move(c2);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_FALSE(test, mt_test_header_has(test, "# event_fork"));
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s2), 0);
	KUNIT_EXPECT_EQ(test, s2->n, 0U);
	/* A parent not selected: its child is not either. */
	snprintf(text, sizeof(text), "%d", MT_TEST_PID(4));
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_test_pids_write(test, text, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_event_fork_set(&mt_top, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	__mt_copy_process(c3);
	mt_test_move(c3);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s3), 0);
	KUNIT_EXPECT_EQ(test, s3->n, 0U);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
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
	KUNIT_CASE(mt_test_pids_forms),
	KUNIT_CASE(mt_test_pids_refused),
	KUNIT_CASE(mt_test_pids_round_trip),
	KUNIT_CASE(mt_test_pids_when),
	KUNIT_CASE(mt_test_pids_hooks),
	KUNIT_CASE(mt_test_pids_fork),
	KUNIT_CASE(mt_test_filter_reject_cause),
	{}
};

static struct kunit_suite mt_filter_test_suite = {
	.name = "migrate_trace_lite_filter",
	.test_cases = mt_filter_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_filter_test_suite);
