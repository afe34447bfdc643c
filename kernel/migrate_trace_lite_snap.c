// SPDX-License-Identifier: GPL-2.0
/*
 * The trace file: a snapshot of a stopped trace, the per-CPU rings merged
 * by time with a min-heap of CPUs.  The oops dump and the benchmark walk
 * the same snapshot.
 *
 * Before the records come the start clocks, the task list and, when older
 * records are gone (recycled by the flight recorder, or consumed by a
 * consuming reader), a saved_comm line for every task left without a name.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/debugfs.h>
#include <linux/min_heap.h>
#include <linux/pid.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_snap.h"

/* ---- a snapshot: the rings merged by time ------------------------------------ */

static bool mt_snap_less(const void *a, const void *b, void *args)
{
	struct mt_snap_cpu *cpus = args;
	int x = *(const int *)a, y = *(const int *)b;

	if (cpus[x].ts != cpus[y].ts)
		return cpus[x].ts < cpus[y].ts;
	return x < y;
}

static void mt_snap_swap(void *a, void *b, void *args)
{
	swap(*(int *)a, *(int *)b);
}

static const struct min_heap_callbacks mt_snap_cbs = {
	.less = mt_snap_less,
	.swp = mt_snap_swap,
};

/* Set @cpu's head to the next item at or after its state. */
static void mt_snap_head(struct mt_snap_cpu *sc, struct mt_ring *r)
{
	switch (sc->state) {
	case MT_SNAP_LEAD:
		sc->rec = mt_cursor_peek(r, &sc->cur, &sc->ts);
		if (!sc->rec)
			sc->ts = r->start.ts;
		return;
	case MT_SNAP_REC:
		sc->rec = mt_cursor_peek(r, &sc->cur, &sc->ts);
		if (sc->rec)
			return;
		sc->state = MT_SNAP_TAIL;
		fallthrough;
	case MT_SNAP_TAIL:
		/*
		 * Unless a consuming reader handed out that lost line already.
		 * Records are dropped only by a switch made with overwrite off,
		 * whatever the flag says now.
		 */
		if (local_read(&r->dropped) && !r->drop_reported) {
			sc->ts = r->drop_ts;
			return;
		}
		sc->state = MT_SNAP_DONE;
		fallthrough;
	case MT_SNAP_DONE:
		return;
	}
}

/**
 * mt_snap_free() - free a snapshot's memory
 * @s: the snapshot; may be partly allocated
 */
void mt_snap_free(struct mt_snap *s)
{
	kvfree(s->cpus);
	kvfree(s->heap_data);
	s->cpus = NULL;
	s->heap_data = NULL;
}

/**
 * mt_snap_alloc() - allocate a snapshot's memory for every possible CPU
 * @s: the snapshot
 * @tr: the trace whose rings it reads
 *
 * Context: may sleep.
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int mt_snap_alloc(struct mt_snap *s, struct mt_trace *tr)
{
	s->tr = tr;
	s->cpus = kvcalloc(nr_cpu_ids, sizeof(*s->cpus), MT_GFP);
	s->heap_data = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	if (!s->cpus || !s->heap_data) {
		mt_snap_free(s);
		return -ENOMEM;
	}
	return 0;
}

/**
 * mt_snap_start() - place every CPU of a snapshot at its first line
 * @s: the snapshot, allocated
 * @newest: 0 for every CPU's oldest record; else the dump's count
 *
 * With @newest, each CPU starts @newest records before its newest one,
 * and no lost lines lead.
 *
 * Context: writers stopped.
 */
