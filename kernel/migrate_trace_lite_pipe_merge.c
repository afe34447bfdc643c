// SPDX-License-Identifier: GPL-2.0
/*
 * trace_pipe's merge: the per-CPU rings consumed in time order while the
 * writers run.
 *
 * Each CPU's records are in time order (the ring clamps a clock that
 * steps back), so a CPU with records left logs nothing earlier than its
 * next one.  A CPU read to its end may be inside a writer that already
 * took its timestamp; but each writer is busy from before it reads the
 * clock until it commits, so a CPU found not busy after the reader read
 * its own clock logs nothing earlier than that clock.  The reader waits
 * for no CPU and sends no IPI.  Two CPUs' clocks may still disagree a
 * little, which MT_PIPE_SLACK_NS covers; a record later than that is
 * handed out at the time of the line before it, after a clamped line,
 * and counted.
 *
 * Records are copied out of their chunk and kept only if its seq did not
 * change meanwhile, as a seqcount reader does: the flight recorder may
 * recycle the chunk under the reader.  A reader it overtook gets a lost
 * line with the count it missed.  Whether it was overtaken is read from
 * the ring, never from the overwrite flag: the flag may change while the
 * trace runs, and what the writer did at each chunk switch stays in the
 * chunks' seqs.
 */

#include <linux/minmax.h>
#include <linux/sched/clock.h>
#include <linux/seq_buf.h>
#include <linux/sort.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_pipe_merge.h"

/*
 * How much later than the reader's clock another CPU's clock may read
 * for the same instant: a TSC read out of order, the store that marks a
 * writer busy seen late.
 */
#define MT_PIPE_SLACK_NS	(10 * NSEC_PER_USEC)

/* Copies a writer keeps spoiling before the reader gives up for now. */
#define MT_PIPE_RETRIES		16

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

/**
 * mt_pipe_catch_up() - move a reader overtaken by the flight recorder
 * @pc: the reader's state of the CPU
 * @r: the CPU's ring
 * @ws: the writer's chunk sequence number, read by the caller
 *
 * The chunk under the cursor was recycled: continue at the oldest chunk
 * left, and count the records missed for a lost line.
 *
 * Context: under the readers' lock.
 * Return: true if moved; false if the writer moved on meanwhile (retry).
 */
