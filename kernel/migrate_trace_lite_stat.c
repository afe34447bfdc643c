// SPDX-License-Identifier: GPL-2.0
/*
 * Migration statistics (mstat): counts per cause and reason in periods of
 * period_msec, shown by debugfs migration_stat/.
 *
 * Each CPU counts its current period in its own counters and, at its
 * first event past the period's end, folds them into the shared history,
 * one row per period: an atomic per counter per period, none per event.
 * A row is shown once every CPU has moved past it.
 *
 * A reader sends no IPI, for it must not wake the idle CPUs it reports on.
 * It folds itself the counts of a CPU whose period ended MS_READ_SLACK_NS
 * ago, without clearing them: ->taken keeps what was folded, so that each
 * count reaches the history once, and the CPU's lock, which the hook takes
 * only at the end of a period, keeps the two folds apart.  The slack
 * covers a hook that read its time before the period's end but counts
 * after the reader looked, and clocks a tick apart across CPUs.
 *
 * An event's period is that of its local_clock() time, the trace's own
 * timestamp while the trace runs.  Alone, mstat reads the clock only from
 * a tick a margin before the period's end (ms_tick_margin()); 32-bit
 * kernels, whose jiffies wrap in weeks, read it for every event.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_stat.h"

#define MS_NR_PERIODS		(CONFIG_SNSC_LITE_MIGRATION_STAT_DATA_SIZE * 3600UL)
#define MS_MAX_PERIOD_MSEC	3600000UL
/* How long after a CPU's period ended a reader takes it as idle: see above. */
#define MS_READ_SLACK_NS	(2 * TICK_NSEC)

/* Columns: the causes, then a /none and one per reason of each cause. */
#define MS_NR_COLS	(MT_NR_CAUSES + MT_NR_CAUSES_WITH_REASONS +		\
			 MT_NR_CAUSE_REASONS)
static_assert(MS_NR_COLS <= 256);
/*
 * The column a move of a cause and reason counts in: its CAUSE/REASON
 * column, or the cause's own for a cause without reasons.  A cause with
 * reasons gets its own count as their sum, when the counts are folded:
 * the hook increments one counter.
 */
u8 ms_col[MT_CAUSE_END][MT_REASON_END] __read_mostly;
static u8 ms_col_cause[MS_NR_COLS];
static u8 ms_col_reason[MS_NR_COLS];

/*
 * Each CPU counts the moves of its current period, by column, until
 * ms_period_end; the hook does so inline (ms_count()).  Counts of long
 * periods on big machines pass 2^32: 64 bits everywhere.
 */
DEFINE_PER_CPU(u64 [MS_NR_COLS], ms_counts);
DEFINE_PER_CPU(u64, ms_period_end);
/* jiffies from which this CPU's events read the clock (ms_count_untimed()). */
DEFINE_PER_CPU(unsigned long, ms_period_end_tick);

/*
 * What a CPU keeps beside its counters.  The lock is taken by the CPU to
 * fold and move to a new period, by a reader to fold what the CPU counted
 * since, and by hotplug and stop on a CPU that cannot count.
 */
struct ms_cpu {
	raw_spinlock_t lock;
	u64 period;			/* the period of the CPU's counts */
	u64 taken[MS_NR_COLS];		/* of the counts, already folded */
};

static DEFINE_PER_CPU(struct ms_cpu, ms_cpus);

/* The history: MS_NR_PERIODS rows of MS_NR_COLS counters. */
static atomic64_t *ms_hist;

bool ms_collecting;			/* see ms_stat_running() */
DEFINE_STATIC_KEY_FALSE(ms_stat_key);	/* see ms_stat_may_run() */
/* Under mt_mutex: */
static bool ms_holds_hooks;
static bool ms_started;			/* a collection ran since the reset */
static bool ms_folded;			/* ...and stopped, all counts in rows */
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
unsigned long ms_starts;		/* collections since boot, for the benchmark */
#endif
VISIBLE_IF_KUNIT unsigned long ms_period_msec = 1000;
static u64 ms_period_ns;
static u64 ms_span_ns;			/* the whole history; U64_MAX if more */
VISIBLE_IF_KUNIT u64 ms_start_ns;		/* local_clock() when period 0 began */
static s64 ms_clock_offset;		/* local_clock() - sched_clock() then */
static u64 ms_complete;			/* rows final after the stop */
static struct timespec64 ms_start_wall;
static unsigned int ms_readers;
static atomic_long_t ms_dropped;

