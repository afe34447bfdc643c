// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's dump on panic or oops: the newest records of
 * every CPU, merged by time, printed to the console in the trace format.
 *
 * mt_dump_on_oops=N (boot) or migration_trace/dump_on_oops sets N, the
 * records per CPU.  Each line goes out after MT_OOPS_PREFIX, so that the
 * trace can be cut out of a console log and fed to the analysis tools.
 * The dump is best effort: it runs in a dying kernel, where other CPUs
 * may still be inside a writer; it clears the trace flags and gives them a
 * moment, and a reset waits for a dump in progress before it frees the
 * buffers.  One dump per trace: a reset or a new start arms it again.
 *
 * Panic notifiers run before kmsg_dump(), so a pstore/ramoops record of
 * a panic fills with the dump before the oops text: keep N small there.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_oops.h"

#define MT_OOPS_PREFIX		"mt_dump: "
#define MT_OOPS_DEFAULT		64
#define MT_OOPS_MAX		10000UL

VISIBLE_IF_KUNIT unsigned long mt_oops_records;
/*
 * A panic cannot allocate: the dump's memory is set aside when a dump is
 * first asked for (boot parameter, or dump_on_oops), and kept.
 */
static struct mt_snap mt_oops_snap;
static char *mt_oops_header;		/* the header's text, made at the dump */
static size_t mt_oops_header_size;
static int *mt_oops_cpus;		/* CPUs by start clock */
static bool mt_oops_ready;		/* the above are allocated */
static DECLARE_BITMAP(mt_oops_named, MT_COMM_SLOTS);

static int __init mt_oops_setup(char *str)
{
	unsigned long n = MT_OOPS_DEFAULT;

	if (*str && *str != '=')
		return 0;	/* another parameter with this prefix */
	if (*str == '=' && kstrtoul(str + 1, 0, &n))
		return 0;
	mt_oops_records = min(n, MT_OOPS_MAX);
	return 1;
}
__setup("mt_dump_on_oops", mt_oops_setup);

/**
 * mt_oops_line() - print one line of the dump to the console
 * @line: the line, ending in a newline
 * @len: its length
 *
 * A KUnit stub may catch it.  Touches the NMI watchdog, since a legacy
 * console prints synchronously with interrupts off.
 */
VISIBLE_IF_KUNIT void mt_oops_line(const char *line, unsigned int len)
{
	KUNIT_STATIC_STUB_REDIRECT(mt_oops_line, line, len);
	/* Legacy consoles print synchronously, with interrupts off. */
	touch_nmi_watchdog();
	pr_emerg(MT_OOPS_PREFIX "%.*s", len, line);
}

/* The header, line by line. */
static void mt_oops_print_header(void)
{
	struct seq_buf s;
	char *p, *end, *nl;

	seq_buf_init(&s, mt_oops_header, mt_oops_header_size);
	mt_show_header(&mt_top, &s, false);
	seq_buf_printf(&s, "# dump_newest %lu\n", READ_ONCE(mt_oops_records));
	p = mt_oops_header;
	end = p + seq_buf_used(&s);
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		mt_oops_line(p, nl + 1 - p);
	}
}

static int mt_oops_cmp_start(const void *a, const void *b)
{
	u64 x = per_cpu_ptr(&mt_rings, *(const int *)a)->start.ts;
	u64 y = per_cpu_ptr(&mt_rings, *(const int *)b)->start.ts;

	return x < y ? -1 : x > y;
}

/* The start clocks, in time order as in the trace file. */
static void mt_oops_print_clocks(char *line)
{
	unsigned int nr = 0, i;
	int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(&mt_rings, cpu)->start.ts)
			mt_oops_cpus[nr++] = cpu;
	sort(mt_oops_cpus, nr, sizeof(int), mt_oops_cmp_start, NULL);
	for (i = 0; i < nr; i++) {
		cpu = mt_oops_cpus[i];
		mt_oops_line(line, mt_format_clock(line, cpu,
						   &per_cpu_ptr(&mt_rings, cpu)->start));
	}
}

/* Print a saved_comm line before the first record of each remembered pid. */
static void mt_oops_name(int cpu, u64 ts, const struct mt_rec *rec, char *line)
{
	char comm[TASK_COMM_LEN];
	pid_t pid;

	if (rec->type >= MT_CAUSE_END && rec->type != MT_EV_MARK)
		return;		/* a name record names its pid itself */
	pid = rec->type == MT_EV_MARK ? ((const struct mt_rec_mark *)rec)->pid :
					((const struct mt_rec_migrate *)rec)->pid;
	/*
	 * Look up before marking the slot: pids that share a slot are not
	 * all in the cache, and the one that is must still get its line.
	 */
	if (!mt_comm_lookup(&mt_top, pid, comm) ||
	    test_and_set_bit(pid % MT_COMM_SLOTS, mt_oops_named))
		return;
	mt_oops_line(line, mt_format_name(line, MT_EV_SAVED_COMM, cpu, ts,
					  pid, comm));
}

