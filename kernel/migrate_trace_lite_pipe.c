// SPDX-License-Identifier: GPL-2.0
/*
 * migration_trace/trace_pipe: the migration trace read while it runs.
 *
 * One reader at a time consumes the per-CPU rings in time order.  The
 * first reader of a trace gets the header, the start clocks and the task
 * list first.  A record is handed out once no CPU should still log an
 * earlier one.  Each CPU's records are in time order (the ring clamps a
 * clock that steps back), so a CPU whose ring has something left to read
 * logs nothing earlier than that; one whose ring is read to its end may
 * be inside a writer that took its timestamp.  Each writer is busy from
 * before it reads the clock until it committed (mt_writer_begin()): the
 * reader reads its own clock, then looks at such a CPU, and if it is not
 * busy, what it logs later is stamped later.  That keeps an idle CPU from
 * holding the stream back without disturbing it: the reader only reads
 * what the CPUs write anyway, it sends no IPI and wakes nobody.  That
 * part is a matter of timing, not of ordering: no barrier orders a
 * clock read (RDTSC, the arm64 counter) after the busy store, so a
 * writer's timestamp may precede the moment its busy mark is seen, by a
 * store buffer's drain; and clocks of two CPUs differ by a little (a TSC
 * read out of order) or by much (an unstable sched_clock).  The reader
 * allows MT_PIPE_SLACK_NS, far more than the first two; a record that
 * still comes late is handed out at the time of the line before it,
 * after a clamped line that says by how much, and counted.
 *
 * Records are copied out of the ring, then kept only if their chunk was
 * not recycled meanwhile (flight recorder); a chunk read to its end is
 * handed back to the writer.  A reader that the flight recorder overtook
 * gets a lost line saying how many records it missed, and so does one
 * whose trace stopped on a full buffer.
 *
 * The reader's state outlives the open file: text formatted but not yet
 * copied out and a pending lost line go to the next reader, which
 * continues where this one left.  A reset frees it.  mt_pipe_read_lock
 * serializes read() and guards the text, and is held across
 * copy_to_user(); mt_pipe_lock guards the rest and the reader's fields
 * of the rings, only while they are looked at, so that migration_trace/
 * stats never waits for a user's page fault.  A blocked reader sleeps
 * without either.
 *
 * A writer wakes a waiting reader through an irq_work when it takes the
 * ring's slow path for a migration: a new chunk, so at the latest once a
 * chunk is full.  A name or a mark arms a timer that wakes the reader
 * MT_PIPE_NUDGE_JIFFIES later, once for all that come meanwhile: a reader
 * on an idle CPU costs that CPU an IPI per wakeup, and a user may mark
 * every few milliseconds.  A migration within a chunk does not look, to
 * keep the hook short: a blocked read() sleeps MT_PIPE_POLL_JIFFIES at
 * most, and a timer of the poller's CPU wakes pollers as often.  A record
 * held back only while its CPU's writer or the slack passes is looked at
 * again after MT_PIPE_RETRY_USEC.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/min_heap.h>
#include <linux/poll.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite.h"

atomic_t mt_pipe_waiting;
/* Lines handed out at the time of the line before them: clocks disagree. */
static unsigned long mt_pipe_clamps;
static DECLARE_WAIT_QUEUE_HEAD(mt_pipe_wq);

/* How long a blocked reader sleeps at most before it looks again. */
#define MT_PIPE_POLL_JIFFIES	max(1, HZ / 10)
/* How soon a name or a mark wakes a blocked reader. */
#define MT_PIPE_NUDGE_JIFFIES	max(1, HZ / 50)

/*
 * How much later than the reader's clock another CPU's clock may read
 * for the same instant: a TSC read out of order, the store that marks a
 * writer busy seen late.
 */
#define MT_PIPE_SLACK_NS	(10 * NSEC_PER_USEC)
/* How soon a reader that holds records back looks again. */
#define MT_PIPE_RETRY_USEC	50

/* Copies a writer keeps spoiling before the reader gives up for now. */
#define MT_PIPE_RETRIES		16

#define MT_PIPE_BUF		(64 * 1024)

static void mt_pipe_irq_workfn(struct irq_work *work)
{
	wake_up_interruptible_all(&mt_pipe_wq);
}

static DEFINE_IRQ_WORK(mt_pipe_irq_work, mt_pipe_irq_workfn);

/* Set from a name's or a mark's nudge until its timer has run. */
static unsigned long mt_pipe_nudging;

