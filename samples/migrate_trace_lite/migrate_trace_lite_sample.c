// SPDX-License-Identifier: GPL-2.0
/*
 * The light weight migration trace's kernel API at work: on load, mark
 * the beginning of a piece of work, do it, and mark its end, so that the
 * analysis tools can cut the trace at the marks:
 *
 *	migrate_stats --begin_mark 0x6d740000 --end_mark 0x6d740001 ...
 *
 * The work is a kernel thread, "mt_sample", that hops from one online
 * CPU to the next @hops times by changing its own affinity; each hop is
 * a migration, recorded between the two marks.  With start=1 the module
 * starts the trace itself (it must have been reset since it last ran);
 * otherwise the marks are recorded only if a trace runs.  The trace is
 * left running: stop and read it through
 * /sys/kernel/debug/migration_trace/.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/migrate_trace_lite.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

static bool start;
module_param(start, bool, 0444);
MODULE_PARM_DESC(start, "start the migration trace before the first mark");

static ulong mark = 0x6d740000;
module_param(mark, ulong, 0444);
MODULE_PARM_DESC(mark, "the mark before the work; the one after it is mark + 1");

static uint hops = 8;
module_param(hops, uint, 0444);
MODULE_PARM_DESC(hops, "how many times the thread moves to the next online CPU");

static DECLARE_COMPLETION(mt_sample_done);

static int mt_sample_hop(void *unused)
{
	unsigned int i, cpu;

	for (i = 0; i < hops; i++) {
		cpu = cpumask_next(raw_smp_processor_id(), cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		/* Runs on @cpu on return: the stopper moved it there. */
		if (set_cpus_allowed_ptr(current, cpumask_of(cpu)))
			break;
	}
	complete(&mt_sample_done);
	return 0;
}

static int __init mt_sample_init(void)
{
	struct task_struct *t;
	int ret;

	if (start) {
		ret = mt_trace_enable(1, 0);
		if (ret)
			return ret;
	}
	t = kthread_create(mt_sample_hop, NULL, "mt_sample");
	if (IS_ERR(t))
		return PTR_ERR(t);
	get_task_struct(t);

	mt_trace_mark(mark);
	wake_up_process(t);
	wait_for_completion(&mt_sample_done);
	mt_trace_mark(mark + 1);

	kthread_stop_put(t);
	return 0;
}

static void __exit mt_sample_exit(void)
{
}

module_init(mt_sample_init);
module_exit(mt_sample_exit);

MODULE_AUTHOR("migrate_trace_lite developers");
MODULE_DESCRIPTION("Marks around a piece of work in the light weight migration trace");
MODULE_LICENSE("GPL");