static atomic64_t *ms_row(u64 period)
{
	return ms_hist + period * MS_NR_COLS;
}

static void ms_release_hooks_workfn(struct work_struct *work)
{
	mutex_lock(&mt_mutex);
	if (!READ_ONCE(ms_collecting)) {
		static_branch_disable(&ms_stat_key);
		mt_hooks_put(&ms_holds_hooks);
	}
	mutex_unlock(&mt_mutex);
}

static DECLARE_WORK(ms_release_work, ms_release_hooks_workfn);

static void ms_full_irq_workfn(struct irq_work *work)
{
	schedule_work(&ms_release_work);
}

static DEFINE_IRQ_WORK(ms_full_irq_work, ms_full_irq_workfn);

/*
 * Add what @cpu counted in its period since the last fold to that
 * period's row, under the CPU's lock.  @clear: on @cpu with interrupts
 * off, or with its writers gone, so the counters can be cleared for the
 * next period; else a reader's fold, beside a hook that may increment a
 * counter (on a 32-bit kernel, a 64-bit counter may then be read torn:
 * the next fold's difference puts the row right).  A cause with reasons
 * counts as their sum.
 */
static void ms_fold(unsigned int cpu, bool clear)
{
	struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);
	u64 *count = *per_cpu_ptr(&ms_counts, cpu);
	u64 sum[MT_NR_CAUSES] = {};
	atomic64_t *row;
	unsigned int i;

	lockdep_assert_held(&pc->lock);
	if (pc->period >= MS_NR_PERIODS)
		return;
	row = ms_row(pc->period);
	for (i = 0; i < MS_NR_COLS; i++) {
		/* The hook increments it locklessly, by design. */
		u64 n = data_race(READ_ONCE(count[i]));
		u64 d = n - pc->taken[i];

		if (clear) {
			count[i] = 0;
			pc->taken[i] = 0;
		} else {
			pc->taken[i] = n;
		}
		if (!d)
			continue;
		atomic64_add(d, &row[i]);
		if (ms_col_cause[i])
			sum[ms_col_cause[i] - 1] += d;
	}
	for (i = 0; i < MT_NR_CAUSES; i++)
		if (sum[i])
			atomic64_add(sum[i], &row[i]);
}

/*
 * How many ticks short of a period's end of @ticks ticks its events read
 * the clock: eight for jiffies stalled by a busy timekeeper (the tick lets
 * it lag MAX_STALLED_JIFFIES), and a thousandth of the period for NTP's
 * slew of jiffies against sched_clock (500 ppm at most).
 */
static u64 ms_tick_margin(u64 ticks)
{
	return 8 + div_u64(ticks, 1000);
}

/*
 * The tick from which @cpu's untimed events read the clock, for a period
 * that ends @left ns after @tick.
 */
static void ms_set_end_tick(unsigned int cpu, unsigned long tick, u64 left)
{
	u64 ticks = div_u64(left, TICK_NSEC), margin = ms_tick_margin(ticks);

	*per_cpu_ptr(&ms_period_end_tick, cpu) =
		tick + (ticks > margin ? ticks - margin : 0);
}

/*
 * Fold, then move @cpu to the period of @now; on @cpu with interrupts
 * off, or on a control CPU while @cpu cannot count.  Runs once per period
 * per CPU at most, so the lock and the division for a CPU that idled are
 * affordable here.
 */
static void ms_advance(unsigned int cpu, u64 now)
{
	struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);
	u64 *end = per_cpu_ptr(&ms_period_end, cpu);
	unsigned long flags;
	u64 passed;

	raw_spin_lock_irqsave(&pc->lock, flags);
	ms_fold(cpu, true);
	if (now < *end) {
		raw_spin_unlock_irqrestore(&pc->lock, flags);
		return;
	}
	passed = div64_u64(now - *end, ms_period_ns) + 1;
	pc->period += passed;
	*end += passed * ms_period_ns;
	ms_set_end_tick(cpu, jiffies, *end - now);
	raw_spin_unlock_irqrestore(&pc->lock, flags);
	if (pc->period >= MS_NR_PERIODS && READ_ONCE(ms_collecting)) {
		/* The history is full: stop, and let a worker drop the key. */
		WRITE_ONCE(ms_collecting, false);
		irq_work_queue(&ms_full_irq_work);
	}
}