static void mt_pipe_nudge_timer_fn(struct timer_list *unused)
{
	clear_bit(0, &mt_pipe_nudging);
	if (atomic_xchg(&mt_pipe_waiting, 0))
		wake_up_interruptible_all(&mt_pipe_wq);
}

static DEFINE_TIMER(mt_pipe_nudge_timer, mt_pipe_nudge_timer_fn);

/* A name or a mark: wake the reader once for all that come meanwhile. */
static void mt_pipe_nudge_workfn(struct irq_work *work)
{
	mod_timer(&mt_pipe_nudge_timer, jiffies + MT_PIPE_NUDGE_JIFFIES);
}

static DEFINE_IRQ_WORK(mt_pipe_nudge_work, mt_pipe_nudge_workfn);

/*
 * A writer wakes a waiting reader; any context.  A reader on another CPU
 * costs that CPU an IPI to wake: a name or a mark (a user may write one
 * every few milliseconds) leaves it to a timer that wakes the reader
 * once for all of them, a new chunk wakes it at once.
 */
void mt_pipe_kick_waiting(bool now)
{
	if (!now) {
		if (!test_and_set_bit(0, &mt_pipe_nudging))
			irq_work_queue(&mt_pipe_nudge_work);
	} else if (atomic_xchg(&mt_pipe_waiting, 0)) {
		irq_work_queue(&mt_pipe_irq_work);
	}
}

/* Lines of trace_pipe handed out at the time of the line before them. */
u64 mt_pipe_clamped(void)
{
	return READ_ONCE(mt_pipe_clamps);
}

/* The trace started, stopped or filled up: a blocked reader looks again. */
void mt_pipe_wake(void)
{
	wake_up_interruptible_all(&mt_pipe_wq);
}

/* A poller that found nothing looks again after MT_PIPE_POLL_JIFFIES. */
static void mt_pipe_timer_fn(struct timer_list *unused)
{
	wake_up_interruptible_all(&mt_pipe_wq);
}

static DEFINE_TIMER(mt_pipe_timer, mt_pipe_timer_fn);

struct mt_pipe_cpu {
	union {
		struct mt_rec hdr;
		u64 words[4];
	} head;			/* a copy of the next record, if @has_head */
	bool has_head;
	bool tail;		/* the head is the lost line of a full buffer */
	unsigned int commit;	/* bytes of the cursor's chunk known whole */
	u64 ts;			/* of the head */
	u64 lost;		/* records missed before the head */
	u64 lost_ts;
	u64 last_ts;		/* of the last record handed out */
};

DEFINE_MIN_HEAP(int, mt_pipe_heap);

struct mt_pipe {
	/*
	 * The beginning of the stream (header, clocks, task list) is handed
	 * out once per trace, whoever reads it: items handed out so far.
	 */
	unsigned int prologue;
	bool synced;			/* writers gone since the trace stopped */
	u64 limit;			/* heads up to this may be handed out */
	u64 last_out;			/* time of the last line handed out */
	/* Under mt_pipe_read_lock: */
	char *out;			/* text not yet copied to the user */
	size_t out_len, out_pos;
	char *buf;			/* @buf_size bytes for @out */
	size_t buf_size;
	/* Under mt_pipe_lock: */
	int *clock_cpus;
	struct mt_pipe_heap heap;	/* CPUs with a head, earliest first */
	int *heap_data;
	struct mt_pipe_cpu *cpus;
};

/* Serializes read(); guards the text not yet copied out. */
static DEFINE_MUTEX(mt_pipe_read_lock);
/* Guards *mt_pipe (but its text) and the rings' reader fields. */
static DEFINE_MUTEX(mt_pipe_lock);

/* The reader's state: allocated by an open, kept until a reset. */
static struct mt_pipe *mt_pipe;
/* trace_pipe is open (under mt_mutex). */
static bool mt_pipe_open;

/* The time of a CPU's next line: a pending lost line comes first. */
static u64 mt_pipe_key(const struct mt_pipe_cpu *pc)
{
	return pc->lost ? pc->lost_ts : pc->ts;
}

static bool mt_pipe_less(const void *a, const void *b, void *args)
{
	struct mt_pipe_cpu *cpus = args;
	int x = *(const int *)a, y = *(const int *)b;
	u64 kx = mt_pipe_key(&cpus[x]), ky = mt_pipe_key(&cpus[y]);

	if (kx != ky)
		return kx < ky;
	return x < y;
}

static void mt_pipe_swap(void *a, void *b, void *args)
{
	swap(*(int *)a, *(int *)b);
}