VISIBLE_IF_KUNIT bool mt_pipe_catch_up(struct mt_pipe_cpu *pc,
				       struct mt_ring *r, unsigned long ws)
{
	unsigned long oldest = ws - (r->buf->nr_chunks - 1);
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
	/*
	 * The chunks before are gone: a writer that overwrite off holds to
	 * the reader's place (a flag switched since) waits for this one.
	 */
	smp_store_release(&r->read_seq, oldest);
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
		/*
		 * Overtaken, or the chunk recycled under us: by the ring, not
		 * by the overwrite flag, which may have changed since the
		 * writer recycled (without overwrite, neither can happen).
		 */
		if (ws - rd->seq >= r->buf->nr_chunks) {
			mt_pipe_catch_up(pc, r, ws);
			continue;
		}
		if (READ_ONCE(c->seq) != rd->seq) {
			if (!mt_pipe_catch_up(pc, r, ws))
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

static bool mt_pipe_tail_pending(struct mt_pipe *pipe, struct mt_ring *r)
{
	/* Only a switch made with overwrite off drops (whatever it is now). */
	return !READ_ONCE(pipe->tr->tracing) && !r->drop_reported &&
	       local_read(&r->dropped);
}

/*
 * Find @cpu's next line: its next record, or once the trace stopped on a
 * full buffer and the CPU is read to its end, the line of what it dropped.
 */
static bool mt_pipe_head(struct mt_pipe *pipe, int cpu)
{
	struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(pipe->tr->buf.rings, cpu);

	if (mt_pipe_peek(pc, r))
		return true;
	if (!pipe->synced || !mt_pipe_tail_pending(pipe, r))
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

	if (!READ_ONCE(pipe->tr->tracing) && pipe->synced)
		return U64_MAX;
	now = local_clock();
	/* The clock is read before a CPU's busy flag and ring. */
	smp_mb();
	for_each_possible_cpu(cpu) {
		struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
		/* Pairs with mt_writer_end(): the commit is seen if this is. */
		/* A writer of any trace sets the top trace's flag, the CPU's. */
		bool busy = smp_load_acquire(&per_cpu_ptr(&mt_rings, cpu)->busy);

		if (mt_pipe_gather_cpu(pipe, cpu))
			continue;
		/*
		 * A ring that moved yet gave no head (a recycle under the
		 * cursor, retries used up) may hold records older than the
		 * clock: it holds the stream at its last known time.
		 */
		if (busy || now < MT_PIPE_SLACK_NS ||
		    mt_pipe_ring_moved(per_cpu_ptr(pipe->tr->buf.rings, cpu)))
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
		WRITE_ONCE(pipe->tr->rd.clamps, pipe->tr->rd.clamps + 1);
		return pipe->last_out;
	}
	pipe->last_out = ts;
	return ts;
}

/* Hand out the top CPU's head, then find its next one. */
static void mt_pipe_take(struct mt_pipe *pipe, int cpu)
{
	struct mt_pipe_cpu *pc = &pipe->cpus[cpu];
	struct mt_ring *r = per_cpu_ptr(pipe->tr->buf.rings, cpu);
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

static int mt_cmp_start(const void *a, const void *b, const void *priv)
{
	struct mt_ring __percpu *rings = (__force struct mt_ring __percpu *)priv;
	u64 x = per_cpu_ptr(rings, *(const int *)a)->start.ts;
	u64 y = per_cpu_ptr(rings, *(const int *)b)->start.ts;

	return x < y ? -1 : x > y;
}

/* The header as text. */
static int mt_pipe_header(struct mt_pipe *pipe)
{
	struct seq_buf s;

	seq_buf_init(&s, pipe->buf, pipe->buf_size);
	mt_show_header(pipe->tr, &s, true);
	if (seq_buf_has_overflowed(&s))
		return -E2BIG;
	pipe->out_len = seq_buf_used(&s);
	return 0;
}

/* The clocks and the task list, after the header. */
static void mt_pipe_starts(struct mt_pipe *pipe, size_t room)
{
	struct mt_trace *tr = pipe->tr;
	unsigned int nr = 0, i;
	int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(tr->buf.rings, cpu)->start.ts)
			pipe->clock_cpus[nr++] = cpu;
	sort_r(pipe->clock_cpus, nr, sizeof(int), mt_cmp_start, NULL,
	       (__force const void *)tr->buf.rings);
	while (pipe->out_len + MT_LINE_MAX <= room) {
		char *p = pipe->buf + pipe->out_len;

		i = pipe->prologue - 1;
		if (i < nr) {
			cpu = pipe->clock_cpus[i];
			struct mt_cpu_start *st = &per_cpu_ptr(tr->buf.rings, cpu)->start;

			mt_pipe_emit(pipe, mt_format_clock(p, cpu, st));
		} else if (i - nr < tr->task_list_len) {
			struct mt_task_name *t = &tr->task_list[i - nr];

			mt_pipe_emit(pipe, mt_format_name(p, MT_EV_TASK_LIST,
							  tr->task_list_cpu, tr->task_list_ts,
							  t->pid, t->comm));
		} else {
			pipe->prologue = UINT_MAX;
			return;
		}
		pipe->prologue++;
	}
}

/**
 * mt_pipe_fill() - format into the reader's buffer what may be handed out
 * @pipe: the reader's state; its text all copied out
 * @room: the most bytes wanted, clamped to what the buffer takes
 *
 * The header first, then the start clocks and the task list, then the
 * merged records.
 *
 * Context: under the readers' pipe_read_lock and lock; may sleep.
 * Return: 0, or -E2BIG if the header does not fit.
 */
int mt_pipe_fill(struct mt_pipe *pipe, size_t room)
{
	int ret;

	pipe->out_len = 0;
	pipe->out_pos = 0;
	room = clamp_t(size_t, room, 2 * MT_LINE_MAX, MT_PIPE_BUF);
	if (!mt_trace_started(pipe->tr))
		return 0;
	if (READ_ONCE(pipe->tr->tracing)) {
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

/* Whether the earliest head may be handed out. */
static bool mt_pipe_top_ready(struct mt_pipe *pipe)
{
	int *top = min_heap_peek(&pipe->heap);

	return mt_pipe_key(&pipe->cpus[*top]) <= pipe->limit;
}

/**
 * mt_pipe_state_locked() - whether a read would find something now
 * @pipe: the reader's state
 *
 * Context: under the readers' lock.
 * Return: MT_PIPE_READY if there is something to hand out (or the end),
 * MT_PIPE_SOON if records are held back a moment, else MT_PIPE_IDLE.
 */
enum mt_pipe_state mt_pipe_state_locked(struct mt_pipe *pipe)
{
	int cpu;

	/* The text is the reader's (mt_pipe_read_lock): a glance. */
	if (READ_ONCE(pipe->out_pos) < READ_ONCE(pipe->out_len))
		return MT_PIPE_READY;
	if (!mt_trace_started(pipe->tr))
		return MT_PIPE_IDLE;
	if (!READ_ONCE(pipe->tr->tracing) || pipe->prologue != UINT_MAX)
		return MT_PIPE_READY;
	for_each_possible_cpu(cpu)
		if (!pipe->cpus[cpu].has_head &&
		    mt_pipe_ring_moved(per_cpu_ptr(pipe->tr->buf.rings, cpu)))
			return MT_PIPE_READY;
	if (!min_heap_peek(&pipe->heap))
		return MT_PIPE_IDLE;
	if (mt_pipe_top_ready(pipe))
		return MT_PIPE_READY;
	/* Held back at the last look: the CPUs may have moved on since. */
	pipe->limit = mt_pipe_limit(pipe);
	return mt_pipe_top_ready(pipe) ? MT_PIPE_READY : MT_PIPE_SOON;
}

/**
 * mt_pipe_eof() - whether trace_pipe is at its end of file
 * @pipe: the reader's state
 *
 * Before the first start a reader waits for one instead.
 *
 * Context: under the readers' lock.
 * Return: true if a trace ran since the reset, stopped, and everything
 * was handed out.
 */
bool mt_pipe_eof(struct mt_pipe *pipe)
{
	int cpu;

	if (!mt_trace_started(pipe->tr) || READ_ONCE(pipe->tr->tracing) || !pipe->synced ||
	    pipe->prologue != UINT_MAX)
		return false;
	for_each_possible_cpu(cpu)
		if (pipe->cpus[cpu].has_head ||
		    mt_pipe_tail_pending(pipe, per_cpu_ptr(pipe->tr->buf.rings, cpu)))
			return false;
	return true;
}