void mt_snap_start(struct mt_snap *s, unsigned long newest)
{
	int cpu;

	min_heap_init(&s->heap, s->heap_data, nr_cpu_ids);
	if (!mt_ring_allocated(&s->tr->buf))
		return;
	for_each_possible_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(s->tr->buf.rings, cpu);
		struct mt_snap_cpu *sc = &s->cpus[cpu];

		/* A CPU never online since the allocation, or without memory. */
		if (!mt_ring_has_data(r)) {
			*sc = (struct mt_snap_cpu){ .state = MT_SNAP_DONE };
			continue;
		}
		if (newest) {
			/*
			 * A dump: the newest records, consumed or not, and
			 * nothing of a consuming reader's place, which a
			 * reader stopped by the oops may have left torn.
			 */
			mt_ring_oldest_chunk(r, &sc->cur);
			mt_ring_seek_newest(r, &sc->cur, newest);
			sc->lead = 0;
		} else {
			mt_ring_oldest(r, &sc->cur);
			sc->lead = sc->cur.entry - r->rd.entry;
		}
		sc->state = sc->lead ? MT_SNAP_LEAD : MT_SNAP_REC;
		mt_snap_head(sc, r);
		if (sc->state != MT_SNAP_DONE)
			min_heap_push(&s->heap, &cpu, &mt_snap_cbs, s->cpus);
	}
}

/**
 * mt_snap_top() - the CPU whose line comes next in a snapshot
 * @s: the snapshot
 *
 * Return: the CPU, or -1 at the end.
 */
int mt_snap_top(struct mt_snap *s)
{
	int *top = min_heap_peek(&s->heap);

	return top ? *top : -1;
}

/**
 * mt_snap_format() - format the line at the head of a snapshot's CPU
 * @s: the snapshot
 * @cpu: the CPU that mt_snap_top() returned
 * @buf: the line, at least MT_LINE_MAX bytes
 *
 * Return: the length of the line, with its newline.
 */
unsigned int mt_snap_format(struct mt_snap *s, int cpu, char *buf)
{
	struct mt_snap_cpu *sc = &s->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(s->tr->buf.rings, cpu);

	switch (sc->state) {
	case MT_SNAP_LEAD:
		return mt_format_lost(buf, cpu, sc->ts, sc->lead);
	case MT_SNAP_TAIL:
		return mt_format_lost(buf, cpu, sc->ts, local_read(&r->dropped));
	default:
		return mt_format_record(buf, cpu, sc->rec, sc->ts);
	}
}

/**
 * mt_snap_next() - move a snapshot past the line of its top CPU
 * @s: the snapshot, not at its end
 */
void mt_snap_next(struct mt_snap *s)
{
	int cpu = mt_snap_top(s);
	struct mt_snap_cpu *sc = &s->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(s->tr->buf.rings, cpu);

	switch (sc->state) {
	case MT_SNAP_LEAD:
		sc->state = MT_SNAP_REC;
		break;
	case MT_SNAP_REC:
		mt_cursor_next(&sc->cur, sc->rec);
		break;
	default:
		sc->state = MT_SNAP_DONE;
		break;
	}
	mt_snap_head(sc, r);
	if (sc->state == MT_SNAP_DONE)
		min_heap_pop(&s->heap, &mt_snap_cbs, s->cpus);
	else
		min_heap_sift_down(&s->heap, 0, &mt_snap_cbs, s->cpus);
}

/**
 * mt_snap_walk() - call @fn for every record of a snapshot, for KUnit
 * @tr: the trace
 * @fn: called with each record's CPU, record, time stamp and @arg
 * @arg: passed to @fn
 *
 * The records come in merged order; lost lines are skipped.
 *
 * Context: writers stopped; may sleep.
 * Return: 0, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_snap_walk(struct mt_trace *tr,
				  void (*fn)(int cpu, const struct mt_rec *rec,
					     u64 ts, void *arg), void *arg)
{
	struct mt_snap s;
	int cpu;

	if (mt_snap_alloc(&s, tr))
		return -ENOMEM;
	mt_snap_start(&s, 0);
	while ((cpu = mt_snap_top(&s)) >= 0) {
		if (s.cpus[cpu].state == MT_SNAP_REC)
			fn(cpu, s.cpus[cpu].rec, s.cpus[cpu].ts, arg);
		mt_snap_next(&s);
	}
	mt_snap_free(&s);
	return 0;
}

/* ---- the trace file ------------------------------------------------------------ */