static const char mt_oops_end[] = "# end of dump\n";

/**
 * mt_oops_dump() - dump the newest records of every CPU to the console
 *
 * Runs once per trace, if a dump was asked for and its memory is set
 * aside.  Stops the writers first; the trace stays stopped.
 *
 * Context: a panic or oops notifier; never sleeps.
 */
VISIBLE_IF_KUNIT void mt_oops_dump(void)
{
	static char line[MT_LINE_MAX];
	unsigned long n = READ_ONCE(mt_oops_records);
	int cpu;

	/* Pairs with the release in mt_oops_alloc(). */
	if (!n || !smp_load_acquire(&mt_oops_ready))
		return;
	if (!mt_dump_claim())
		return;
	if (!mt_ring_allocated(&mt_top.buf))
		goto out;
	/*
	 * After an oops the other CPUs still run: stop the writers and give
	 * a record in flight the time to be committed.  The trace stays
	 * stopped afterwards.
	 */
	mt_stop_writers();
	mdelay(1);
	mt_oops_print_header();
	mt_oops_print_clocks(line);
	bitmap_zero(mt_oops_named, MT_COMM_SLOTS);
	mt_snap_start(&mt_oops_snap, n);
	while ((cpu = mt_snap_top(&mt_oops_snap)) >= 0) {
		struct mt_snap_cpu *sc = &mt_oops_snap.cpus[cpu];

		if (sc->state == MT_SNAP_REC)
			mt_oops_name(cpu, sc->ts, sc->rec, line);
		mt_oops_line(line, mt_snap_format(&mt_oops_snap, cpu, line));
		mt_snap_next(&mt_oops_snap);
	}
	mt_oops_line(mt_oops_end, sizeof(mt_oops_end) - 1);
out:
	mt_dump_finish();
}

static int mt_oops_panic_notify(struct notifier_block *nb, unsigned long event,
				void *unused)
{
	mt_oops_dump();
	return NOTIFY_DONE;
}

static struct notifier_block mt_oops_panic_nb = {
	.notifier_call = mt_oops_panic_notify,
};

static int mt_oops_die_notify(struct notifier_block *nb, unsigned long event,
			      void *unused)
{
	if (event == DIE_OOPS)
		mt_oops_dump();
	return NOTIFY_DONE;
}

static struct notifier_block mt_oops_die_nb = {
	.notifier_call = mt_oops_die_notify,
};

static ssize_t mt_oops_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return mt_read_ulong(ubuf, count, ppos, READ_ONCE(mt_oops_records));
}

/* The dump's memory, once; under mt_mutex or at boot. */
static int mt_oops_alloc(void)
{
	if (mt_oops_ready)
		return 0;
	mt_oops_header_size = mt_header_max();
	mt_oops_header = kvmalloc(mt_oops_header_size, MT_GFP);
	mt_oops_cpus = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	if (!mt_oops_header || !mt_oops_cpus || mt_snap_alloc(&mt_oops_snap, &mt_top)) {
		kvfree(mt_oops_header);
		kvfree(mt_oops_cpus);
		mt_oops_header = NULL;
		mt_oops_cpus = NULL;
		return -ENOMEM;
	}
	/* The dump sees the memory before it sees the flag. */
	smp_store_release(&mt_oops_ready, true);
	return 0;
}

/**
 * mt_oops_set_records() - set how many records of each CPU a dump prints
 * @n: the newest records per CPU; 0 turns the dump off
 *
 * Sets the dump's memory aside the first time @n is not 0.
 *
 * Context: process context; takes mt_mutex.
 * Return: 0, -EINVAL if @n is too large, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_oops_set_records(unsigned long n)
{
	int ret = 0;

	if (n > MT_OOPS_MAX)
		return -EINVAL;
	mutex_lock(&mt_mutex);
	if (n)
		ret = mt_oops_alloc();
	if (!ret)
		WRITE_ONCE(mt_oops_records, n);
	mutex_unlock(&mt_mutex);
	return ret;
}

static ssize_t mt_oops_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = mt_parse_ulong(ubuf, count, false, &val);
	if (!ret)
		ret = mt_oops_set_records(val);
	return ret ? ret : count;
}

static const struct file_operations mt_oops_fops = {
	.read	= mt_oops_read,
	.write	= mt_oops_write,
	.llseek	= default_llseek,
};

/**
 * mt_oops_init() - create dump_on_oops and register the dump's notifiers
 * @dir: debugfs migration_trace/
 *
 * Sets the dump's memory aside if the boot parameter asked for a dump.
 */
void __init mt_oops_init(struct dentry *dir)
{
	debugfs_create_file("dump_on_oops", 0600, dir, NULL, &mt_oops_fops);
	if (mt_oops_records && mt_oops_alloc()) {
		pr_warn("no memory for the dump on oops\n");
		mt_oops_records = 0;
	}
	atomic_notifier_chain_register(&panic_notifier_list, &mt_oops_panic_nb);
	register_die_notifier(&mt_oops_die_nb);
}