static const struct min_heap_callbacks mt_pipe_cbs = {
	.less = mt_pipe_less,
	.swp = mt_pipe_swap,
};

/*
 * The flight recorder recycled the chunk under the cursor: continue at
 * the oldest chunk left and count what was missed.  False if the writer
 * moved on meanwhile (try again).
 */
VISIBLE_IF_KUNIT bool mt_pipe_catch_up(struct mt_pipe_cpu *pc,
				       struct mt_ring *r, unsigned long ws)
{
	unsigned long oldest = ws - (mt_nr_chunks - 1);
	struct mt_chunk *c = mt_chunk_of(r, oldest);
	u64 base, first;

	KUNIT_STATIC_STUB_REDIRECT(mt_pipe_catch_up, pc, r, ws);

	if (READ_ONCE(c->seq) != oldest)
		return false;
	/* Read the header after its seq, and check the seq again after. */
	smp_rmb();
	base = READ_ONCE(c->base_ts);
	first = READ_ONCE(c->first_entry);
	/* Pairs with the writer's smp_wmb() between seq and header. */
	smp_rmb();
	if (READ_ONCE(c->seq) != oldest)
		return false;
	if (!pc->lost)
		pc->lost_ts = base;
	pc->lost += first - r->rd.entry;
	r->overtaken += first - r->rd.entry;
	r->rd = (struct mt_cursor){ .seq = oldest, .base = base, .entry = first };
	pc->commit = 0;
	return true;
}

/*
 * Learn how much of the cursor's chunk is whole, moving to the next chunk
 * when this one is read to its end.  False when nothing new is there.
 */
static bool mt_pipe_reload(struct mt_pipe_cpu *pc, struct mt_ring *r)
{
	struct mt_cursor *rd = &r->rd;
	unsigned int tries = 0;

	for (;; tries++) {
		/* Pairs with the writer's release: the last commit is seen. */
		unsigned long ws = smp_load_acquire(&r->write_seq);
		struct mt_chunk *c = mt_chunk_of(r, rd->seq);
		unsigned int commit;
		u64 base;

		/* A writer stuck half way through a recycle: not now. */
		if (tries > MT_PIPE_RETRIES)
			return false;
		if (READ_ONCE(mt_overwrite) && ws - rd->seq >= mt_nr_chunks) {
			mt_pipe_catch_up(pc, r, ws);
			continue;
		}
		if (READ_ONCE(c->seq) != rd->seq) {
			/* Recycled under us; without overwrite, impossible. */
			if (!READ_ONCE(mt_overwrite) || !mt_pipe_catch_up(pc, r, ws))
				return false;
			continue;
		}
		/* Pairs with the commit's release: the records are whole. */
		commit = smp_load_acquire(&c->commit);
		base = READ_ONCE(c->base_ts);
		/* The seq is checked again after the reads it guards. */
		smp_rmb();
		if (READ_ONCE(c->seq) != rd->seq)
			continue;
		if (!rd->off)
			rd->base = base;
		if (commit > rd->off) {
			pc->commit = commit;
			return true;
		}
		if (ws == rd->seq)
			return false;
		/* Read to its end: the writer may have the chunk back. */
		rd->seq++;
		rd->off = 0;
		pc->commit = 0;
		/* Our reads of the chunk end before the writer reuses it. */
		smp_store_release(&r->read_seq, rd->seq);
	}
}

/*
 * Copy @len bytes (a multiple of 8) of a record a recycling writer may be
 * overwriting: word by word, and the copy is checked against the chunk's
 * seq afterwards, as a seqcount reader does.  The race is by design, so
 * it is hidden from KCSAN.
 */
static void mt_pipe_copy(void *dst, const void *src, unsigned int len)
{
	const u64 *from = src;
	u64 *to = dst;
	unsigned int i;

	for (i = 0; i < len / 8; i++)
		/* Racy by design: the chunk's seq tells a torn copy. */
		to[i] = data_race(READ_ONCE(from[i]));
}

