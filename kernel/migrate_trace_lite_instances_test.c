// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace's instances: their names and bound,
 * rmdir's refusals, and what the hooks record into an instance beside
 * the top trace.
 */

#include <kunit/test.h>
#include <linux/sched/idle.h>

#include "migrate_trace_lite_test.h"

/* Start or stop an instance, as its enable file does. */
static int mt_test_tr_enable(struct mt_trace *tr, bool on)
{
	int ret = 0;

	mutex_lock(&mt_mutex);
	if (on)
		ret = mt_start_locked(tr, false);
	else
		mt_stop_locked(tr);
	mutex_unlock(&mt_mutex);
	return ret;
}

/* Remove, at the test's end, what it left made. */
static void mt_test_rmdir_all(void *unused)
{
	char name[8];
	int i;

	for (i = 0; i < MT_INSTANCES_MAX + 1; i++) {
		snprintf(name, sizeof(name), "i%d", i);
		mt_instance_rmdir(name);
	}
}

static int mt_test_instances_init(struct kunit *test)
{
	int ret = mt_test_init(test);

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, mt_test_rmdir_all, NULL);
}

/* Names are checked, taken once, and bounded; rmdir finds them. */
static void mt_test_instance_names(struct kunit *test)
{
	static const char * const bad[] = {
		"", ".", "..", ".hidden", "a b", "a/b", "tab\t",
	};
	char name[8];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, mt_instance_mkdir(bad[i]), -EINVAL,
				    "name \"%s\"", bad[i]);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir("x1234567890123456789012345678901"), 0);
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("x1234567890123456789012345678901"), 0);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir("x12345678901234567890123456789012"),
			-ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir("a-b_c.1"), 0);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir("a-b_c.1"), -EEXIST);
	KUNIT_EXPECT_NOT_NULL(test, mt_instance_find("a-b_c.1"));
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("a-b_c.1"), 0);
	KUNIT_EXPECT_NULL(test, mt_instance_find("a-b_c.1"));
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("a-b_c.1"), -ENOENT);

	for (i = 0; i < MT_INSTANCES_MAX; i++) {
		snprintf(name, sizeof(name), "i%d", i);
		KUNIT_EXPECT_EQ(test, mt_instance_mkdir(name), 0);
	}
	snprintf(name, sizeof(name), "i%d", i);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir(name), -ENOSPC);
	/* A slot freed is taken again. */
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("i3"), 0);
	KUNIT_EXPECT_EQ(test, mt_instance_mkdir(name), 0);
	mt_test_rmdir_all(NULL);
	KUNIT_EXPECT_NULL(test, mt_instance_find("i0"));
}

/*
 * rmdir refuses an instance that runs or has a file open; a stopped one
 * with records goes, buffers and all.  The top trace is untouched.
 */
static void mt_test_instance_busy(struct kunit *test)
{
	struct mt_trace *tr;

	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_instance_mkdir("i0"), 0);
	tr = mt_instance_find("i0");
	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_ASSERT_EQ(test, mt_trace_set_size(tr, 16), 0);
	KUNIT_ASSERT_EQ(test, mt_test_tr_enable(tr, true), 0);
	KUNIT_EXPECT_TRUE(test, mt_instances_on());
	KUNIT_EXPECT_FALSE(test, mt_trace_running());
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("i0"), -EBUSY);
	KUNIT_EXPECT_EQ(test, mt_log_mark(tr, 0x42), 0);
	KUNIT_EXPECT_EQ(test, mt_log_mark(&mt_top, 0x42), -EINVAL);
	KUNIT_ASSERT_EQ(test, mt_test_tr_enable(tr, false), 0);

	KUNIT_ASSERT_EQ(test, mt_trace_file_get(tr), 0);
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("i0"), -EBUSY);
	mt_trace_file_put(tr);
	KUNIT_EXPECT_NOT_NULL(test, mt_instance_find("i0"));
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("i0"), 0);
	KUNIT_EXPECT_FALSE(test, mt_instances_on());
	KUNIT_EXPECT_FALSE(test, mt_ring_allocated(&mt_top.buf));
}

/* The moves of the test's task a walk of @tr finds, with their times. */
struct mt_test_timed {
	struct mt_test_moves m;
	u64 ts[48];
};

