/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace's per-CPU rings (migrate_trace_lite_ring.c): the
 * records, the chunks and the inline part of the writer.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_RING_H
#define _KERNEL_MIGRATE_TRACE_LITE_RING_H

#include <linux/cache.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <asm/byteorder.h>
#include <asm/local.h>
#include <asm/local64.h>

#include "migrate_trace_lite_base.h"

/* Event kinds other than migrations, numbered after the causes. */
enum mt_event {
	MT_EV_COPY_PROCESS = MT_CAUSE_END,
	MT_EV_SET_TASK_COMM,
	MT_EV_TASK_LIST,
	MT_EV_MARK,
	MT_EV_LOST,		/* records lost just before this point */
	MT_EV_SAVED_COMM,	/* a name kept for a pid whose records are gone */
	MT_EV_CLAMPED,		/* the next record's clock stepped back */
	MT_EV_END,
	MT_EV_TIME = MT_EV_END,	/* in the ring only: a new time base */
};

/*
 * Records in the ring.  Every record starts with struct mt_rec; its time
 * is the time of the record before it in the chunk (the chunk's base for
 * the first) plus @delta, so that a record is never older than the one
 * before it.  Sizes are multiples of 8.
 */
struct mt_rec {
	u32 delta;		/* ns after the record before */
	union {
		struct {
			u8 type;	/* enum mt_cause, or enum mt_event */
			u8 reason;	/* enum mt_reason of a migration */
			u16 len;	/* bytes */
		};
		u32 info;	/* the three in one store: mt_rec_info() */
	};
};

/* The @info of a record of @len bytes, @why being MT_WHY(type, reason). */
static __always_inline u32 mt_rec_info(unsigned int why, unsigned int len)
{
#ifdef __LITTLE_ENDIAN
	return why | len << 16;
#else
	return (why & 0xff) << 24 | (why >> 8) << 16 | len;
#endif
}

/* MT_WHY(type, reason) of a record. */
static __always_inline unsigned int mt_rec_why(const struct mt_rec *rec)
{
	return MT_WHY(rec->type, rec->reason);
}

struct mt_rec_migrate {
	struct mt_rec hdr;
	u16 from;
	u16 to;
	u32 pid;
};

struct mt_rec_comm {
	struct mt_rec hdr;
	u32 pid;
	char comm[TASK_COMM_LEN];
	u32 unused;
};

struct mt_rec_mark {
	struct mt_rec hdr;
	u32 pid;
	u32 unused;
	u64 mark;
};

struct mt_rec_time {
	struct mt_rec hdr;
	u64 ts;
};

/* The record after this one was logged @ns before its time says. */
struct mt_rec_clamped {
	struct mt_rec hdr;
	u64 ns;
};

/*
 * Each CPU's buffer is a ring of equal chunks.  A chunk holds whole
 * records only; its header says which chunk of the CPU's trace it is
 * (@seq counts from 0 and never repeats within a trace), how many bytes
 * of records it holds, and the time and record number it starts at.
 */
struct mt_chunk {
	u64 base_ts;		/* time of its first record */
	u64 first_entry;	/* records the CPU logged before it */
	unsigned long seq;
	unsigned int commit;	/* bytes of whole records after the header */
};

#define MT_CHUNK_HDR		ALIGN(sizeof(struct mt_chunk), 8)
#define MT_MAX_CHUNK_SIZE	4096U

/* A reader's place in one CPU's ring. */
struct mt_cursor {
	unsigned long seq;	/* chunk */
	unsigned int off;	/* offset in its records */
	u64 base;		/* time of the record before @off */
	u64 entry;		/* number of the record at @off */
};

/* The wall clock and topology of a CPU, taken when the trace starts. */
struct mt_cpu_start {
	u64 ts;			/* 0: the CPU was offline */
	s64 sec;
	u32 usec;
	int core;
	int llc;
	int node;
};

struct mt_buffer;