/* Copy the record at the cursor into @pc->head; false if there is none. */
static bool mt_pipe_peek(struct mt_pipe_cpu *pc, struct mt_ring *r)
{
	struct mt_cursor *rd = &r->rd;
	unsigned int spoiled = 0;

	/* No buffer (the CPU was offline): nothing, and empty once it comes. */
	if (!mt_ring_has_data(r))
		return false;
	for (;;) {
		struct mt_chunk *c = mt_chunk_of(r, rd->seq);
		unsigned int room = pc->commit - rd->off;
		struct mt_rec *rec = &pc->head.hdr;

		if (rd->off >= pc->commit) {
			if (!mt_pipe_reload(pc, r))
				return false;
			continue;
		}
		mt_pipe_copy(&pc->head, mt_chunk_rec(c, rd->off),
			     min_t(unsigned int, room, sizeof(pc->head)));
		/* The copy is checked against the seq read after it. */
		smp_rmb();
		if (READ_ONCE(c->seq) != rd->seq) {
			pc->commit = 0;		/* recycled: reload catches up */
			if (++spoiled > MT_PIPE_RETRIES)
				return false;
			continue;
		}
		if (!mt_rec_valid(rec, room)) {
			rd->off = pc->commit;	/* cannot happen */
			continue;
		}
		if (rec->type == MT_EV_TIME) {
			rd->base = pc->head.words[1];
			rd->off += rec->len;
			continue;
		}
		pc->ts = rd->base + rec->delta;
		pc->has_head = true;
		return true;
	}
}

static bool mt_pipe_tail_pending(struct mt_ring *r)
{
	return !READ_ONCE(mt_tracing) && !READ_ONCE(mt_overwrite) &&
	       !r->drop_reported && local_read(&r->dropped);
}

/*
 * Find @cpu's next line: its next record, or once the trace stopped on a
 * full buffer and the CPU is read to its end, the line of what it dropped.
 */
static bool mt_pipe_head(struct mt_pipe *pipe, int cpu)
{
	struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(&mt_rings, cpu);

	if (mt_pipe_peek(pc, r))
		return true;
	if (!pipe->synced || !mt_pipe_tail_pending(r))
		return false;
	pc->tail = true;
	pc->lost = local_read(&r->dropped);
	pc->lost_ts = r->drop_ts;
	pc->has_head = true;
	return true;
}

static void mt_pipe_emit(struct mt_pipe *pipe, unsigned int len)
{
	pipe->out_len += len;
}

/* Put @cpu into the heap if it has a next line now. */
static bool mt_pipe_gather_cpu(struct mt_pipe *pipe, int cpu)
{
	if (pipe->cpus[cpu].has_head)
		return true;
	if (!mt_pipe_head(pipe, cpu))
		return false;
	min_heap_push(&pipe->heap, &cpu, &mt_pipe_cbs, pipe->cpus);
	return true;
}

/* Put every CPU that has a next line and is not in the heap into it. */
static void mt_pipe_gather(struct mt_pipe *pipe)
{
	int cpu;

	for_each_possible_cpu(cpu)
		mt_pipe_gather_cpu(pipe, cpu);
}

/* Whether @r has records the reader has not looked at. */
static bool mt_pipe_ring_moved(struct mt_ring *r)
{
	struct mt_chunk *c;

	if (!mt_ring_has_data(r))
		return false;
	c = mt_chunk_of(r, r->rd.seq);
	return READ_ONCE(r->write_seq) != r->rd.seq ||
	       READ_ONCE(c->commit) > r->rd.off;
}

/*
 * The time up to which lines may be handed out: no CPU without a head can
 * still log a record older than this.  Such a CPU logs nothing older than
 * its last record, and if it is not busy, nothing older than the reader's
 * clock read before looking at it (less the slack); CPUs that have a
 * record committed meanwhile join the heap.  Offline CPUs, and CPUs that
 * come online later, log later records.  No CPU is disturbed: this reads
 * what the writers publish.
 */
static u64 mt_pipe_limit(struct mt_pipe *pipe)
{
	u64 limit = U64_MAX, now;
	int cpu;

	if (!READ_ONCE(mt_tracing) && pipe->synced)
		return U64_MAX;
	now = local_clock();
	/* The clock is read before a CPU's busy flag and ring. */
	smp_mb();
	for_each_possible_cpu(cpu) {
		struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
		/* Pairs with mt_writer_end(): the commit is seen if this is. */
		bool busy = smp_load_acquire(&per_cpu_ptr(&mt_rings, cpu)->busy);

		if (mt_pipe_gather_cpu(pipe, cpu))
			continue;
		/*
		 * A ring that moved yet gave no head (a recycle under the
		 * cursor, retries used up) may hold records older than the
		 * clock: it holds the stream at its last known time.
		 */
		if (busy || now < MT_PIPE_SLACK_NS ||
		    mt_pipe_ring_moved(per_cpu_ptr(&mt_rings, cpu)))
			limit = min(limit, pc->last_ts);
		else
			limit = min(limit, max(pc->last_ts, now - MT_PIPE_SLACK_NS));
	}
	return limit;
}

