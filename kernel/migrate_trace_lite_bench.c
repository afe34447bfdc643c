// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of the per-event cost, for the project's "make bench":
 * migration_trace/bench takes "hook N", "hook-event N", "tracepoint N",
 * "clock N" or "empty N" and runs N calls of mt_migrate_task() (whatever
 * mt and mstat are doing), of the sched_migrate_task tracepoint (whatever
 * ftrace is doing), of local_clock() (the one timestamp a traced event
 * needs) or of nothing, on the current task with interrupts off in stretches of
 * MT_BENCH_BATCH calls.  "dumpwalk N", with the trace stopped, merges the
 * newest N records of every CPU as the dump on oops does, without
 * printing them.  Reading gives "VARIANT N NANOSECONDS" of the last run,
 * the time of the stretches only; a dumpwalk adds the lines it merged.
 *
 * The hook calls log made-up moves of the calling task, without its
 * pi_lock, into whatever collects: never a user's trace or statistics.
 * "start mt", "start mstat" and "start both" begin the benchmark's own,
 * from a reset state; "hook N" runs only while nothing else collects,
 * and fails with EBUSY otherwise.  Stop and reset them as usual.  The
 * hook also fires sched_migrate_reason while that event has consumers:
 * "hook N" then fails with EBUSY too, and "hook-event N" is the one that
 * feeds them, for a benchmark's own consumers of the event only.
 */

#include <linux/debugfs.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/events/migrate_trace_lite.h>
#include <trace/events/sched.h>

#include "migrate_trace_lite_bench.h"

#define MT_BENCH_MAX_CALLS	1000000UL
/* Calls per stretch with interrupts off; they are on in between. */
#define MT_BENCH_BATCH		1000UL

static char mt_bench_result[64];
/* Under mt_mutex: the trace and the collection the benchmark started. */
static unsigned long mt_bench_trace = ULONG_MAX, mt_bench_stat = ULONG_MAX;
/* Where the "clock" variant puts its readings, so they are not optimized out. */
static u64 mt_bench_sink;

/* @n calls of @variant with interrupts off; the nanoseconds they took. */
static u64 mt_bench_batch(const char *variant, unsigned long n)
{
	struct task_struct *p = current;
	unsigned long flags, i;
	unsigned int other;
	u64 t0, t1;

	local_irq_save(flags);
	other = cpumask_any_but(cpu_possible_mask, task_cpu(p));
	t0 = local_clock();
	if (!strcmp(variant, "hook") || !strcmp(variant, "hook-event")) {
		for (i = 0; i < n; i++)
			mt_migrate_task(p, other, MT_CAUSE_TRY_TO_WAKE_UP);
	} else if (!strcmp(variant, "tracepoint")) {
		for (i = 0; i < n; i++)
			trace_sched_migrate_task(p, other);
	} else if (!strcmp(variant, "clock")) {
		for (i = 0; i < n; i++)
			WRITE_ONCE(mt_bench_sink, local_clock());
	} else {
		for (i = 0; i < n; i++)
			barrier();
	}
	t1 = local_clock();
	local_irq_restore(flags);
	return t1 - t0;
}

/* An instance runs that is not the benchmark's: not named mt_bench*. */
static bool mt_bench_foreign_instance_locked(void)
{
	int i;

	for (i = 0; i < MT_INSTANCES_MAX; i++) {
		struct mt_trace *tr = mt_instance_get_locked(i);

		if (tr && mt_tr_running(tr) && strncmp(tr->name, "mt_bench", 8))
			return true;
	}
	return false;
}

/*
 * Whether the hook may log: only into what the benchmark started, and
 * the instances named mt_bench*, which its script makes and removes.
 */
static bool mt_bench_may_log_locked(void)
{
	lockdep_assert_held(&mt_mutex);
	return (!mt_trace_running() || mt_top.starts == mt_bench_trace) &&
	       (!ms_stat_running() || ms_starts == mt_bench_stat) &&
	       !mt_bench_foreign_instance_locked();
}

/*
 * The calls log real-looking try_to_wake_up moves of the calling task
 * into the trace or statistics the benchmark started: it measures exactly
 * that.  A start of a user's, which takes mt_mutex, waits for the batch
 * in progress and stops the run.  It is a separate option, never meant
 * for a production kernel.  Return: the nanoseconds, or -EBUSY.
 */