/*
 * Items after the header: the start clocks in time order, the task list,
 * the saved names, then the merged records.  seq_file position 0 is the
 * header, position n > 0 the item n - 1.
 */
enum mt_phase { MT_PH_CLOCKS, MT_PH_TASKS, MT_PH_SAVED, MT_PH_EVENTS, MT_PH_END };

struct mt_saved_name {
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

struct mt_iter {
	struct mt_snap snap;
	enum mt_phase phase;
	unsigned int idx;		/* within the phase */
	loff_t pos;			/* of the current item */
	int *clock_cpus;		/* CPUs with a start clock, by time */
	unsigned int nr_clocks;
	struct mt_saved_name *saved;
	unsigned int nr_saved;
	u64 saved_ts;
	int saved_cpu;
	char line[MT_LINE_MAX];
};

static int mt_cmp_clock(const void *a, const void *b, const void *priv)
{
	struct mt_ring __percpu *rings = (__force struct mt_ring __percpu *)priv;
	u64 x = per_cpu_ptr(rings, *(const int *)a)->start.ts;
	u64 y = per_cpu_ptr(rings, *(const int *)b)->start.ts;

	return x < y ? -1 : x > y;
}

/* A name for @pid: the cache of names, the live task, or "<...>". */
static void mt_name_of(struct mt_trace *tr, pid_t pid, char *comm)
{
	struct task_struct *t;

	if (mt_comm_lookup(tr, pid, comm))
		return;
	if (!pid) {
		strscpy(comm, "swapper", TASK_COMM_LEN);	/* the idle tasks */
		return;
	}
	rcu_read_lock();
	t = find_task_by_pid_ns(pid, &init_pid_ns);
	if (t)
		__get_task_comm(comm, TASK_COMM_LEN, t);
	else
		strscpy(comm, "<...>", TASK_COMM_LEN);
	rcu_read_unlock();
}

#define MT_PID_SEEN	1UL
#define MT_PID_NAMED	2UL

/*
 * When older records are gone, tasks may have lost the records that name
 * them: collect the pids of the records left that no name record, nor the
 * task list, names, and give each a saved_comm line.
 */
static int mt_iter_saved_names(struct mt_iter *it)
{
	struct mt_trace *tr = it->snap.tr;
	struct xarray pids;
	unsigned long pid, flags;
	bool gone = false;
	void *entry;
	int cpu, ret = 0;
	unsigned int i;

	for_each_possible_cpu(cpu)
		if (it->snap.cpus[cpu].cur.entry)
			gone = true;
	if (!gone || mt_snap_top(&it->snap) < 0)
		return 0;
	it->saved_cpu = mt_snap_top(&it->snap);
	it->saved_ts = it->snap.cpus[it->saved_cpu].ts;

	xa_init(&pids);
	for (i = 0; i < tr->task_list_len && !ret; i++)
		ret = xa_err(xa_store(&pids, tr->task_list[i].pid,
				      xa_mk_value(MT_PID_NAMED), MT_GFP));
	for_each_possible_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(tr->buf.rings, cpu);
		struct mt_cursor c = it->snap.cpus[cpu].cur;
		struct mt_rec *rec;
		u64 ts;

		while (!ret && (rec = mt_cursor_peek(r, &c, &ts))) {
			const struct mt_rec_migrate *mig = (const void *)rec;
			const struct mt_rec_comm *com = (const void *)rec;
			const struct mt_rec_mark *mrk = (const void *)rec;

			if (rec->type < MT_CAUSE_END)
				pid = mig->pid, flags = MT_PID_SEEN;
			else if (rec->type == MT_EV_MARK)
				pid = mrk->pid, flags = MT_PID_SEEN;
			else if (rec->type != MT_EV_CLAMPED)
				pid = com->pid, flags = MT_PID_NAMED;
			else
				flags = 0;
			if (!flags) {
				mt_cursor_next(&c, rec);
				continue;
			}
			entry = xa_load(&pids, pid);
			if (entry)
				flags |= xa_to_value(entry);
			ret = xa_err(xa_store(&pids, pid, xa_mk_value(flags), MT_GFP));
			mt_cursor_next(&c, rec);
		}
	}
	i = 0;
	xa_for_each(&pids, pid, entry)
		i += xa_to_value(entry) == MT_PID_SEEN;
	if (!ret && i) {
		it->saved = kvcalloc(i, sizeof(*it->saved), MT_GFP);
		if (!it->saved)
			ret = -ENOMEM;
	}
	xa_for_each(&pids, pid, entry) {
		if (ret || xa_to_value(entry) != MT_PID_SEEN)
			continue;
		it->saved[it->nr_saved].pid = pid;
		mt_name_of(tr, pid, it->saved[it->nr_saved].comm);
		it->nr_saved++;
	}
	xa_destroy(&pids);
	return ret;
}

