// SPDX-License-Identifier: GPL-2.0
/*
 * The clock of the light weight migration trace and statistics: one
 * timestamp per event, local_clock().
 *
 * On x86_64, while sched_clock() is the native TSC clock and stable,
 * local_clock() is (tsc * cyc2ns_mul >> cyc2ns_shift) + cyc2ns_offset +
 * __sched_clock_offset, with the same terms on every CPU; perf hands
 * these terms to user space so that it can stamp events on the same
 * clock (arch_perf_update_userpage()).  A copy of them lets the hooks
 * read the TSC and multiply inline (__mt_clock()) instead of calling
 * local_clock(), which was a third of a hook's cost.  The copy is taken,
 * and checked on every CPU, when a facility starts.  A suspend,
 * hibernation or kexec jump, which changes the terms, drops it before and
 * takes it again after.  The slow paths, and a worker once a second,
 * check it before they read the time and drop it once the kernel's terms
 * change otherwise (a TSC found unstable, a late calibration): every CPU
 * then calls local_clock() again, until the next start.  Elsewhere
 * __mt_clock() is local_clock().
 */

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/syscore_ops.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite.h"

#ifdef MT_TSC_CLOCK

struct mt_tsc_conv mt_tsc_conv __read_mostly;

/* The copy of @d's terms; false if they do not fit the copy's form. */
static bool mt_tsc_conv_of(const struct cyc2ns_data *d, struct mt_tsc_conv *c)
{
	if (d->cyc2ns_shift > 32)
		return false;
	c->mult = (u64)d->cyc2ns_mul << (32 - d->cyc2ns_shift);
	c->offset = d->cyc2ns_offset + __sched_clock_offset;
	return true;
}

/* Whether local_clock() of this CPU is @c now; preemption disabled. */
static bool mt_tsc_conv_holds(const struct mt_tsc_conv *c)
{
	struct mt_tsc_conv mine;
	struct cyc2ns_data d;
	bool ok;

	if (!sched_clock_stable() || !using_native_sched_clock())
		return false;
	cyc2ns_read_begin(&d);
	ok = mt_tsc_conv_of(&d, &mine) && mine.mult == c->mult &&
	     mine.offset == c->offset;
	cyc2ns_read_end();
	return ok;
}

/* What mt_clock_sync() asks every CPU. */
struct mt_tsc_check {
	struct mt_tsc_conv conv;
	bool stale;		/* a CPU disagrees */
};

/* IPI of mt_clock_sync(): whether this CPU's local_clock() is @info's. */
static void mt_tsc_check_cpu(void *info)
{
	struct mt_tsc_check *chk = info;
	u64 ours, theirs;

	/*
	 * Same terms, and the arithmetic is the kernel's: a time read from
	 * the copy is not later than local_clock() read after it.
	 */
	ours = mt_tsc_ns(chk->conv.mult) + chk->conv.offset;
	theirs = local_clock();
	if (!mt_tsc_conv_holds(&chk->conv) || theirs < ours)
		WRITE_ONCE(chk->stale, true);
}

/*
 * Install @c.  The hooks read mult, then offset, with interrupts off: a
 * new pair goes in behind a zero mult and a grace period, so that no
 * hook mixes two pairs.  A zero mult alone is always safe, which is why
 * mt_clock_check() and a suspend may write one at any time, and why the
 * grace period is needed even when mult is zero already.
 */
static void mt_clock_set(const struct mt_tsc_conv *c)
{
	if (c->mult == READ_ONCE(mt_tsc_conv.mult) &&
	    c->offset == READ_ONCE(mt_tsc_conv.offset))
		return;
	WRITE_ONCE(mt_tsc_conv.mult, 0);
	if (!c->mult)
		return;
	synchronize_rcu();
	WRITE_ONCE(mt_tsc_conv.offset, c->offset);
	/* Pairs with the smp_rmb() of mt_clock_inline(). */
	smp_wmb();
	WRITE_ONCE(mt_tsc_conv.mult, c->mult);
}

/*
 * While a facility collects, a worker checks the copy once a second, so
 * that a change of the kernel's terms that no slow path has met yet (a
 * CPU with few events, a long stat period) is noticed within a second.
 * It is deferrable: an idle machine logs nothing to stamp.
 */