/**
 * ms_count_slow() - count a move that is past this CPU's period's end
 * @col: the move's column, ms_col[cause][reason]
 * @now: the move's time
 *
 * The slow path of ms_count(): moves this CPU to the period of @now
 * first; a move past the history's end is counted as dropped.
 *
 * Context: a hook, irqs off.
 */
noinline __cold void ms_count_slow(unsigned int col, u64 now)
{
	ms_advance(smp_processor_id(), now);
	if (unlikely(this_cpu_read(ms_cpus.period) >= MS_NR_PERIODS)) {
		atomic_long_inc(&ms_dropped);
		return;
	}
	this_cpu_inc(ms_counts[col]);
}

/**
 * ms_count_untimed_slow() - count a move near this CPU's period's end
 * @col: the move's column, ms_col[cause][reason]
 *
 * The slow path of ms_count_untimed(): reads the clock to find the
 * move's period.
 *
 * Context: a hook, irqs off.
 */
noinline __cold void ms_count_untimed_slow(unsigned int col)
{
	u64 now = local_clock();

	if (now >= this_cpu_read(ms_period_end)) {
		ms_count_slow(col, now);
		return;
	}
	this_cpu_inc(ms_counts[col]);
}

/**
 * ms_read_locked() - how many rows of the history are final
 * @now: the reader's time
 *
 * A row is final once every online CPU moved past it or idles since
 * before it.  An idle CPU's counts are folded here, without asking it; a
 * CPU that moved on folded its past periods itself.
 *
 * Context: under mt_mutex, while collecting; may sleep.
 * Return: the number of final rows.
 */
VISIBLE_IF_KUNIT u64 ms_read_locked(u64 now)
{
	u64 complete = MS_NR_PERIODS, idle_past = 0;
	int cpu;

	lockdep_assert_held(&mt_mutex);
	if (now > ms_start_ns + MS_READ_SLACK_NS)
		idle_past = div64_u64(now - MS_READ_SLACK_NS - ms_start_ns,
				      ms_period_ns);
	/* No hotplug callback folds or moves a CPU meanwhile. */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);
		unsigned long flags;
		u64 past;

		raw_spin_lock_irqsave(&pc->lock, flags);
		if (*per_cpu_ptr(&ms_period_end, cpu) + MS_READ_SLACK_NS <= now) {
			ms_fold(cpu, false);
			past = idle_past;
		} else {
			past = pc->period;
		}
		raw_spin_unlock_irqrestore(&pc->lock, flags);
		complete = min(complete, past);
	}
	cpus_read_unlock();
	return complete;
}

/**
 * ms_start_locked() - start collecting the migration statistics
 *
 * Starts a new timeline of periods; a collection that stopped keeps its
 * timeline until a reset.  Starting a running collection does nothing.
 *
 * Context: under mt_mutex; may sleep.
 * Return: 0, -EBUSY if a collection ran since the reset, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int ms_start_locked(void)
{
	unsigned long tick;
	size_t size;
	int cpu;

	if (READ_ONCE(ms_collecting))
		return 0;
	/* A stopped collection keeps its timeline: reset before the next. */
	if (ms_started)
		return -EBUSY;
	if (!ms_hist) {
		if (check_mul_overflow(MS_NR_PERIODS, MS_NR_COLS * sizeof(*ms_hist),
				       &size))
			return -ENOMEM;
		ms_hist = kvzalloc(size, MT_GFP);
		if (!ms_hist)
			return -ENOMEM;
	}
	ms_period_ns = (u64)ms_period_msec * NSEC_PER_MSEC;
	if (check_mul_overflow((u64)MS_NR_PERIODS, ms_period_ns, &ms_span_ns))
		ms_span_ns = U64_MAX;
	/* No hotplug callback may fold into rows of the old timeline. */
	cpus_read_lock();
	ktime_get_real_ts64(&ms_start_wall);
	ms_clock_offset = mt_clock_offset_now();
	ms_start_ns = local_clock();
	tick = jiffies;
	for_each_possible_cpu(cpu) {
		struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);

		/* No hook counts, no reader reads: the lock is not needed. */
		pc->period = 0;
		memset(pc->taken, 0, sizeof(pc->taken));
		memset(per_cpu_ptr(&ms_counts, cpu), 0, sizeof(ms_counts));
		*per_cpu_ptr(&ms_period_end, cpu) = ms_start_ns + ms_period_ns;
		ms_set_end_tick(cpu, tick, ms_period_ns);
	}
	ms_started = true;
	ms_folded = false;
	/* Before the hooks count: see ms_stat_may_run(). */
	static_branch_enable_cpuslocked(&ms_stat_key);
	/* Publish the per-CPU state above to the hooks (ms_stat_running()). */
	smp_store_release(&ms_collecting, true);
	cpus_read_unlock();
	mt_hooks_get(&ms_holds_hooks);
