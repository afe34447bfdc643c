// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace's per-CPU buffers: each a ring of equal chunks.
 *
 * The writer is the owning CPU with interrupts disabled (hooks, marks,
 * names), never nested and never waiting.  It appends whole records to
 * its current chunk and publishes each with a release store of the
 * chunk's commit.  When the chunk is full it moves to the next one: with
 * overwrite off only if the consuming reader has released that chunk,
 * else the record is dropped and the trace stops, as the 1.x facility
 * did; with overwrite on (the flight recorder) it recycles the oldest
 * chunk whatever its state.  The flag may change while the trace runs:
 * the writer reads it once per chunk switch, and what each switch did
 * stays in the ring (the chunks' seqs against the reader's place), which
 * is what the readers and the counts of overwritten records go by.
 *
 * Snapshot readers (the trace file, the panic dump) read while the writers
 * are stopped.  A consuming reader reads while they run: it
 * copies committed bytes out of a chunk and keeps them only if the chunk's
 * seq did not change meanwhile, like a seqcount, and hands whole chunks
 * back to the writer with a release store of read_seq.
 *
 * A record's time is a 32-bit delta from the record before it (from the
 * chunk's time base for its first); a time record moves the base when a
 * gap does not fit.  So a migration takes 16 bytes, and a chunk of 4 KiB
 * holds 254 of them after its header.  A delta cannot be negative: a
 * record whose clock stepped back is logged at the time of the record
 * before it, after a clamped record saying by how much, and counted; so
 * every reader gets each CPU's records in time order whatever the clock
 * did, and sees where it did not.
 *
 * Chunk seqs are unsigned long.  On 32-bit they would wrap after 2^32
 * chunks of one CPU, about 10^12 records, which the ring's arithmetic
 * does not handle: a 32-bit flight recorder must be reset before that
 * (the documentation's limits say so).
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "migrate_trace_lite_ring.h"

DEFINE_PER_CPU(struct mt_ring, mt_rings);
/* Every buffer, for CPU hotplug: changed under cpus_read_lock() and mt_mutex. */
static LIST_HEAD(mt_buffers);

static_assert(sizeof(struct mt_rec) == 8);
static_assert(sizeof(struct mt_rec_migrate) == 16);
/* A migration's CPUs fit in its u16 fields. */
static_assert(CONFIG_NR_CPUS <= 1 << 16);
static_assert(sizeof(struct mt_rec_comm) % 8 == 0);
static_assert(sizeof(struct mt_rec_mark) % 8 == 0);
static_assert(sizeof(struct mt_rec_time) == 16);
static_assert(sizeof(struct mt_rec_clamped) == 16);

/**
 * mt_rec_size() - the size of a record of a type
 * @type: enum mt_cause or enum mt_event
 *
 * Return: the size in bytes, or 0 if no record of @type is in a ring.
 */
unsigned int mt_rec_size(unsigned int type)
{
	if (type > MT_CAUSE_NONE && type < MT_CAUSE_END)
		return sizeof(struct mt_rec_migrate);
	switch (type) {
	case MT_EV_COPY_PROCESS:
	case MT_EV_SET_TASK_COMM:
		return sizeof(struct mt_rec_comm);
	case MT_EV_MARK:
		return sizeof(struct mt_rec_mark);
	case MT_EV_TIME:
		return sizeof(struct mt_rec_time);
	case MT_EV_CLAMPED:
		return sizeof(struct mt_rec_clamped);
	}
	return 0;
}

/**
 * mt_rec_valid() - whether a record is whole and of a known kind
 * @rec: the record
 * @room: the bytes committed from @rec on
 *
 * Return: true if @rec fits in @room and its size and reason are right.
 */
bool mt_rec_valid(const struct mt_rec *rec, unsigned int room)
{
	return room >= sizeof(*rec) && rec->len <= room &&
	       rec->len && rec->len == mt_rec_size(rec->type) &&
	       rec->reason < MT_REASON_END;
}

/**
 * mt_buffer_add() - set up a buffer's rings, with no memory yet
 * @b: the buffer
 * @rings: its rings, zeroed
 *
 * From then on a CPU that comes online while @b is allocated gets its
 * ring's memory (mt_ring_cpu_prepare()).
 *
 * Context: under mt_mutex; takes cpus_read_lock().
 * Return: 0.
 */
int mt_buffer_add(struct mt_buffer *b, struct mt_ring __percpu *rings)
{
	int cpu;

	b->rings = rings;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(rings, cpu)->buf = b;
	cpus_read_lock();
	list_add_tail(&b->node, &mt_buffers);
	cpus_read_unlock();
	return 0;
}

/**
 * mt_buffer_del() - CPU hotplug no longer sees a freed buffer
 * @b: the buffer, its rings freed (mt_ring_free())
 *
 * Context: under mt_mutex; takes cpus_read_lock().
 */
void mt_buffer_del(struct mt_buffer *b)
{
	cpus_read_lock();
	list_del(&b->node);
	cpus_read_unlock();
}

/**
 * mt_ring_allocated() - whether the rings are allocated and set up
 * @b: the buffer
 *
 * Context: any; a dump on oops calls it without a lock.
 * Return: true if so.
 */
bool mt_ring_allocated(const struct mt_buffer *b)
{
	/* Pairs with the release of mt_ring_alloc(). */
	return smp_load_acquire(&b->nr_chunks);
}

/* With cpus_read_lock() held: mt_ring_cpu_prepare() does not run. */
static void mt_ring_free_cpus(struct mt_buffer *b)
{
	int cpu;

	WRITE_ONCE(b->nr_chunks, 0);
	for_each_possible_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(b->rings, cpu);

		char *data = r->data;

		WRITE_ONCE(r->data, NULL);
		kvfree(data);
		r->wchunk = NULL;
		/* A CPU left without a buffer must not take the fast path. */
		r->wtail = 0;
		r->wlimit = 0;
		local_set(&r->nobuf, 0);
	}
}