static int mt_iter_rewind(struct mt_iter *it)
{
	struct mt_trace *tr = it->snap.tr;
	int cpu;

	it->phase = MT_PH_CLOCKS;
	it->idx = 0;
	it->pos = 1;
	mt_snap_start(&it->snap, 0);
	if (!it->clock_cpus)
		return 0;
	it->nr_clocks = 0;
	for_each_possible_cpu(cpu)
		if (mt_ring_allocated(&tr->buf) &&
		    per_cpu_ptr(tr->buf.rings, cpu)->start.ts)
			it->clock_cpus[it->nr_clocks++] = cpu;
	sort_r(it->clock_cpus, it->nr_clocks, sizeof(int), mt_cmp_clock, NULL,
	       (__force const void *)tr->buf.rings);
	return 0;
}

/* Skip empty phases; false at the end. */
static bool mt_iter_settle(struct mt_iter *it)
{
	for (;;) {
		switch (it->phase) {
		case MT_PH_CLOCKS:
			if (it->idx < it->nr_clocks)
				return true;
			break;
		case MT_PH_TASKS:
			if (it->idx < it->snap.tr->task_list_len)
				return true;
			break;
		case MT_PH_SAVED:
			if (it->idx < it->nr_saved)
				return true;
			break;
		case MT_PH_EVENTS:
			if (mt_snap_top(&it->snap) >= 0)
				return true;
			break;
		case MT_PH_END:
			return false;
		}
		it->phase++;
		it->idx = 0;
	}
}

static void mt_iter_next(struct mt_iter *it)
{
	if (it->phase == MT_PH_EVENTS)
		mt_snap_next(&it->snap);
	else
		it->idx++;
	it->pos++;
}

static unsigned int mt_iter_format(struct mt_iter *it)
{
	struct mt_trace *tr = it->snap.tr;
	int cpu;

	switch (it->phase) {
	case MT_PH_CLOCKS:
		cpu = it->clock_cpus[it->idx];
		return mt_format_clock(it->line, cpu,
				       &per_cpu_ptr(tr->buf.rings, cpu)->start);
	case MT_PH_TASKS:
		return mt_format_name(it->line, MT_EV_TASK_LIST,
				      tr->task_list_cpu, tr->task_list_ts,
				      tr->task_list[it->idx].pid,
				      tr->task_list[it->idx].comm);
	case MT_PH_SAVED:
		return mt_format_name(it->line, MT_EV_SAVED_COMM, it->saved_cpu,
				      it->saved_ts, it->saved[it->idx].pid,
				      it->saved[it->idx].comm);
	default:
		return mt_snap_format(&it->snap, mt_snap_top(&it->snap), it->line);
	}
}