#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
	ms_starts++;
#endif
	return 0;
}

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/**
 * ms_bench_start_locked() - start the benchmark's own collection
 *
 * Only from a reset state, so that no user's statistics count the
 * benchmark's moves; ms_starts then names it.
 *
 * Context: under mt_mutex; may sleep.
 * Return: 0, -EBUSY if a collection runs or ran since the reset, or
 * -ENOMEM.
 */
int ms_bench_start_locked(void)
{
	if (READ_ONCE(ms_collecting) || ms_started)
		return -EBUSY;
	return ms_start_locked();
}
#endif

/**
 * ms_stop_locked() - stop collecting, and fold every CPU's counts
 *
 * The collection may have stopped itself with a full history already.
 * Waits for the hooks to finish before folding.
 *
 * Context: under mt_mutex; may sleep.
 */
VISIBLE_IF_KUNIT void ms_stop_locked(void)
{
	u64 stop_ns = local_clock();
	int cpu;

	if (READ_ONCE(ms_collecting)) {
		WRITE_ONCE(ms_collecting, false);
		/* Another CPU's clock may be a little behind the start's. */
		ms_complete = stop_ns > ms_start_ns ?
			      div64_u64(stop_ns - ms_start_ns, ms_period_ns) : 0;
		ms_complete = min_t(u64, MS_NR_PERIODS, ms_complete);
	} else if (ms_started && !ms_folded) {
		ms_complete = MS_NR_PERIODS;	/* stopped itself: full */
	}
	static_branch_disable(&ms_stat_key);
	mt_hooks_put(&ms_holds_hooks);
	if (!ms_started || ms_folded)
		return;			/* no writer to wait for */
	synchronize_rcu();
	/* Not while a hotplug callback folds a CPU. */
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);
		unsigned long flags;

		raw_spin_lock_irqsave(&pc->lock, flags);
		ms_fold(cpu, true);
		raw_spin_unlock_irqrestore(&pc->lock, flags);
	}
	cpus_read_unlock();
	ms_folded = true;
}

/*
 * CPU hotplug, on a control CPU while @cpu cannot run: a dead CPU's
 * counts go to the history at once, so that rows stay final while it is
 * away, and a returning CPU starts in the current period.  Readers and
 * ms_start_locked() hold cpus_read_lock(), so they see a CPU either
 * before or after this.
 */
static int ms_cpu_prepare(unsigned int cpu)
{
	if (ms_stat_running())
		ms_advance(cpu, local_clock());
	return 0;
}

static int ms_cpu_dead(unsigned int cpu)
{
	struct ms_cpu *pc = per_cpu_ptr(&ms_cpus, cpu);
	unsigned long flags;

	if (ms_stat_running()) {
		raw_spin_lock_irqsave(&pc->lock, flags);
		ms_fold(cpu, true);
		raw_spin_unlock_irqrestore(&pc->lock, flags);
	}
	return 0;
}

/*
 * A collection whose history has run out stops even if nothing migrates:
 * at a look at it, without asking any CPU (ms_stop_locked() takes every
 * count once the writers are gone).
 */
static void ms_stop_if_expired_locked(void)
{
	u64 now = local_clock();

	if (READ_ONCE(ms_collecting) && now > ms_start_ns &&
	    now - ms_start_ns >= ms_span_ns)
		ms_stop_locked();
	/* Stopped by a full history, and not folded yet. */
	if (!READ_ONCE(ms_collecting) && ms_started && !ms_folded)
		ms_stop_locked();
}

/**
 * ms_reset_locked() - stop collecting and free the history
 *
 * The next start begins a new timeline.
 *
 * Context: under mt_mutex; may sleep.
 * Return: 0, or -EBUSY while the stat file is open.
 */
VISIBLE_IF_KUNIT int ms_reset_locked(void)
{
	if (ms_readers)
		return -EBUSY;
	ms_stop_locked();
	kvfree(ms_hist);
	ms_hist = NULL;
	atomic_long_set(&ms_dropped, 0);
	ms_started = false;
	ms_folded = false;
	ms_complete = 0;
	return 0;
}

/**
 * ms_read_count() - a counter of the history, for KUnit
 * @period: the row
 * @col: the column
 *
 * Return: the count, or 0 if @period is past the history.
 */