/*
 * A line's time: never before the line handed out before it.  Each CPU's
 * records are in order, so this changes a time only if two CPUs' clocks
 * disagree by more than the slack: such a line comes after a clamped
 * line of its CPU that says by how much, and is counted.
 */
static u64 mt_pipe_out_ts(struct mt_pipe *pipe, int cpu, u64 ts)
{
	if (unlikely(ts < pipe->last_out)) {
		mt_pipe_emit(pipe, mt_format_clamped(pipe->buf + pipe->out_len, cpu,
						     pipe->last_out,
						     pipe->last_out - ts));
		WRITE_ONCE(mt_pipe_clamps, mt_pipe_clamps + 1);
		return pipe->last_out;
	}
	pipe->last_out = ts;
	return ts;
}

/* Hand out the top CPU's head, then find its next one. */
static void mt_pipe_take(struct mt_pipe *pipe, int cpu)
{
	struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(&mt_rings, cpu);
	u64 ts;

	if (pc->lost) {
		ts = mt_pipe_out_ts(pipe, cpu, pc->lost_ts);
		mt_pipe_emit(pipe, mt_format_lost(pipe->buf + pipe->out_len, cpu,
						  ts, pc->lost));
		pc->lost = 0;
		if (!pc->tail) {
			min_heap_sift_down(&pipe->heap, 0, &mt_pipe_cbs, pipe->cpus);
			return;
		}
		r->drop_reported = true;
		pc->tail = false;
	} else {
		ts = mt_pipe_out_ts(pipe, cpu, pc->ts);
		mt_pipe_emit(pipe, mt_format_record(pipe->buf + pipe->out_len, cpu,
						    &pc->head.hdr, ts));
		r->rd.base = pc->ts;
		r->rd.off += pc->head.hdr.len;
		r->rd.entry++;
		pc->last_ts = pc->ts;
	}
	pc->has_head = false;
	if (mt_pipe_head(pipe, cpu))
		min_heap_sift_down(&pipe->heap, 0, &mt_pipe_cbs, pipe->cpus);
	else
		min_heap_pop(&pipe->heap, &mt_pipe_cbs, pipe->cpus);
}

/*
 * Records, merged by time, into the buffer: at most @room bytes.  A
 * record may take two lines (a clamped one before it).
 */
static void mt_pipe_records(struct mt_pipe *pipe, size_t room)
{
	u64 limit;
	int *top;

	mt_pipe_gather(pipe);
	limit = mt_pipe_limit(pipe);
	while ((top = min_heap_peek(&pipe->heap)) &&
	       pipe->out_len + 2 * MT_LINE_MAX <= room) {
		struct mt_pipe_cpu *pc = &pipe->cpus[*top];

		if (mt_pipe_key(pc) > limit) {
			/* Look at the CPUs again: it may have passed. */
			limit = mt_pipe_limit(pipe);
			top = min_heap_peek(&pipe->heap);
			if (mt_pipe_key(&pipe->cpus[*top]) > limit)
				break;
			continue;
		}
		mt_pipe_take(pipe, *top);
		/* Until it is looked at again, it may log from here on. */
		if (!pc->has_head)
			limit = min(limit, pc->last_ts);
	}
	pipe->limit = limit;
}

static int mt_cmp_start(const void *a, const void *b)
{
	u64 x = per_cpu_ptr(&mt_rings, *(const int *)a)->start.ts;
	u64 y = per_cpu_ptr(&mt_rings, *(const int *)b)->start.ts;

	return x < y ? -1 : x > y;
}

/* The header as text. */
static int mt_pipe_header(struct mt_pipe *pipe)
{
	struct seq_buf s;

	seq_buf_init(&s, pipe->buf, pipe->buf_size);
	mt_show_header(&s, true);
	if (seq_buf_has_overflowed(&s))
		return -E2BIG;
	pipe->out_len = seq_buf_used(&s);
	return 0;
}