static void *mt_seq_start(struct seq_file *m, loff_t *pos)
{
	struct mt_iter *it = m->private;

	if (*pos == 0) {
		/* Read again from the start (pread, lseek): item 1 is next. */
		if (it->pos != 1)
			mt_iter_rewind(it);
		return SEQ_START_TOKEN;
	}
	if (*pos < it->pos)
		mt_iter_rewind(it);
	while (mt_iter_settle(it) && it->pos < *pos)
		mt_iter_next(it);
	return mt_iter_settle(it) ? it : NULL;
}

static void *mt_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct mt_iter *it = m->private;

	if (v != SEQ_START_TOKEN)
		mt_iter_next(it);
	++*pos;
	return mt_iter_settle(it) ? it : NULL;
}

static void mt_seq_stop(struct seq_file *m, void *v)
{
}

/* The header into the seq_file's buffer; it grows if that is too small. */
static void mt_seq_header(struct seq_file *m)
{
	struct mt_iter *it = m->private;
	struct seq_buf s;
	char *buf;
	size_t size = seq_get_buf(m, &buf);

	seq_buf_init(&s, buf, size);
	mt_show_header(it->snap.tr, &s, false);
	seq_commit(m, seq_buf_has_overflowed(&s) ? -1 : seq_buf_used(&s));
}

static int mt_seq_show(struct seq_file *m, void *v)
{
	struct mt_iter *it = m->private;

	if (v == SEQ_START_TOKEN)
		mt_seq_header(m);
	else
		seq_write(m, it->line, mt_iter_format(it));
	return 0;
}

static const struct seq_operations mt_seq_ops = {
	.start	= mt_seq_start,
	.next	= mt_seq_next,
	.stop	= mt_seq_stop,
	.show	= mt_seq_show,
};

static void mt_iter_free(struct mt_iter *it)
{
	mt_snap_free(&it->snap);
	kvfree(it->clock_cpus);
	kvfree(it->saved);
}

static int mt_trace_open(struct inode *inode, struct file *file)
{
	struct mt_trace *tr = inode->i_private;
	struct mt_iter *it;
	int ret;

	it = __seq_open_private(file, &mt_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	mutex_lock(&mt_mutex);
	ret = mt_trace_file_get_locked(tr);
	if (ret)
		goto fail;
	ret = -EBUSY;
	if (mt_tr_running(tr) || mt_reader_busy(&tr->rd))
		goto fail_put;
	/* The trace may have stopped itself: make sure writers are gone. */
	synchronize_rcu();
	ret = mt_snap_alloc(&it->snap, tr);
	if (ret)
		goto fail_put;
	it->clock_cpus = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	ret = it->clock_cpus ? 0 : -ENOMEM;
	if (!ret)
		ret = mt_iter_rewind(it);
	if (!ret)
		ret = mt_iter_saved_names(it);
	if (ret)
		goto fail_put;
	tr->trace_readers++;
	mutex_unlock(&mt_mutex);
	return 0;
fail_put:
	mt_trace_file_put_locked(tr);
fail:
	mutex_unlock(&mt_mutex);
	mt_iter_free(it);
	seq_release_private(inode, file);
	return ret;
}

static int mt_trace_release(struct inode *inode, struct file *file)
{
	struct mt_iter *it = ((struct seq_file *)file->private_data)->private;
	struct mt_trace *tr = it->snap.tr;

	mutex_lock(&mt_mutex);
	tr->trace_readers--;
	mt_trace_file_put_locked(tr);
	mutex_unlock(&mt_mutex);
	mt_iter_free(it);
	return seq_release_private(inode, file);
}

static const struct file_operations mt_trace_fops = {
	.open		= mt_trace_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= mt_trace_release,
};

/**
 * mt_snap_init() - create a trace's trace file
 * @tr: the trace
 * @dir: its debugfs directory
 */
void mt_snap_init(struct mt_trace *tr, struct dentry *dir)
{
	debugfs_create_file("trace", 0400, dir, tr, &mt_trace_fops);
}