VISIBLE_IF_KUNIT u64 ms_read_count(u64 period, unsigned int col)
{
	return period < MS_NR_PERIODS ? atomic64_read(&ms_row(period)[col]) : 0;
}

/**
 * ms_column() - the column of a cause's reason, for KUnit
 * @cause: enum mt_cause
 * @reason: enum mt_reason
 *
 * Return: the column the hooks count such a move into.
 */
VISIBLE_IF_KUNIT unsigned int ms_column(unsigned int cause, unsigned int reason)
{
	return ms_col[cause][reason];
}

/*
 * A reader's snapshot, taken at open under mt_mutex: a start, a reset or
 * a new period after the open does not change what this reader prints.
 */
struct ms_iter {
	u64 rows;		/* final rows in this snapshot */
	unsigned long period_msec;
	u64 start_ns;
	s64 clock_offset;
	struct timespec64 start_wall;
};

static void *ms_seq_start(struct seq_file *m, loff_t *pos)
{
	struct ms_iter *it = m->private;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	return *pos - 1 < it->rows ? ms_row(*pos - 1) : NULL;
}

static void *ms_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return ms_seq_start(m, pos);
}

static void ms_seq_stop(struct seq_file *m, void *v)
{
}

/*
 * Format 1.2: 1.1 plus a CAUSE/REASON column per reason after migrate,
 * and the clock named as in the trace's header.  The 1.x key sched_clock
 * keeps its name, but holds local_clock() at the start.
 */
static void ms_show_header(struct seq_file *m, const struct ms_iter *it)
{
	unsigned int i;

	seq_puts(m, "# version 1.2.0\n");
	seq_printf(m, "# period_msec %lu\n", it->period_msec);
	seq_printf(m, "# gettimeofday %lld %06ld\n",
		   (long long)it->start_wall.tv_sec,
		   it->start_wall.tv_nsec / NSEC_PER_USEC);
	seq_puts(m, "# ts_field 1\n");
	seq_printf(m, "# nr_cpus %u\n", nr_cpu_ids);
	seq_printf(m, "# dropped %ld\n", atomic_long_read(&ms_dropped));
	seq_puts(m, "# clock " MT_CLOCK_NAME "\n");
	seq_printf(m, "# clock_offset %lld\n", it->clock_offset);
	seq_printf(m, "# sched_clock 0x%016llx\n", it->start_ns);
	for (i = 1; i < MT_CAUSE_END; i++)
		seq_printf(m, "# field %u %s\n", i + 1, mt_cause_names[i]);
	seq_printf(m, "# field %u migrate\n", MT_CAUSE_END + 1);
	for (i = MT_NR_CAUSES; i < MS_NR_COLS; i++)
		seq_printf(m, "# field %u %s/%s\n", i + 3,
			   mt_cause_names[ms_col_cause[i]],
			   ms_col_reason[i] ? mt_reason_names[ms_col_reason[i]] :
					      "none");
}

static void ms_show_row(struct seq_file *m, const struct ms_iter *it,
			u64 period, atomic64_t *row)
{
	u64 msec = period * it->period_msec;
	u64 sum = 0, sec;
	unsigned int i;
	u32 rem;

	sec = div_u64_rem(msec, MSEC_PER_SEC, &rem);
	seq_printf(m, "%llu.%03u", sec, rem);
	for (i = 0; i < MT_NR_CAUSES; i++) {
		u64 n = atomic64_read(&row[i]);

		sum += n;
		seq_put_decimal_ull(m, " ", n);
	}
	seq_put_decimal_ull(m, " ", sum);
	for (; i < MS_NR_COLS; i++)
		seq_put_decimal_ull(m, " ", atomic64_read(&row[i]));
	seq_putc(m, '\n');
}

static int ms_seq_show(struct seq_file *m, void *v)
{
	struct ms_iter *it = m->private;

	if (v == SEQ_START_TOKEN)
		ms_show_header(m, it);
	else
		ms_show_row(m, it, ((atomic64_t *)v - ms_hist) / MS_NR_COLS, v);
	return 0;
}

static const struct seq_operations ms_seq_ops = {
	.start	= ms_seq_start,
	.next	= ms_seq_next,
	.stop	= ms_seq_stop,
	.show	= ms_seq_show,
};