/* The clocks and the task list, after the header. */
static void mt_pipe_starts(struct mt_pipe *pipe, size_t room)
{
	unsigned int nr = 0, i;
	int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(&mt_rings, cpu)->start.ts)
			pipe->clock_cpus[nr++] = cpu;
	sort(pipe->clock_cpus, nr, sizeof(int), mt_cmp_start, NULL);
	while (pipe->out_len + MT_LINE_MAX <= room) {
		char *p = pipe->buf + pipe->out_len;

		i = pipe->prologue - 1;
		if (i < nr) {
			cpu = pipe->clock_cpus[i];
			mt_pipe_emit(pipe, mt_format_clock(p, cpu,
							   &per_cpu_ptr(&mt_rings, cpu)->start));
		} else if (i - nr < mt_task_list_len) {
			struct mt_task_name *t = &mt_task_list[i - nr];

			mt_pipe_emit(pipe, mt_format_name(p, MT_EV_TASK_LIST,
							  mt_task_list_cpu, mt_task_list_ts,
							  t->pid, t->comm));
		} else {
			pipe->prologue = UINT_MAX;
			return;
		}
		pipe->prologue++;
	}
}

/* Fill the buffer with what may be handed out now, up to @room bytes. */
static int mt_pipe_fill(struct mt_pipe *pipe, size_t room)
{
	int ret;

	pipe->out_len = 0;
	pipe->out_pos = 0;
	room = clamp_t(size_t, room, 2 * MT_LINE_MAX, MT_PIPE_BUF);
	if (!mt_trace_started())
		return 0;
	if (READ_ONCE(mt_tracing)) {
		pipe->synced = false;
	} else if (!pipe->synced) {
		/* The trace stopped itself: make sure its writers are gone. */
		synchronize_rcu();
		pipe->synced = true;
	}
	if (!pipe->prologue) {
		ret = mt_pipe_header(pipe);
		if (!ret)
			pipe->prologue = 1;
		return ret;
	}
	if (pipe->prologue != UINT_MAX)
		mt_pipe_starts(pipe, room);
	if (pipe->out_len)
		return 0;
	mt_pipe_records(pipe, room);
	return 0;
}

/* What a read would find now. */
enum mt_pipe_state {
	MT_PIPE_IDLE,		/* nothing: wait for a writer or the poll */
	MT_PIPE_SOON,		/* records held back a moment: look again soon */
	MT_PIPE_READY,		/* something to hand out, or the end */
};

/* Whether the earliest head may be handed out. */
static bool mt_pipe_top_ready(struct mt_pipe *pipe)
{
	int *top = min_heap_peek(&pipe->heap);

	return mt_pipe_key(&pipe->cpus[*top]) <= pipe->limit;
}

static enum mt_pipe_state mt_pipe_state_locked(struct mt_pipe *pipe)
{
	int cpu;

	/* The text is the reader's (mt_pipe_read_lock): a glance. */
	if (READ_ONCE(pipe->out_pos) < READ_ONCE(pipe->out_len))
		return MT_PIPE_READY;
	if (!mt_trace_started())
		return MT_PIPE_IDLE;
	if (!READ_ONCE(mt_tracing) || pipe->prologue != UINT_MAX)
		return MT_PIPE_READY;
	for_each_possible_cpu(cpu)
		if (!pipe->cpus[cpu].has_head &&
		    mt_pipe_ring_moved(per_cpu_ptr(&mt_rings, cpu)))
			return MT_PIPE_READY;
	if (!min_heap_peek(&pipe->heap))
		return MT_PIPE_IDLE;
	if (mt_pipe_top_ready(pipe))
		return MT_PIPE_READY;
	/* Held back at the last look: the CPUs may have moved on since. */
	pipe->limit = mt_pipe_limit(pipe);
	return mt_pipe_top_ready(pipe) ? MT_PIPE_READY : MT_PIPE_SOON;
}

/*
 * As mt_pipe_state_locked(); a reader busy on another thread: soon, as
 * the kick that woke this one is spent.
 */
static enum mt_pipe_state mt_pipe_state(struct mt_pipe *pipe)
{
	enum mt_pipe_state state;

	if (!mutex_trylock(&mt_pipe_lock))
		return MT_PIPE_SOON;
	state = mt_pipe_state_locked(pipe);
	mutex_unlock(&mt_pipe_lock);
	return state;
}

/*
 * End of file: a trace ran since the reset, stopped, and everything was
 * handed out.  Before the first start a reader waits for one.
 */
static bool mt_pipe_eof(struct mt_pipe *pipe)
{
	int cpu;

	if (!mt_trace_started() || READ_ONCE(mt_tracing) || !pipe->synced ||
	    pipe->prologue != UINT_MAX)
		return false;
	for_each_possible_cpu(cpu)
		if (pipe->cpus[cpu].has_head ||
		    mt_pipe_tail_pending(per_cpu_ptr(&mt_rings, cpu)))
			return false;
	return true;
}