static void mt_test_see_timed(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
{
	struct mt_test_timed *s = arg;
	unsigned int n = s->m.n;

	mt_test_see_moves(cpu, rec, ts, &s->m);
	if (s->m.n != n && n < ARRAY_SIZE(s->ts))
		s->ts[n] = ts;
}

#define TTWU	MT_CAUSE_TRY_TO_WAKE_UP

/*
 * The top trace records every move; an instance filtered on wakeups and
 * on the task's pid records the wakeups only, at the same times: one
 * clock read serves both.  The top trace takes the hooks' out-of-line
 * path while the instance runs, and its records are the same.
 */
static void mt_test_instance_records(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_instance");
	struct mt_test_timed *top, *in;
	struct mt_trace *tr;
	unsigned long flags;
	int this, b, c;
	char *text;

	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs 3 possible CPUs");
	top = kunit_kzalloc(test, sizeof(*top), GFP_KERNEL);
	in = kunit_kzalloc(test, sizeof(*in), GFP_KERNEL);
	text = kunit_kzalloc(test, 32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, top);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, text);
	/* A pid set_event_pid takes, and alloc_pid() is far from. */
	t->pid = PID_MAX_LIMIT - 7;
	top->m.pid = t->pid;
	in->m.pid = t->pid;
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_instance_mkdir("i0"), 0);
	tr = mt_instance_find("i0");
	KUNIT_ASSERT_NOT_NULL(test, tr);
	strscpy(text, "try_to_wake_up", 32);
	KUNIT_ASSERT_EQ(test, mt_trace_filter_write(tr, text, true), 0);
	snprintf(text, 32, "%d", t->pid);
	KUNIT_ASSERT_EQ(test, mt_trace_pids_write(tr, text, true), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_test_tr_enable(tr, true), 0);

	local_irq_save(flags);
	mt_test_three_cpus(&this, &b, &c);
	mt_test_place(t, b);
	__mt_migrate_task(t, c, MT_CAUSE_AFFINE_MOVE_TASK);	/* top only */
	mt_test_place(t, c);
	__mt_migrate_wakeup(t, b);				/* both */
	mt_test_place(t, b);
	mt_migrate_task_lb(t, c, MT_CAUSE_DETACH_TASKS, CPU_IDLE, 1); /* top only */
	mt_test_place(t, c);
	__mt_migrate_wakeup(t, b);				/* both */
	local_irq_restore(flags);

	KUNIT_ASSERT_EQ(test, mt_test_tr_enable(tr, false), 0);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_timed, top), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(tr, mt_test_see_timed, in), 0);
	KUNIT_ASSERT_EQ_MSG(test, top->m.n, 4U, "top: %s", mt_test_moves_str(test, &top->m));
	KUNIT_ASSERT_EQ_MSG(test, in->m.n, 2U, "instance: %s", mt_test_moves_str(test, &in->m));
	KUNIT_EXPECT_EQ(test, top->m.m[0].cause, MT_CAUSE_AFFINE_MOVE_TASK);
	KUNIT_EXPECT_EQ(test, top->m.m[1].cause, TTWU);
	KUNIT_EXPECT_EQ(test, top->m.m[2].cause, MT_CAUSE_DETACH_TASKS);
	KUNIT_EXPECT_EQ(test, top->m.m[3].cause, TTWU);
	KUNIT_EXPECT_EQ(test, in->m.m[0].cause, TTWU);
	KUNIT_EXPECT_EQ(test, in->m.m[1].cause, TTWU);
	KUNIT_EXPECT_EQ(test, in->m.m[0].from, c);
	KUNIT_EXPECT_EQ(test, in->m.m[0].to, b);
	KUNIT_EXPECT_EQ(test, in->ts[0], top->ts[1]);
	KUNIT_EXPECT_EQ(test, in->ts[1], top->ts[3]);
	/* Nothing the instance left out is lost. */
	KUNIT_EXPECT_EQ(test, mt_ring_dropped(&tr->buf, this), 0UL);
	KUNIT_EXPECT_EQ(test, mt_instance_rmdir("i0"), 0);
	mt_test_reset(test);
}

static struct kunit_case mt_instances_test_cases[] = {
	KUNIT_CASE(mt_test_instance_names),
	KUNIT_CASE(mt_test_instance_busy),
	KUNIT_CASE(mt_test_instance_records),
	{}
};

static struct kunit_suite mt_instances_test_suite = {
	.name = "migrate_trace_lite_instances",
	.init = mt_test_instances_init,
	.test_cases = mt_instances_test_cases,
};

kunit_test_init_section_suite(mt_instances_test_suite);