static int ms_stat_open(struct inode *inode, struct file *file)
{
	struct ms_iter *it;

	it = __seq_open_private(file, &ms_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	mutex_lock(&mt_mutex);
	ms_stop_if_expired_locked();
	if (READ_ONCE(ms_collecting))
		it->rows = ms_read_locked(local_clock());
	else
		it->rows = ms_started ? ms_complete : 0;
	it->period_msec = ms_period_msec;
	it->start_ns = ms_start_ns;
	it->clock_offset = ms_clock_offset;
	it->start_wall = ms_start_wall;
	ms_readers++;
	mutex_unlock(&mt_mutex);
	return 0;
}

static int ms_stat_release(struct inode *inode, struct file *file)
{
	mutex_lock(&mt_mutex);
	ms_readers--;
	mutex_unlock(&mt_mutex);
	return seq_release_private(inode, file);
}

static const struct file_operations ms_stat_fops = {
	.open		= ms_stat_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= ms_stat_release,
};

static ssize_t ms_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	mutex_lock(&mt_mutex);
	ms_stop_if_expired_locked();
	mutex_unlock(&mt_mutex);
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(ms_collecting));
}

static ssize_t ms_enable_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = mt_parse_enable(ubuf, count, &on);
	if (ret)
		return ret;
	mutex_lock(&mt_mutex);
	if (on)
		ret = ms_start_locked();
	else
		ms_stop_locked();
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations ms_enable_fops = {
	.read	= ms_enable_read,
	.write	= ms_enable_write,
	.llseek	= default_llseek,
};

static ssize_t ms_period_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(ms_period_msec));
}

static ssize_t ms_period_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret && (val == 0 || val > MS_MAX_PERIOD_MSEC))
		ret = -EINVAL;
	if (ret)
		return ret;
	mutex_lock(&mt_mutex);
	/* The rows collected so far are of the old period: keep it. */
	if (ms_started)
		ret = -EBUSY;
	else
		WRITE_ONCE(ms_period_msec, val);
	mutex_unlock(&mt_mutex);
	return ret ? ret : count;
}

static const struct file_operations ms_period_fops = {
	.read	= ms_period_read,
	.write	= ms_period_write,
	.llseek	= default_llseek,
};

static ssize_t ms_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return mt_write_reset(ubuf, count, ms_reset_locked);
}

static const struct file_operations ms_reset_fops = {
	.write	= ms_reset_write,
	.llseek	= noop_llseek,
};

/* Number the CAUSE/REASON columns after the causes. */
static void __init ms_number_columns(void)
{
	unsigned int cause, reason, col = MT_NR_CAUSES;

	for (cause = 1; cause < MT_CAUSE_END; cause++) {
		u64 reasons = mt_cause_reasons[cause];

		if (!reasons)
			continue;
		reasons |= BIT_ULL(MT_REASON_NONE);
		for (reason = 0; reason < MT_REASON_END; reason++) {
			if (!(reasons & BIT_ULL(reason)))
				continue;
			if (WARN_ON(col >= MS_NR_COLS))
				return;
			ms_col_cause[col] = cause;
			ms_col_reason[col] = reason;
			ms_col[cause][reason] = col++;
		}
		/* A reason a cause should not have still shows, as none. */
		for (reason = 0; reason < MT_REASON_END; reason++)
			if (!ms_col[cause][reason])
				ms_col[cause][reason] = ms_col[cause][0];
	}
	/* Every column is numbered: ms_fold() adds each into its cause's. */
	WARN_ON(col != MS_NR_COLS);
	for (cause = 1; cause < MT_CAUSE_END; cause++)
		if (!mt_cause_reasons[cause])
			memset(ms_col[cause], cause - 1, MT_REASON_END);
}

/**
 * ms_stat_init() - set up the statistics' columns, files and CPU hotplug
 *
 * Creates debugfs migration_stat/.
 */
void __init ms_stat_init(void)
{
	struct dentry *dir;
	int cpu;

	ms_number_columns();
	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&ms_cpus, cpu)->lock);
	dir = debugfs_create_dir("migration_stat", NULL);
	debugfs_create_file("enable", 0600, dir, NULL, &ms_enable_fops);
	debugfs_create_file("period_msec", 0600, dir, NULL, &ms_period_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &ms_reset_fops);
	debugfs_create_file("stat", 0400, dir, NULL, &ms_stat_fops);

	if (cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "migrate_trace_lite:stat",
				      ms_cpu_prepare, ms_cpu_dead) < 0)
		pr_warn("no CPU hotplug state: counts of an offline CPU wait for the stop\n");
}