struct mt_ring {
	/* The owning CPU writes these, with interrupts disabled. */
	struct mt_chunk *wchunk;	/* the chunk being written */
	unsigned int wtail;		/* bytes of records in it */
	unsigned int wlimit;		/* its payload; 0: take the slow path */
	u64 wlast;			/* time of its last record */
	unsigned long write_seq;	/* @wchunk's seq, for readers */
	local64_t entries;		/* records logged */
	local_t dropped;		/* records refused: no free chunk */
	local_t clamped;		/* records whose clock stepped back */
	local_t nobuf;			/* records refused: no buffer at all */
	u64 drop_ts;			/* time of the first refusal */
	/*
	 * Set from before a writer reads the clock until it committed;
	 * read by the consuming reader (see mt_writer_begin()).  The top
	 * trace's, in mt_rings, is the CPU's: a writer of any trace sets it.
	 */
	int busy;
	/*
	 * The consuming reader writes these, under mt_reader_lock, on
	 * cache lines of their own: not those the writer dirties per record.
	 * @read_seq: the oldest chunk not consumed.
	 */
	unsigned long read_seq ____cacheline_aligned_in_smp;
	struct mt_cursor rd;		/* next record not consumed */
	u64 overtaken;			/* records an overtaken reader missed */
	bool drop_reported;		/* its lost line was handed out */
	/*
	 * Set while no trace runs, for the CPUs online then; for a CPU that
	 * comes online later, before it runs (mt_ring_cpu_prepare()).  NULL
	 * for a CPU that was never online since the allocation, or whose
	 * buffer could not be allocated when it came online.
	 */
	char *data;
	struct mt_buffer *buf;		/* the buffer the ring is part of */
	struct mt_cpu_start start;
};

/*
 * A trace's buffer: a ring per CPU, of one geometry.  The top trace's
 * rings are mt_rings, which the hooks' fast path addresses directly; an
 * instance's are allocated with it.
 */
struct mt_buffer {
	struct mt_ring __percpu *rings;
	/* Set when the rings are allocated (under mt_mutex): */
	unsigned int chunk_size;	/* bytes, a power of 2 */
	unsigned int nr_chunks;		/* per CPU, at least 2; 0: none */
	/* Flight recorder: recycle chunks.  Any time; read once per chunk switch. */
	bool overwrite;
	struct list_head node;		/* in the buffers CPU hotplug sees */
};

DECLARE_PER_CPU(struct mt_ring, mt_rings);

/*
 * Whether @r has a buffer; a reader that sees it sees the ring set up.
 * Writers need not ask: a CPU without one has no room (@wlimit is 0), and
 * its slow path refuses the record (mt_ring_drop()).
 */
static inline bool mt_ring_has_data(struct mt_ring *r)
{
	/* Pairs with the release of mt_ring_cpu_prepare(). */
	return smp_load_acquire(&r->data);
}

static inline struct mt_chunk *mt_chunk_of(struct mt_ring *r, unsigned long seq)
{
	return (struct mt_chunk *)(r->data + (seq % r->buf->nr_chunks) *
				   r->buf->chunk_size);
}

static inline unsigned int mt_chunk_payload(const struct mt_ring *r)
{
	return r->buf->chunk_size - MT_CHUNK_HDR;
}

static inline struct mt_rec *mt_chunk_rec(struct mt_chunk *c, unsigned int off)
{
	return (struct mt_rec *)((char *)c + MT_CHUNK_HDR + off);
}

void *mt_ring_write_slow(struct mt_ring *r, unsigned int len,
			 unsigned int type, unsigned int reason, u64 ts);

/*
 * Writing (migrate_trace_lite_ring.c has the slow path).  The fast path
 * is inline: it runs for every event, and a call and return cost more
 * than the few instructions they would wrap.
 */

/* Publish the records of @c, @r's chunk being written, up to @tail. */
static __always_inline void mt_ring_publish(struct mt_ring *r,
					    struct mt_chunk *c,
					    unsigned int tail)
{
	r->wtail = tail;
	/* The record is written before a reader can see it committed. */
	smp_store_release(&c->commit, tail);
}

static __always_inline struct mt_rec *mt_ring_fill(struct mt_ring *r,
						   unsigned int len,
						   unsigned int type,
						   unsigned int reason, u64 ts)
{
	struct mt_rec *rec = mt_chunk_rec(r->wchunk, r->wtail);

	rec->delta = ts - r->wlast;
	rec->info = mt_rec_info(MT_WHY(type, reason), len);
	r->wlast = ts;
	return rec;
}

/*
 * Whether a record of @len bytes at @ts goes at @r's tail as it is: not
 * for a ring's first record (@wlimit is 0 then), a full chunk, a delta
 * past 32 bits, or a clock that stepped back (the delta wraps then).
 */
static __always_inline bool mt_ring_fits(struct mt_ring *r, unsigned int len,
					 u64 ts)
{
	return likely(r->wtail + len <= r->wlimit && ts - r->wlast <= U32_MAX);
}

