// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace's reasons: every reason's name, what
 * each hook makes of a scheduler decision, and three reasons taken on real
 * kernel paths by kernel threads of the test.  Like the main suite they
 * use the real buffers, so they are an init section suite that runs at
 * boot, before anybody traces, and leaves everything reset.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/deadline.h>
#include <linux/sched/idle.h>
#include <linux/sched/rt.h>
#include <linux/sched/task.h>
#include <linux/smp.h>
#include <linux/sprintf.h>
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

/* The moves of one pid a walk finds, in order. */
struct mt_test_moves {
	pid_t pid;
	unsigned int n;
	struct {
		u8 cause, reason;
		u16 from, to;
	} m[48];
};

static void mt_test_see_moves(int cpu, const struct mt_rec *rec, u64 ts, void *arg)
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
static const char *mt_test_moves_str(struct kunit *test, const struct mt_test_moves *s)
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
static void mt_test_expect_chain(struct kunit *test, const struct mt_test_moves *s,
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
static void mt_test_three_cpus(int *this, int *b, int *c)
{
	*this = smp_processor_id();
	*b = cpumask_any_but(cpu_possible_mask, *this);
	*c = cpumask_next(*b, cpu_possible_mask);
	if (*c == *this)
		*c = cpumask_next(*c, cpu_possible_mask);
}

/* Put a made-up task on @cpu, allowed everywhere, as the hooks look at it. */
static void mt_test_place(struct task_struct *t, int cpu)
{
	WRITE_ONCE(task_thread_info(t)->cpu, cpu);
	t->wake_cpu = cpu;
	t->cpus_ptr = &t->cpus_mask;
	cpumask_copy(&t->cpus_mask, cpu_possible_mask);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_ASSERT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
	KUNIT_ASSERT_EQ(test, s->n, 4);
	KUNIT_EXPECT_EQ_MSG(test, s->m[1].reason, MT_REASON_NONE,
			    "a swap's note outlived the move it made at once");
	KUNIT_EXPECT_EQ(test, s->m[2].reason, MT_REASON_AFFINITY_AT_WAKEUP);
	KUNIT_EXPECT_EQ_MSG(test, s->m[3].reason, MT_REASON_NONE,
			    "a deferral outlived an affinity wakeup");
	mt_test_reset(test);
}

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
	KUNIT_EXPECT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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
	KUNIT_EXPECT_EQ(test, mt_snap_walk(mt_test_see_moves, s), 0);
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

static struct kunit_case mt_reasons_test_cases[] = {
	KUNIT_CASE(mt_test_reason_table),
	KUNIT_CASE(mt_test_wakeup_reasons),
	KUNIT_CASE(mt_test_move_reasons),
	KUNIT_CASE(mt_test_stale_notes),
	KUNIT_CASE_SLOW(mt_test_wake_current_cpu),
	KUNIT_CASE_SLOW(mt_test_migrate_enable),
	KUNIT_CASE_SLOW(mt_test_push_cpu_stop),
	{}
};

static struct kunit_suite mt_reasons_test_suite = {
	.name = "migrate_trace_lite_reasons",
	.test_cases = mt_reasons_test_cases,
	.init = mt_test_init,
};

kunit_test_init_section_suite(mt_reasons_test_suite);