/* The next look at the rings happens after this; see mt_pipe_kick(). */
static void mt_pipe_set_waiting(void)
{
	atomic_set(&mt_pipe_waiting, 1);
	/* Pairs with mt_pipe_kick(): the flag is seen, or the commit is. */
	smp_mb();
}

/*
 * Sleep until a writer kicks, the trace stops, or the poll's timeout;
 * records held back for a moment, a short sleep.  With no lock held.
 */
static int mt_pipe_wait(struct mt_pipe *pipe, enum mt_pipe_state state)
{
	long ret;

	if (state == MT_PIPE_SOON) {
		usleep_range(MT_PIPE_RETRY_USEC, 2 * MT_PIPE_RETRY_USEC);
		return signal_pending(current) ? -ERESTARTSYS : 0;
	}
	mt_pipe_set_waiting();
	ret = wait_event_interruptible_timeout(mt_pipe_wq,
					       mt_pipe_state(pipe) != MT_PIPE_IDLE,
					       MT_PIPE_POLL_JIFFIES);
	return ret < 0 ? ret : 0;
}

/*
 * Format what may be handed out now, at most @room bytes; with
 * mt_pipe_read_lock held and the text all copied out.  *@state: what a
 * wait should expect when nothing was.  Return: 0 or a negative errno.
 */
static int mt_pipe_refill(struct mt_pipe *pipe, size_t room, bool *eof,
			  enum mt_pipe_state *state)
{
	int ret;

	mutex_lock(&mt_pipe_lock);
	ret = mt_pipe_fill(pipe, room);
	*eof = !ret && !pipe->out_len && mt_pipe_eof(pipe);
	*state = mt_pipe_state_locked(pipe);
	mutex_unlock(&mt_pipe_lock);
	return ret;
}

static ssize_t mt_pipe_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct mt_pipe *pipe = mt_pipe;
	enum mt_pipe_state state;
	ssize_t done = 0;
	bool eof;
	int ret = 0;

	if (!count)
		return 0;
	if (mutex_lock_interruptible(&mt_pipe_read_lock))
		return -ERESTARTSYS;
	while (done < count) {
		size_t n = min(count - done, pipe->out_len - pipe->out_pos);

		if (n) {
			/* Without mt_pipe_lock: a fault stalls no control file. */
			if (copy_to_user(ubuf + done, pipe->out + pipe->out_pos, n)) {
				ret = -EFAULT;
				break;
			}
			WRITE_ONCE(pipe->out_pos, pipe->out_pos + n);
			done += n;
			continue;
		}
		/*
		 * A large read of a long backlog formats buffer after buffer:
		 * let others run, and let a signal end it with what it has.
		 */
		if (done && signal_pending(current))
			break;
		cond_resched();
		ret = mt_pipe_refill(pipe, count - done, &eof, &state);
		if (ret)
			break;
		if (pipe->out_len)
			continue;
		if (done || eof)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		/* Nothing handed out yet (done is 0): sleep without the lock. */
		mutex_unlock(&mt_pipe_read_lock);
		ret = mt_pipe_wait(pipe, state);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&mt_pipe_read_lock))
			return -ERESTARTSYS;
	}
	mutex_unlock(&mt_pipe_read_lock);
	return done ? done : ret;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For KUnit: what a non-blocking read() would hand out, into @buf. */
size_t mt_pipe_read_kernel(char *buf, size_t size)
{
	struct mt_pipe *pipe = mt_pipe;
	enum mt_pipe_state state;
	size_t done = 0;
	bool eof;

	mutex_lock(&mt_pipe_read_lock);
	while (done < size) {
		size_t n = min(size - done, pipe->out_len - pipe->out_pos);

		if (n) {
			memcpy(buf + done, pipe->out + pipe->out_pos, n);
			pipe->out_pos += n;
			done += n;
			continue;
		}
		if (mt_pipe_refill(pipe, size - done, &eof, &state) ||
		    !pipe->out_len)
			break;
	}
	mutex_unlock(&mt_pipe_read_lock);
	return done;
}
#endif