/* The record at @r's tail, or NULL if the ring is full (overwrite off). */
static __always_inline struct mt_rec *mt_ring_reserve(struct mt_ring *r,
						      unsigned int len,
						      unsigned int type, u64 ts)
{
	if (unlikely(!mt_ring_fits(r, len, ts)))
		return mt_ring_write_slow(r, len, type, 0, ts);
	return mt_ring_fill(r, len, type, 0, ts);
}

/* Publish @r's record of @len bytes at the tail: one more logged. */
static __always_inline void mt_ring_advance(struct mt_ring *r, unsigned int len)
{
	local64_inc(&r->entries);
	mt_ring_publish(r, r->wchunk, r->wtail + len);
}

/**
 * mt_ring_write() - append a record to this CPU's ring
 * @r: this CPU's ring of the buffer
 * @len: its size, mt_rec_size(@type)
 * @type: enum mt_cause or enum mt_event
 * @ts: its time, local_clock() of this CPU, read with interrupts off
 *
 * Fills the header; the caller fills the rest and calls mt_ring_commit().
 * Interrupts must stay disabled, and the writer busy (mt_writer_begin()),
 * from the timestamp to the commit.
 *
 * Return: the record, or NULL if the ring is full (overwrite off) or this
 * CPU has no buffer.
 */
static __always_inline void *mt_ring_write(struct mt_ring *r, unsigned int len,
					   unsigned int type, u64 ts)
{
	return mt_ring_reserve(r, len, type, ts);
}

/* Publish the record mt_ring_write() returned in @r. */
static __always_inline void mt_ring_commit(struct mt_ring *r, void *rec)
{
	mt_ring_advance(r, ((struct mt_rec *)rec)->len);
}

int mt_buffer_add(struct mt_buffer *b, struct mt_ring __percpu *rings);
void mt_buffer_del(struct mt_buffer *b);
int mt_ring_alloc(struct mt_buffer *b, unsigned long size_kb);
void mt_ring_free(struct mt_buffer *b);
bool mt_ring_allocated(const struct mt_buffer *b);
void mt_ring_reset(struct mt_buffer *b);
bool mt_ring_drop(struct mt_ring *r, u64 ts);
unsigned int mt_rec_size(unsigned int type);
bool mt_rec_valid(const struct mt_rec *rec, unsigned int room);
u64 mt_ring_entries(struct mt_buffer *b, int cpu);
unsigned long mt_ring_dropped(struct mt_buffer *b, int cpu);
unsigned long mt_ring_clamped(struct mt_buffer *b, int cpu);
unsigned long mt_ring_nobuf(struct mt_buffer *b, int cpu);
unsigned long long mt_ring_total_bytes(const struct mt_buffer *b);
unsigned int mt_ring_nr_buffers(const struct mt_buffer *b);
void mt_ring_init(void);
u64 mt_ring_overwritten(struct mt_buffer *b, int cpu);
bool mt_ring_empty(struct mt_buffer *b);
unsigned long mt_ring_used(struct mt_buffer *b);
void mt_ring_oldest_chunk(struct mt_ring *r, struct mt_cursor *cur);
void mt_ring_oldest(struct mt_ring *r, struct mt_cursor *cur);
struct mt_rec *mt_cursor_peek(struct mt_ring *r, struct mt_cursor *cur, u64 *ts);
void mt_cursor_next(struct mt_cursor *cur, const struct mt_rec *rec);
void mt_ring_seek_newest(struct mt_ring *r, struct mt_cursor *cur, u64 newest);

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

/**
 * mt_writer_begin() - this CPU starts logging a record
 *
 * Before the clock is read.  A consuming reader reads its own clock, then
 * looks at a CPU that has nothing left to read: if that CPU is not busy,
 * whatever it logs later is stamped later, and what the reader holds up
 * to its clock may be handed out (see migrate_trace_lite_pipe_merge.c).  With
 * interrupts disabled until mt_writer_end(); writers never nest.  The
 * flag is the CPU's, in mt_rings: a writer of any trace sets it, so that
 * a move recorded by several traces needs it set once.  No
 * barrier orders the flag before the clock read, which would cost every
 * record: the reader's slack (MT_PIPE_SLACK_NS) covers the flag seen late.
 */
static __always_inline void mt_writer_begin(void)
{
	this_cpu_write(mt_rings.busy, 1);
}

/* This CPU has committed the record mt_writer_begin() started. */
static __always_inline void mt_writer_end(void)
{
	/* Pairs with the reader's acquire: it sees the commit before this. */
	smp_wmb();
	this_cpu_write(mt_rings.busy, 0);
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline void mt_writer_begin(void)
{
}

static inline void mt_writer_end(void)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#endif /* _KERNEL_MIGRATE_TRACE_LITE_RING_H */