/**
 * mt_ring_free() - free every CPU's buffer
 * @b: the buffer
 *
 * Context: no trace runs and nobody reads; may sleep.
 */
void mt_ring_free(struct mt_buffer *b)
{
	cpus_read_lock();
	mt_ring_free_cpus(b);
	cpus_read_unlock();
}

/* Empty @r's ring, its buffer @data, of which no writer or reader runs. */
static void mt_ring_reset_one(struct mt_ring *r, char *data)
{
	/* Chunk 0: the geometry may not be published yet. */
	struct mt_chunk *c = (struct mt_chunk *)data;

	memset(c, 0, MT_CHUNK_HDR);
	r->wchunk = c;
	r->wtail = 0;
	r->wlimit = 0;
	r->wlast = 0;
	r->write_seq = 0;
	local64_set(&r->entries, 0);
	local_set(&r->dropped, 0);
	local_set(&r->clamped, 0);
	r->drop_ts = 0;
	r->read_seq = 0;
	memset(&r->rd, 0, sizeof(r->rd));
	r->overtaken = 0;
	r->drop_reported = false;
	/*
	 * No start clock until a start takes one: buffers that a write of
	 * buffer_size_kb allocated show no clock line of the trace before.
	 */
	r->start.ts = 0;
}

/* Empty every CPU's ring. */
static void mt_ring_reset_cpus(struct mt_buffer *b)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(b->rings, cpu);

		local_set(&r->nobuf, 0);
		if (r->data)
			mt_ring_reset_one(r, r->data);
	}
}

/*
 * Whether @bytes more of buffers leave enough memory: at most 7/8 of
 * what the kernel estimates to be available without swapping, so that
 * a trace cannot take the memory the workload it traces needs.
 */
