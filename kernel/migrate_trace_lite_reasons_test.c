// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace's reasons: every reason's name, and
 * what each hook makes of a scheduler decision for a made-up task.  Like
 * the main suite they use the real buffers, so they are an init section
 * suite that runs at boot, before anybody traces, and leaves everything
 * reset.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/idle.h>
#include <linux/smp.h>
#include <linux/threads.h>

#include "migrate_trace_lite_test.h"

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

/*
 * A wakeup's reason is the decision select_task_rq() noted for the task,
 * but: a task whose CPU was taken from it while it slept moves for that
 * (affinity_at_wakeup), and one taken to the CPU a stopper or a NUMA swap
 * left it for moves for what deferred the move, once; none when nothing
 * was noted; an idle or busy target that is the waker's own CPU
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
	/* What a stopper's request or a NUMA swap deferred, and its name. */
	static const unsigned int deferred[][2] = {
		{ MT_REASON_NUMA_AT_WAKEUP, MT_REASON_NUMA_AT_WAKEUP },
		{ MT_REASON_EXEC_BALANCE, MT_REASON_EXEC_BALANCE },
		{ MT_REASON_NUMA_MIGRATE, MT_REASON_NUMA_MIGRATE },
		{ MT_REASON_AFFINITY, MT_REASON_AFFINITY_AT_WAKEUP },
		{ MT_REASON_NONE, MT_REASON_NONE },
	};
	struct task_struct *t = mt_test_made_up_task(test, "mt_wakee");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int want[ARRAY_SIZE(passed) + ARRAY_SIZE(deferred) + 8];
	unsigned int n = 0, i;
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
	/* Moves to c left to the wakeup while it slept on b, allowed on b. */
	for (i = 0; i < ARRAY_SIZE(deferred); i++) {
		mt_test_place(t, b);
		mt_note_deferred(t, deferred[i][0]);
		t->wake_cpu = c;
		mt_note(t, MT_REASON_IDLE_PREV);
		__mt_migrate_wakeup(t, c);
		want[n++] = deferred[i][1];
	}
	/* Deferred to c, but placed elsewhere: the placement's reason. */
	mt_test_place(t, b);
	mt_note_deferred(t, MT_REASON_EXEC_BALANCE);
	t->wake_cpu = c;
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, this);
	want[n++] = MT_REASON_IDLE_CPU;
	/* Taken: a second wakeup to c finds no deferral, and no reason. */
	mt_test_place(t, b);
	t->wake_cpu = c;
	mt_note(t, MT_REASON_IDLE_PREV);
	__mt_migrate_wakeup(t, c);
	want[n++] = MT_REASON_NONE;
	/* No move, no record. */
	t->wake_cpu = b;
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, b);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
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
 * A note reaches only the move of the placement that made it: not the
 * next move of its task after a placement that kept the CPU, and not a
 * move of the next trace (the note was left while the hooks were off).
 * A deferral reaches only the wakeup that completes it.
 */
static void mt_test_stale_notes(struct kunit *test)
{
	struct task_struct *t = mt_test_made_up_task(test, "mt_noted");
	struct mt_test_moves *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
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
	mt_test_place(t, b);
	mt_note(t, MT_REASON_IDLE_CORE);
	__mt_migrate_task(t, b, MT_CAUSE_WAKE_UP_NEW_TASK);
	__mt_migrate_task(t, c, MT_CAUSE_MIGRATION_CPU_STOP);
	mt_note(t, MT_REASON_IDLE_CPU);
	__mt_migrate_wakeup(t, b);
	__mt_migrate_task(t, c, MT_CAUSE_WAKE_UP_NEW_TASK);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 2);
	KUNIT_EXPECT_EQ_MSG(test, s->m[0].reason, MT_REASON_NONE,
			    "a kept fork placement's note named a stopper's move");
	KUNIT_EXPECT_EQ_MSG(test, s->m[1].reason, MT_REASON_NONE,
			    "a kept wakeup placement's note named a fork's move");

	/* Left on this CPU while no facility collects, as by an old trace. */
	mt_test_reset(test);
	s->n = 0;
	migrate_disable();
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&mt_hooks_key));
	local_irq_save(flags);
	raw_cpu_write(mt_notes.p, t);
	raw_cpu_write(mt_notes.reason, MT_REASON_IDLE_SMT);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	__mt_migrate_task(t, c, MT_CAUSE_WAKE_UP_NEW_TASK);
	local_irq_restore(flags);
	migrate_enable();
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ_MSG(test, s->m[0].reason, MT_REASON_NONE,
			    "a note of an earlier trace named a move");

	/* A deferral left while no facility collects, as by an old trace. */
	mt_test_reset(test);
	s->n = 0;
	__mt_note_deferred(t, MT_REASON_EXEC_BALANCE);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_place(t, b);
	t->wake_cpu = c;
	__mt_migrate_wakeup(t, c);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ_MSG(test, s->m[0].reason, MT_REASON_NONE,
			    "a deferral of an earlier trace named a wakeup");

	/*
	 * Noted, then moved at once by the swap, or woken off a CPU it may
	 * no longer use: a later wakeup off wake_cpu (a workqueue's hint)
	 * finds nothing.
	 */
	mt_test_reset(test);
	s->n = 0;
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	local_irq_save(flags);
	mt_test_place(t, b);
	__mt_note_deferred(t, MT_REASON_NUMA_AT_WAKEUP);
	__mt_migrate_task(t, c, MT_CAUSE___MIGRATE_SWAP_TASK);
	mt_test_place(t, b);
	t->wake_cpu = c;
	__mt_migrate_wakeup(t, c);
	mt_test_place(t, b);
	__mt_note_deferred(t, MT_REASON_EXEC_BALANCE);
	t->wake_cpu = c;
	cpumask_clear_cpu(b, &t->cpus_mask);
	__mt_migrate_wakeup(t, c);
	mt_test_place(t, b);
	t->wake_cpu = c;
	__mt_migrate_wakeup(t, c);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_ASSERT_EQ(test, mt_snap_walk(&mt_top, mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 4);
	KUNIT_EXPECT_EQ_MSG(test, s->m[1].reason, MT_REASON_NONE,
			    "a swap's note outlived the move it made at once");
	KUNIT_EXPECT_EQ(test, s->m[2].reason, MT_REASON_AFFINITY_AT_WAKEUP);
	KUNIT_EXPECT_EQ_MSG(test, s->m[3].reason, MT_REASON_NONE,
			    "a deferral outlived an affinity wakeup");
	mt_test_reset(test);
}

static struct kunit_case mt_reasons_test_cases[] = {
	KUNIT_CASE(mt_test_reason_table),
	KUNIT_CASE(mt_test_wakeup_reasons),
	KUNIT_CASE(mt_test_move_reasons),
	KUNIT_CASE(mt_test_stale_notes),
	{}
};

static struct kunit_suite mt_reasons_test_suite = {
	.name = "migrate_trace_lite_reasons",
	.test_cases = mt_reasons_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_reasons_test_suite);