static void mt_clock_watch_fn(struct work_struct *work);
static DECLARE_DEFERRABLE_WORK(mt_clock_watch, mt_clock_watch_fn);

/**
 * mt_clock_sync() - take the terms of local_clock() for __mt_clock()
 *
 * When a facility starts, under mt_mutex: copy this CPU's terms if
 * sched_clock() is the native, stable TSC clock and every online CPU
 * has the same; else the hooks call local_clock().  Both give the same
 * nanoseconds, so the running facility, if any, does not see the change.
 */
void mt_clock_sync(void)
{
	struct mt_tsc_check chk = { };
	struct cyc2ns_data d;

	lockdep_assert_held(&mt_mutex);
	if (sched_clock_stable() && using_native_sched_clock()) {
		cyc2ns_read_begin(&d);
		chk.stale = !mt_tsc_conv_of(&d, &chk.conv);
		cyc2ns_read_end();
		/* A CPU that comes online later is checked by its slow paths. */
		if (!chk.stale)
			on_each_cpu(mt_tsc_check_cpu, &chk, 1);
		if (chk.stale)
			chk.conv.mult = 0;
	}
	mt_clock_set(&chk.conv);
	if (chk.conv.mult)
		mod_delayed_work(system_wq, &mt_clock_watch, HZ);
}

/**
 * mt_clock_check() - stop using the copy if this CPU's clock changed
 *
 * For the slow paths, before they read the time, with interrupts or
 * preemption off: once the TSC is found unstable, or after a late
 * calibration, local_clock() is no longer the copy's function.
 *
 * Return: false when this check dropped the copy: a time the caller read
 * from it before may not be local_clock()'s, and is read again.  True when
 * the copy holds or was off already (the time came from local_clock()).
 */
bool mt_clock_check(void)
{
	struct mt_tsc_conv c;

	c.mult = READ_ONCE(mt_tsc_conv.mult);
	if (!c.mult)
		return true;
	/* Pairs with the smp_wmb() of mt_clock_set(), as in __mt_clock(). */
	smp_rmb();
	c.offset = READ_ONCE(mt_tsc_conv.offset);
	if (mt_tsc_conv_holds(&c))
		return true;
	WRITE_ONCE(mt_tsc_conv.mult, 0);
	return false;
}

/* The worker of mt_clock_watch. */
static void mt_clock_watch_fn(struct work_struct *work)
{
	preempt_disable();
	mt_clock_check();
	preempt_enable();
	if (READ_ONCE(mt_tsc_conv.mult) && static_key_enabled(&mt_hooks_key))
		schedule_delayed_work(&mt_clock_watch, HZ);
}

/*
 * A suspend, a hibernation or a kexec jump gives the TSC and sched_clock()
 * new terms.  These run on the last CPU, with interrupts off: the copy is
 * dropped before, and taken from the new terms after if a facility
 * collects.  No hook runs and no facility starts in between, so the new
 * pair needs no grace period.
 */
VISIBLE_IF_KUNIT int mt_clock_suspend(void *data)
{
	WRITE_ONCE(mt_tsc_conv.mult, 0);
	return 0;
}

VISIBLE_IF_KUNIT void mt_clock_resume(void *data)
{
	struct mt_tsc_conv c;
	struct cyc2ns_data d;
	bool ok;

	if (!static_key_enabled(&mt_hooks_key) || !sched_clock_stable() ||
	    !using_native_sched_clock())
		return;
	cyc2ns_read_begin(&d);
	ok = mt_tsc_conv_of(&d, &c);
	cyc2ns_read_end();
	if (!ok)
		return;
	WRITE_ONCE(mt_tsc_conv.offset, c.offset);
	/* Pairs with the smp_rmb() of mt_clock_inline(). */
	smp_wmb();
	WRITE_ONCE(mt_tsc_conv.mult, c.mult);
}

static const struct syscore_ops mt_clock_syscore_ops = {
	.suspend	= mt_clock_suspend,
	.resume		= mt_clock_resume,
};

static struct syscore mt_clock_syscore = {
	.ops		= &mt_clock_syscore_ops,
};

static int __init mt_clock_init(void)
{
	register_syscore(&mt_clock_syscore);
	return 0;
}
late_initcall(mt_clock_init);

#endif /* MT_TSC_CLOCK */