static bool mt_ring_fits_memory(unsigned long long bytes)
{
	unsigned long long avail = (unsigned long long)si_mem_available() << PAGE_SHIFT;

	return bytes <= avail - avail / 8;
}

/* The bytes of one CPU's buffer: whole chunks of the geometry. */
static unsigned long mt_ring_cpu_bytes(const struct mt_buffer *b)
{
	return (unsigned long)b->nr_chunks * b->chunk_size;
}

/**
 * mt_ring_total_bytes() - the memory the buffers take
 * @b: the buffer
 *
 * Return: the bytes of the buffers allocated, for migration_trace/stats.
 */
unsigned long long mt_ring_total_bytes(const struct mt_buffer *b)
{
	unsigned long long sum = 0;
	int cpu;

	if (!mt_ring_allocated(b))
		return 0;
	for_each_possible_cpu(cpu)
		if (mt_ring_has_data(per_cpu_ptr(b->rings, cpu)))
			sum += mt_ring_cpu_bytes(b);
	return sum;
}

/**
 * mt_ring_nr_buffers() - the CPUs that have a buffer
 * @b: the buffer
 *
 * Return: their number, for migration_trace/stats.
 */
unsigned int mt_ring_nr_buffers(const struct mt_buffer *b)
{
	unsigned int n = 0;
	int cpu;

	if (!mt_ring_allocated(b))
		return 0;
	for_each_possible_cpu(cpu)
		n += mt_ring_has_data(per_cpu_ptr(b->rings, cpu));
	return n;
}

/**
 * mt_ring_alloc() - allocate a buffer for each online CPU
 * @b: the buffer
 * @size_kb: each buffer's size in KiB
 *
 * Each buffer is on its CPU's node, in chunks of at most 4 KiB and at
 * least two of them; a CPU that comes online later gets its buffer from
 * mt_ring_cpu_prepare().  The new buffers are allocated while the old
 * ones (if any) are still held, and replace them only once all are
 * there: so that a failure leaves the rings as they were.
 *
 * Context: no trace runs and nobody reads; takes cpus_read_lock(), which
 * the caller must not hold.
 * Return: 0, -EINVAL if @size_kb is too small for two chunks, or -ENOMEM
 * if the memory is not there or the new buffers would take more than
 * mt_ring_fits_memory() allows (the latter with a message).  On failure
 * the buffers of before, and their geometry, stay.
 */