static __poll_t mt_pipe_poll(struct file *file, poll_table *wait)
{
	struct mt_pipe *pipe = mt_pipe;
	__poll_t mask = 0;

	enum mt_pipe_state state = MT_PIPE_IDLE;

	poll_wait(file, &mt_pipe_wq, wait);
	mt_pipe_set_waiting();
	if (mutex_trylock(&mt_pipe_lock)) {
		state = mt_pipe_state_locked(pipe);
		if (state == MT_PIPE_READY || mt_pipe_eof(pipe))
			mask = EPOLLIN | EPOLLRDNORM;
		mutex_unlock(&mt_pipe_lock);
	}
	/* A migration within a chunk, a held back head: look again. */
	if (!mask)
		mod_timer(&mt_pipe_timer, jiffies + (state == MT_PIPE_SOON ? 1 :
						     MT_PIPE_POLL_JIFFIES));
	return mask;
}

static void mt_pipe_free(struct mt_pipe *pipe)
{
	if (!pipe)
		return;
	kvfree(pipe->buf);
	kvfree(pipe->clock_cpus);
	kvfree(pipe->heap_data);
	kvfree(pipe->cpus);
	kfree(pipe);
}

static struct mt_pipe *mt_pipe_alloc(void)
{
	struct mt_pipe *pipe;

	pipe = kzalloc(sizeof(*pipe), MT_GFP);
	if (!pipe)
		return NULL;
	/* Room for the records of a read, or the header. */
	pipe->buf_size = max_t(size_t, MT_PIPE_BUF, mt_header_max());
	pipe->buf = kvmalloc(pipe->buf_size, MT_GFP);
	pipe->clock_cpus = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	pipe->heap_data = kvcalloc(nr_cpu_ids, sizeof(int), MT_GFP);
	pipe->cpus = kvcalloc(nr_cpu_ids, sizeof(*pipe->cpus), MT_GFP);
	if (!pipe->buf || !pipe->clock_cpus || !pipe->heap_data ||
	    !pipe->cpus) {
		mt_pipe_free(pipe);
		return NULL;
	}
	pipe->out = pipe->buf;
	min_heap_init(&pipe->heap, pipe->heap_data, nr_cpu_ids);
	return pipe;
}

/* A reset: the next reader starts a new stream.  Under mt_mutex, closed. */
void mt_pipe_reset(void)
{
	mutex_lock(&mt_pipe_lock);
	mt_pipe_free(mt_pipe);
	mt_pipe = NULL;
	WRITE_ONCE(mt_pipe_clamps, 0);
	mutex_unlock(&mt_pipe_lock);
}

/* Whether trace_pipe is open: the trace file and a reset wait.  mt_mutex. */
bool mt_pipe_busy(void)
{
	lockdep_assert_held(&mt_mutex);
	return mt_pipe_open;
}

/*
 * Hold the consuming reader's place in the rings still, for
 * mt_ring_overwritten() (migration_trace/stats); it only waits for a
 * read() in progress.
 */
void mt_pipe_lock_reader(void)
{
	mutex_lock(&mt_pipe_lock);
}

void mt_pipe_unlock_reader(void)
{
	mutex_unlock(&mt_pipe_lock);
}

/*
 * Become the one reader of trace_pipe: its state is allocated by the
 * first, kept for the next.  Return: 0, -EBUSY, -ENOMEM.
 */
VISIBLE_IF_KUNIT int mt_pipe_get(void)
{
	int ret = 0;

	mutex_lock(&mt_mutex);
	if (mt_pipe_open || mt_trace_readers) {
		ret = -EBUSY;
	} else if (!mt_pipe) {
		/* Published to read() by the open itself. */
		mt_pipe = mt_pipe_alloc();
		if (!mt_pipe)
			ret = -ENOMEM;
	}
	if (!ret)
		mt_pipe_open = true;
	mutex_unlock(&mt_mutex);
	return ret;
}

VISIBLE_IF_KUNIT void mt_pipe_put(void)
{
	/* No reader waits now: writers stop nudging. */
	atomic_set(&mt_pipe_waiting, 0);
	timer_delete_sync(&mt_pipe_timer);
	mutex_lock(&mt_mutex);
	mt_pipe_open = false;
	mutex_unlock(&mt_mutex);
}

static int mt_pipe_open_file(struct inode *inode, struct file *file)
{
	int ret = mt_pipe_get();

	return ret ? ret : nonseekable_open(inode, file);
}

static int mt_pipe_release(struct inode *inode, struct file *file)
{
	mt_pipe_put();
	return 0;
}

static const struct file_operations mt_pipe_fops = {
	.open		= mt_pipe_open_file,
	.read		= mt_pipe_read,
	.poll		= mt_pipe_poll,
	.release	= mt_pipe_release,
};

void mt_pipe_init(struct dentry *dir)
{
	debugfs_create_file("trace_pipe", 0400, dir, NULL, &mt_pipe_fops);
}