static s64 mt_bench_run(const char *variant, unsigned long n)
{
	bool event = !strcmp(variant, "hook-event");
	bool hook = event || !strcmp(variant, "hook");
	unsigned long batch;
	u64 ns = 0;

	while (n) {
		batch = min(n, MT_BENCH_BATCH);
		mutex_lock(&mt_mutex);
		/*
		 * The event's registration takes mt_mutex before its key is
		 * on: it cannot gain a consumer during a batch.
		 */
		if (hook && (!mt_bench_may_log_locked() ||
			     (!event && trace_sched_migrate_reason_enabled()))) {
			mutex_unlock(&mt_mutex);
			return -EBUSY;
		}
		ns += mt_bench_batch(variant, batch);
		mutex_unlock(&mt_mutex);
		n -= batch;
		cond_resched();
	}
	return ns;
}

/*
 * "start WHAT": the benchmark's own trace (mt), statistics (mstat) or
 * both, new ones.  Return: 0, -EBUSY if something collects or ran since
 * its reset, -EINVAL, or a start's error.
 */
static int mt_bench_start(const char *what)
{
	bool trace = !strcmp(what, "mt") || !strcmp(what, "both");
	bool stat = !strcmp(what, "mstat") || !strcmp(what, "both");
	int ret = 0;

	if (!trace && !stat)
		return -EINVAL;
	/* A start may free buffers a dump reads: wait for it unlocked. */
	mt_dump_wait();
	mutex_lock(&mt_mutex);
	if (mt_trace_running() || ms_stat_running())
		ret = -EBUSY;
	if (!ret && trace) {
		ret = mt_bench_start_trace_locked();
		if (!ret)
			mt_bench_trace = mt_top.starts;
	}
	if (!ret && stat) {
		ret = ms_bench_start_locked();
		if (!ret)
			mt_bench_stat = ms_starts;
	}
	mutex_unlock(&mt_mutex);
	return ret;
}

/*
 * The dump on oops's merge of the newest @n records of every CPU, timed;
 * the trace stopped.  Return: 0, -EBUSY while it runs, -ENOMEM.
 */
static int mt_bench_dumpwalk(unsigned long n)
{
	struct mt_snap snap;
	u64 t0, ns, lines = 0;
	int ret;

	mutex_lock(&mt_mutex);
	/* Not while a consuming reader moves its place in the rings. */
	ret = mt_trace_running() || !mt_trace_started(&mt_top) || mt_reader_busy(&mt_top.rd) ?
	      -EBUSY : 0;
	if (!ret)
		ret = mt_snap_alloc(&snap, &mt_top);
	if (ret)
		goto out;
	/* The trace may have stopped itself: make sure writers are gone. */
	synchronize_rcu();
	t0 = local_clock();
	mt_snap_start(&snap, n);
	for (; mt_snap_top(&snap) >= 0; lines++)
		mt_snap_next(&snap);
	ns = local_clock() - t0;
	mt_snap_free(&snap);
	scnprintf(mt_bench_result, sizeof(mt_bench_result),
		  "dumpwalk %lu %llu %llu\n", n, ns, lines);
out:
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_bench_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[48], variant[16], what[8];
	unsigned long n;
	int ret;
	s64 ns;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "start %7s", what) == 1) {
		ret = mt_bench_start(what);
		return ret ? ret : count;
	}
	if (sscanf(buf, "%15s %lu", variant, &n) != 2 || !n ||
	    n > MT_BENCH_MAX_CALLS || nr_cpu_ids < 2)
		return -EINVAL;
	if (!strcmp(variant, "dumpwalk")) {
		ret = mt_bench_dumpwalk(n);
		return ret ? ret : count;
	}
	if (strcmp(variant, "hook") && strcmp(variant, "hook-event") &&
	    strcmp(variant, "tracepoint") && strcmp(variant, "clock") &&
	    strcmp(variant, "empty"))
		return -EINVAL;
	ns = mt_bench_run(variant, n);
	if (ns < 0)
		return ns;
	mutex_lock(&mt_mutex);
	scnprintf(mt_bench_result, sizeof(mt_bench_result), "%s %lu %lld\n",
		  variant, n, ns);
	mutex_unlock(&mt_mutex);
	return count;
}

static ssize_t mt_bench_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[64];

	mutex_lock(&mt_mutex);
	strscpy(buf, mt_bench_result, sizeof(buf));
	mutex_unlock(&mt_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations mt_bench_fops = {
	.read	= mt_bench_read,
	.write	= mt_bench_write,
	.llseek	= default_llseek,
};

/**
 * mt_bench_init() - create the benchmark's control file
 * @dir: debugfs migration_trace/
 */
void __init mt_bench_init(struct dentry *dir)
{
	debugfs_create_file("bench", 0600, dir, NULL, &mt_bench_fops);
}