int mt_ring_alloc(struct mt_buffer *b, unsigned long size_kb)
{
	unsigned long size = size_kb * 1024;
	unsigned long long total;
	unsigned int chunk;
	char **data;
	int cpu, ret = 0;

	chunk = min_t(unsigned long, MT_MAX_CHUNK_SIZE,
		      rounddown_pow_of_two(max(size / 2, 1UL)));
	if (chunk < MT_CHUNK_HDR + sizeof(struct mt_rec_comm) +
		    sizeof(struct mt_rec_time))
		return -EINVAL;
	data = kcalloc(nr_cpu_ids, sizeof(*data), MT_GFP);
	if (!data)
		return -ENOMEM;
	cpus_read_lock();
	total = (unsigned long long)(size / chunk * chunk) * num_online_cpus();
	if (!mt_ring_fits_memory(total)) {
		pr_warn_ratelimited("buffers of %lu KiB for %u online CPUs (%llu MiB) exceed 7/8 of the available memory (%lu MiB): refused\n",
				    size_kb, num_online_cpus(), total >> 20,
				    si_mem_available() >> (20 - PAGE_SHIFT));
		ret = -ENOMEM;
		goto out;
	}
	for_each_online_cpu(cpu) {
		data[cpu] = kvzalloc_node(size / chunk * chunk, MT_GFP,
					  cpu_to_node(cpu));
		if (!data[cpu]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* All there: the old buffers go, the new ones take their place. */
	mt_ring_free_cpus(b);
	for_each_online_cpu(cpu) {
		per_cpu_ptr(b->rings, cpu)->data = data[cpu];
		data[cpu] = NULL;
	}
	b->chunk_size = chunk;
	mt_ring_reset_cpus(b);
	/*
	 * Last, and with a release: a dump on oops, which looks at the rings
	 * without a lock once they are allocated, sees them set up.
	 */
	smp_store_release(&b->nr_chunks, size / chunk);
out:
	cpus_read_unlock();
	/* What a failure left allocated; NULL for every CPU on success. */
	for_each_possible_cpu(cpu)
		kvfree(data[cpu]);
	kfree(data);
	return ret;
}

/*
 * CPU hotplug, at CPUHP_BP_PREPARE_DYN: on a control CPU, before @cpu
 * runs anything, so no hook ever runs on a CPU whose buffer is missing
 * unless it could not be allocated.  A CPU that comes online while the
 * buffers are allocated gets one of the same size, empty; one that was
 * online before keeps its own, records and all (a CPU going offline
 * keeps its buffer until the reset, for its records to be read).  The
 * hotplug lock, held for writing, keeps the geometry from changing:
 * mt_ring_alloc() and mt_ring_free() run under cpus_read_lock().  A
 * failure does not stop the CPU: its records are counted as nobuf.
 */
static void mt_ring_cpu_prepare_one(struct mt_buffer *b, unsigned int cpu)
{
	struct mt_ring *r = per_cpu_ptr(b->rings, cpu);
	char *data;

	/* Its nobuf count stays: it may have been online without a buffer. */
	if (!mt_ring_allocated(b) || r->data)
		return;
	data = NULL;
	if (mt_ring_fits_memory(mt_ring_cpu_bytes(b)))
		data = kvzalloc_node(mt_ring_cpu_bytes(b), MT_GFP, cpu_to_node(cpu));
	if (data) {
		mt_ring_reset_one(r, data);
		/* Readers that see the buffer see it empty (mt_ring_has_data()). */
		smp_store_release(&r->data, data);
		return;
	}
	pr_warn_ratelimited("no buffer of %lu KiB for CPU %u in the available memory: its records are dropped\n",
			    mt_ring_cpu_bytes(b) >> 10, cpu);
}

static int mt_ring_cpu_prepare(unsigned int cpu)
{
	struct mt_buffer *b;

	list_for_each_entry(b, &mt_buffers, node)
		mt_ring_cpu_prepare_one(b, cpu);
	return 0;
}

/**
 * mt_ring_init() - give each CPU that comes online a buffer
 *
 * Registers the CPU hotplug state that allocates it, while a trace's
 * buffers are allocated.
 */
void __init mt_ring_init(void)
{
	if (cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "migrate_trace_lite:ring",
				      mt_ring_cpu_prepare, NULL) < 0)
		pr_warn("no CPU hotplug state: a CPU that comes online while a trace is allocated records nothing\n");
}

/**
 * mt_ring_reset() - empty every ring
 * @b: the buffer
 *
 * Context: no writer or reader runs.
 */
void mt_ring_reset(struct mt_buffer *b)
{
	cpus_read_lock();
	if (mt_ring_allocated(b))
		mt_ring_reset_cpus(b);
	cpus_read_unlock();
}

/*
 * Move the writer to its next chunk; false if that chunk is not free.
 * The overwrite flag is read once, here: it may change at any time.
 */
static bool mt_ring_next_chunk(struct mt_ring *r, u64 ts)
{
	unsigned long next = r->write_seq + 1, read;
	struct mt_chunk *c;

	if (!READ_ONCE(r->buf->overwrite)) {
		/* Pairs with the reader's release: it is done with the chunk. */
		read = smp_load_acquire(&r->read_seq);
		if (next - read >= r->buf->nr_chunks)
			return false;
	}
	c = mt_chunk_of(r, next);
	WRITE_ONCE(c->seq, next);
	/* A reader still copying the old contents sees the new seq. */
	smp_wmb();
	WRITE_ONCE(c->commit, 0);
	WRITE_ONCE(c->base_ts, ts);
	WRITE_ONCE(c->first_entry, local64_read(&r->entries));
	r->wchunk = c;
	r->wtail = 0;
	r->wlast = ts;
	/* Readers see the old chunk's last commit before the new seq. */
	smp_store_release(&r->write_seq, next);
	return true;
}

/* Start a new time base at @ts: in this chunk if a time record fits. */
static bool mt_ring_rebase(struct mt_ring *r, unsigned int len, u64 ts)
{
	struct mt_rec_time *t;

	if (r->wtail + sizeof(*t) + len > mt_chunk_payload(r))
		return mt_ring_next_chunk(r, ts);
	t = (struct mt_rec_time *)mt_chunk_rec(r->wchunk, r->wtail);
	t->hdr.delta = 0;
	t->hdr.info = mt_rec_info(MT_EV_TIME, sizeof(*t));
	t->ts = ts;
	r->wlast = ts;
	mt_ring_publish(r, r->wchunk, r->wtail + sizeof(*t));
	return true;
}

/*
 * Before a record of @len bytes whose clock stepped back by @ns: a
 * clamped record, in this chunk with room for both, else in the next.
 */
static bool mt_ring_clamp(struct mt_ring *r, unsigned int len, u64 ns)
{
	struct mt_rec_clamped *c;

	if (r->wtail + sizeof(*c) + len > mt_chunk_payload(r) &&
	    !mt_ring_next_chunk(r, r->wlast))
		return false;
	if (!r->wtail)
		WRITE_ONCE(r->wchunk->base_ts, r->wlast);
	c = (struct mt_rec_clamped *)mt_ring_fill(r, sizeof(*c), MT_EV_CLAMPED, 0,
						 r->wlast);
	c->ns = ns;
	mt_ring_advance(r, sizeof(*c));
	local_inc(&r->clamped);
	return true;
}

/**
 * mt_ring_write_slow() - the slow path of mt_ring_write()
 * @r: this CPU's ring
 * @len: the record's size
 * @type: enum mt_cause or enum mt_event
 * @reason: the move's reason, or 0
 * @ts: the record's time
 *
 * For a chunk's first record, a record more than 32 bits of nanoseconds
 * after the one before, one whose clock stepped back (logged at the time
 * of the one before, after a clamped record), or one that needs the next
 * chunk.
 *
 * Context: the ring's writer, irqs off.
 * Return: the record, its header filled, or NULL if the ring is full.
 */
__cold void *mt_ring_write_slow(struct mt_ring *r, unsigned int len,
				unsigned int type, unsigned int reason, u64 ts)
{
	/* A CPU whose buffer could not be allocated: see mt_ring_drop(). */
	if (unlikely(!r->wchunk))
		return NULL;
	/*
	 * This CPU's clock went back (it was found unstable, a suspend):
	 * the record keeps the time of the one before, so that the CPU's
	 * records stay in order for every reader, after a record of how
	 * much earlier it was.
	 */
	if (unlikely(ts < r->wlast)) {
		if (!mt_ring_clamp(r, len, r->wlast - ts))
			return NULL;
		ts = r->wlast;
	}
	if (!r->wtail) {
		/* An empty chunk starts its time base at its first record. */
		WRITE_ONCE(r->wchunk->base_ts, ts);
		r->wlast = ts;
	}
	if (ts - r->wlast > U32_MAX && !mt_ring_rebase(r, len, ts))
		return NULL;
	if (r->wtail + len > mt_chunk_payload(r) && !mt_ring_next_chunk(r, ts))
		return NULL;
	/* The chunk has a time base and room: the fast path may append. */
	r->wlimit = mt_chunk_payload(r);
	return mt_ring_fill(r, len, type, reason, ts);
}

/**
 * mt_ring_drop() - count a record this CPU's ring refused
 * @r: this CPU's ring
 * @ts: its time; the first refusal's is kept
 *
 * Context: interrupts disabled, the writer busy.
 * Return: false if this CPU has no buffer at all (it came online while
 * the trace was allocated, and its buffer could not be): the record is
 * counted apart, and the trace goes on for the other CPUs.
 */
bool mt_ring_drop(struct mt_ring *r, u64 ts)
{
	if (unlikely(!r->wchunk)) {
		local_inc(&r->nobuf);
		return false;
	}
	/* Its lost line comes after the records, as they are in order. */
	if (!local_read(&r->dropped))
		r->drop_ts = max(ts, r->wlast);
	local_inc(&r->dropped);
	return true;
}

/**
 * mt_ring_entries() - the records a CPU logged since the reset
 * @b: the buffer
 * @cpu: the CPU
 *
 * Context: the rings allocated.
 * Return: the count.
 */
u64 mt_ring_entries(struct mt_buffer *b, int cpu)
{
	return local64_read(&per_cpu_ptr(b->rings, cpu)->entries);
}

/**
 * mt_ring_dropped() - the records a CPU's full ring refused
 * @b: the buffer
 * @cpu: the CPU
 *
 * Context: the rings allocated.
 * Return: the count since the reset.
 */
unsigned long mt_ring_dropped(struct mt_buffer *b, int cpu)
{
	return local_read(&per_cpu_ptr(b->rings, cpu)->dropped);
}

/**
 * mt_ring_clamped() - a CPU's records logged at the time of the one before
 * @b: the buffer
 * @cpu: the CPU
 *
 * Its clock stepped back for each of them.
 *
 * Context: the rings allocated.
 * Return: the count since the reset.
 */
unsigned long mt_ring_clamped(struct mt_buffer *b, int cpu)
{
	return local_read(&per_cpu_ptr(b->rings, cpu)->clamped);
}

/**
 * mt_ring_nobuf() - a CPU's records refused because it has no buffer
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: the count since the reset (see mt_ring_drop()).
 */
unsigned long mt_ring_nobuf(struct mt_buffer *b, int cpu)
{
	return local_read(&per_cpu_ptr(b->rings, cpu)->nobuf);
}

/**
 * mt_ring_oldest_chunk() - a place at the first record of the oldest chunk
 * @r: the ring, its writers stopped
 * @cur: set to the place
 *
 * Whether a consuming reader took that record or not.
 */
void mt_ring_oldest_chunk(struct mt_ring *r, struct mt_cursor *cur)
{
	unsigned long oldest = 0;
	struct mt_chunk *c;

	if (r->write_seq >= r->buf->nr_chunks - 1)
		oldest = r->write_seq - (r->buf->nr_chunks - 1);
	c = mt_chunk_of(r, oldest);
	/* A writer stopped by a panic while it recycled it: from the next. */
	if (READ_ONCE(c->seq) != oldest && oldest != r->write_seq)
		c = mt_chunk_of(r, ++oldest);
	*cur = (struct mt_cursor){ .seq = oldest, .base = c->base_ts,
				   .entry = c->first_entry };
}

/**
 * mt_ring_oldest() - a place at the oldest record not yet consumed
 * @r: the ring, its writers stopped
 * @cur: set to the place
 *
 * The consuming reader's place, unless the flight recorder recycled the
 * chunks under it.
 */
void mt_ring_oldest(struct mt_ring *r, struct mt_cursor *cur)
{
	struct mt_cursor oldest;

	mt_ring_oldest_chunk(r, &oldest);
	*cur = r->rd;
	if ((long)(cur->seq - oldest.seq) < 0)
		*cur = oldest;
}

/*
 * The number of the first record of @r's oldest chunk that a recycling
 * writer has not taken yet, into *@first; false if the consuming reader's
 * place is still in the ring.  Lockless while the writer runs: the chunk
 * header is read between two looks at its seq, as a consuming reader does.
 */
static bool mt_ring_first_kept(struct mt_ring *r, u64 *first)
{
	unsigned int tries;

	for (tries = 0; tries < 16; tries++) {
		/* Pairs with the writer's release of a new chunk. */
		unsigned long ws = smp_load_acquire(&r->write_seq);
		unsigned long oldest = ws - (r->buf->nr_chunks - 1);
		struct mt_chunk *c = mt_chunk_of(r, oldest);

		if (ws < r->buf->nr_chunks - 1 || (long)(r->rd.seq - oldest) >= 0)
			return false;
		if (READ_ONCE(c->seq) != oldest)
			continue;
		/* Pairs with the writer's smp_wmb() between seq and header. */
		smp_rmb();
		*first = READ_ONCE(c->first_entry);
		/* And the seq again after the header. */
		smp_rmb();
		if (READ_ONCE(c->seq) == oldest)
			return true;
	}
	return false;	/* a writer stuck in a recycle: count what is known */
}

/**
 * mt_ring_overwritten() - a CPU's records lost to the flight recorder
 * @b: the buffer
 * @cpu: the CPU
 *
 * Those an overtaken consuming reader missed, and those recycled before
 * anybody read them.
 *
 * Context: under mt_reader_lock, or with no consuming reader; writers may
 * run.
 * Return: the count since the reset; 0 if the rings are not allocated.
 */
u64 mt_ring_overwritten(struct mt_buffer *b, int cpu)
{
	struct mt_ring *r = per_cpu_ptr(b->rings, cpu);
	u64 first;

	if (!mt_ring_allocated(b) || !mt_ring_has_data(r))
		return 0;
	/*
	 * By the ring, not the flag: chunks recycled while overwrite was
	 * on stay counted after it is switched off.
	 */
	if (mt_ring_first_kept(r, &first) && first > r->rd.entry)
		return r->overtaken + (first - r->rd.entry);
	return r->overtaken;
}

/**
 * mt_ring_empty() - whether no CPU logged anything since the reset
 * @b: the buffer
 *
 * Return: true if so, or if the rings are not allocated.
 */
bool mt_ring_empty(struct mt_buffer *b)
{
	int cpu;

	if (!mt_ring_allocated(b))
		return true;
	for_each_possible_cpu(cpu)
		if (mt_ring_entries(b, cpu))
			return false;
	return true;
}

/**
 * mt_ring_used() - the bytes of the rings that hold records not consumed
 * @b: the buffer
 *
 * Context: writers stopped.
 * Return: the bytes, chunk headers included; 0 if not allocated.
 */
unsigned long mt_ring_used(struct mt_buffer *b)
{
	unsigned long sum = 0;
	int cpu;

	if (!mt_ring_allocated(b))
		return 0;
	for_each_possible_cpu(cpu) {
		struct mt_ring *r = per_cpu_ptr(b->rings, cpu);
		struct mt_cursor oldest;

		if (!mt_ring_has_data(r))
			continue;
		mt_ring_oldest(r, &oldest);
		sum += (r->write_seq - oldest.seq) * b->chunk_size;
		if (r->wtail)
			sum += MT_CHUNK_HDR + r->wtail;
	}
	return sum;
}

/**
 * mt_cursor_peek() - the next record at or after a snapshot reader's place
 * @r: the ring, its writers stopped
 * @cur: the place; moved past time records and finished chunks
 * @ts: set to the record's time
 *
 * Return: the record, or NULL at the end of the ring (or for a CPU that
 * has no buffer).
 */
struct mt_rec *mt_cursor_peek(struct mt_ring *r, struct mt_cursor *cur, u64 *ts)
{
	if (!mt_ring_has_data(r))
		return NULL;
	for (;;) {
		struct mt_chunk *c = mt_chunk_of(r, cur->seq);
		unsigned int commit = READ_ONCE(c->commit);
		struct mt_rec *rec;

		/* A chunk a writer stopped by a panic left half recycled. */
		if (READ_ONCE(c->seq) != cur->seq)
			commit = 0;
		/* The first record of a chunk counts from the chunk's base. */
		if (!cur->off)
			cur->base = c->base_ts;
		if (cur->off >= commit) {
			if (cur->seq == r->write_seq)
				return NULL;
			cur->seq++;
			cur->off = 0;
			continue;
		}
		rec = mt_chunk_rec(c, cur->off);
		if (!mt_rec_valid(rec, commit - cur->off)) {
			/* Cannot happen; never read beyond what was written. */
			cur->off = commit;
			continue;
		}
		if (rec->type == MT_EV_TIME) {
			cur->base = ((struct mt_rec_time *)rec)->ts;
			cur->off += rec->len;
			continue;
		}
		*ts = cur->base + rec->delta;
		return rec;
	}
}

/**
 * mt_cursor_next() - step past the record mt_cursor_peek() returned
 * @cur: the place
 * @rec: the record at it
 */
void mt_cursor_next(struct mt_cursor *cur, const struct mt_rec *rec)
{
	cur->base += rec->delta;
	cur->off += rec->len;
	cur->entry++;
}

/*
 * The chunk of @r that holds record number @entry, searched backwards from
 * the newest through the chunk headers only, no further than @oldest:
 * the work is proportional to the chunks between, not to the ring.
 */
static unsigned long mt_ring_chunk_of_entry(struct mt_ring *r, u64 entry,
					    unsigned long oldest)
{
	unsigned long seq = r->write_seq;

	while (seq != oldest) {
		struct mt_chunk *c = mt_chunk_of(r, seq);

		/* A chunk a writer stopped by a panic left half recycled. */
		if (READ_ONCE(c->seq) == seq &&
		    READ_ONCE(c->first_entry) <= entry)
			break;
		touch_nmi_watchdog();
		seq--;
	}
	return seq;
}

/*
 * The records of @r committed: a writer counts its record before it
 * commits it, and a panic may stop it in between.  Counted through the
 * newest chunk, which is at most a chunk's records.
 */
static u64 mt_ring_committed(struct mt_ring *r)
{
	struct mt_chunk *c = mt_chunk_of(r, r->write_seq);
	struct mt_cursor cur;
	struct mt_rec *rec;
	u64 ts;

	if (READ_ONCE(c->seq) != r->write_seq)
		return local64_read(&r->entries);
	cur = (struct mt_cursor){ .seq = r->write_seq, .base = c->base_ts,
				  .entry = c->first_entry };
	while ((rec = mt_cursor_peek(r, &cur, &ts)))
		mt_cursor_next(&cur, rec);
	return cur.entry;
}

/**
 * mt_ring_seek_newest() - a snapshot reader's place @newest records back
 * @r: the ring, its writers stopped
 * @cur: the oldest record to read, from mt_ring_oldest_chunk(); moved forward
 * @newest: how many of the ring's newest records to leave
 *
 * For the dump on oops: the work is proportional to @newest (one chunk's
 * records at most besides), whatever the size of the ring.
 */
void mt_ring_seek_newest(struct mt_ring *r, struct mt_cursor *cur, u64 newest)
{
	u64 entries = mt_ring_committed(r), target;
	struct mt_rec *rec;
	unsigned long seq;
	u64 ts;

	if (entries - cur->entry <= newest)
		return;
	target = entries - newest;
	seq = mt_ring_chunk_of_entry(r, target, cur->seq);
	if (seq != cur->seq) {
		struct mt_chunk *c = mt_chunk_of(r, seq);

		*cur = (struct mt_cursor){ .seq = seq, .base = c->base_ts,
					   .entry = c->first_entry };
	}
	while (cur->entry < target && (rec = mt_cursor_peek(r, cur, &ts)))
		mt_cursor_next(cur, rec);
}
