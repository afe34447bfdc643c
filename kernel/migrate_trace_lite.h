/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal declarations of the light weight migration trace (mt) and
 * statistics (mstat), shared by kernel/migrate_trace_lite*.c:
 *
 *   migrate_trace_lite.c         the hooks, reasons, control helpers, init
 *   migrate_trace_lite_ring.c    mt's per-CPU ring of chunks
 *   migrate_trace_lite_trace.c   mt's control: start, stop, marks, names
 *   migrate_trace_lite_output.c  mt's text: header, lines, the trace file
 *   migrate_trace_lite_oops.c    mt's dump on panic or oops
 *   migrate_trace_lite_pipe.c    mt's consuming reader, trace_pipe
 *   migrate_trace_lite_stat.c    mstat
 *   migrate_trace_lite_bench.c   the benchmark path
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_H
#define _KERNEL_MIGRATE_TRACE_LITE_H

#include <linux/migrate_trace_lite.h>
#include <linux/jiffies.h>
#include <linux/min_heap.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/types.h>
#include <linux/atomic.h>
#include <asm/byteorder.h>
#include <asm/local.h>
#include <asm/local64.h>

struct dentry;
struct seq_buf;

/* Serializes every control operation of mt and mstat, and reader opens. */
extern struct mutex mt_mutex;

extern const char * const mt_cause_names[MT_CAUSE_END];
extern const char * const mt_reason_names[MT_REASON_END];

/* Control files (migrate_trace_lite.c). */
int mt_parse_ulong(const char __user *ubuf, size_t count, bool hex_ok,
		   unsigned long *val);
int mt_parse_enable(const char __user *ubuf, size_t count, bool *on);
ssize_t mt_read_ulong(char __user *ubuf, size_t count, loff_t *ppos,
		      unsigned long val);
int mt_parse_reset(const char __user *ubuf, size_t count);
ssize_t mt_write_reset(const char __user *ubuf, size_t count,
		       int (*reset)(void));
void mt_hooks_get(bool *held);
void mt_hooks_put(bool *held);

/* Allocations on first use may fail; they never warn or call the OOM killer. */
#define MT_GFP	(GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/*
 * The clock of both facilities is local_clock(), the scheduler's clock of
 * the CPU that logs: the kernel's own interface, on every architecture.
 * A trace's header names it and gives its offset from sched_clock(),
 * ftrace's "local" clock (perf's default clock is local_clock() itself),
 * so that both traces of one run line up.  One
 * CPU's times can step back (a clock found unstable, a suspend); the
 * rings keep each CPU's records in time order all the same, see
 * mt_ring_write_slow().
 */
#define MT_CLOCK_NAME	"local_clock"

#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE

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

extern const char * const mt_event_names[MT_EV_END];

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
	 * read by the consuming reader (see mt_writer_begin()).
	 */
	int busy;
	/*
	 * The consuming reader writes these, under its lock (pipe.c), on
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
	struct mt_cpu_start start;
};

DECLARE_PER_CPU(struct mt_ring, mt_rings);

/*
 * Whether @r has a buffer; a reader that sees it sees the ring set up.
 * Writers need not ask: their CPU got its buffer before it ran.
 */
static inline bool mt_ring_has_data(struct mt_ring *r)
{
	/* Pairs with the release of mt_ring_cpu_prepare(). */
	return smp_load_acquire(&r->data);
}

/* Geometry, set when the buffers are allocated (under mt_mutex). */
extern unsigned int mt_chunk_size;	/* bytes, a power of 2 */
extern unsigned int mt_nr_chunks;	/* per CPU, at least 2 */
extern bool mt_overwrite;		/* flight recorder: recycle chunks */
extern unsigned long mt_buf_size_kb;	/* the size asked for */
extern bool mt_tracing;			/* hooks record; read locklessly */

/* Whether writers record; the buffers set up before a start are seen. */
static inline bool mt_trace_running(void)
{
	/* Pairs with the releases of a start. */
	return smp_load_acquire(&mt_tracing);
}

static inline struct mt_chunk *mt_chunk_of(struct mt_ring *r, unsigned long seq)
{
	return (struct mt_chunk *)(r->data + (seq % mt_nr_chunks) * mt_chunk_size);
}

static inline unsigned int mt_chunk_payload(void)
{
	return mt_chunk_size - MT_CHUNK_HDR;
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
 * @len: its size, mt_rec_size(@type)
 * @type: enum mt_cause or enum mt_event
 * @ts: its time, local_clock() of this CPU, read with interrupts off
 *
 * Fills the header; the caller fills the rest and calls mt_ring_commit().
 * Interrupts must stay disabled, and the writer busy (mt_writer_begin()),
 * from the timestamp to the commit.
 *
 * Return: the record, or NULL if the ring is full (overwrite off).
 */
static __always_inline void *mt_ring_write(unsigned int len, unsigned int type,
					   u64 ts)
{
	return mt_ring_reserve(this_cpu_ptr(&mt_rings), len, type, ts);
}

/* Publish the record mt_ring_write() returned. */
static __always_inline void mt_ring_commit(void *rec)
{
	mt_ring_advance(this_cpu_ptr(&mt_rings), ((struct mt_rec *)rec)->len);
}

/* migrate_trace_lite_ring.c */
int mt_ring_alloc(unsigned long size_kb);
void mt_ring_free(void);
bool mt_ring_allocated(void);
void mt_ring_reset(void);
bool mt_ring_drop(u64 ts);
unsigned int mt_rec_size(unsigned int type);
bool mt_rec_valid(const struct mt_rec *rec, unsigned int room);
u64 mt_ring_entries(int cpu);
unsigned long mt_ring_dropped(int cpu);
unsigned long mt_ring_clamped(int cpu);
unsigned long mt_ring_nobuf(int cpu);
unsigned long long mt_ring_total_bytes(void);
unsigned int mt_ring_nr_buffers(void);
void mt_ring_init(void);
u64 mt_ring_overwritten(int cpu);
bool mt_ring_empty(void);
unsigned long mt_ring_used(void);
void mt_ring_oldest_chunk(struct mt_ring *r, struct mt_cursor *cur);
void mt_ring_oldest(struct mt_ring *r, struct mt_cursor *cur);
struct mt_rec *mt_cursor_peek(struct mt_ring *r, struct mt_cursor *cur, u64 *ts);
void mt_cursor_next(struct mt_cursor *cur, const struct mt_rec *rec);
void mt_ring_seek_newest(struct mt_ring *r, struct mt_cursor *cur, u64 newest);

/* migrate_trace_lite_trace.c */
struct mt_task_name {
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

extern struct mt_task_name *mt_task_list;	/* names when the trace started */
extern unsigned int mt_task_list_len;
extern u64 mt_task_list_ts;
extern int mt_task_list_cpu;
extern unsigned long mt_task_list_truncated;
extern s64 mt_clock_offset;		/* local_clock() - sched_clock() */
/* The name cache's slots: a pid's slot is its number modulo this. */
#define MT_COMM_SLOTS	4096
bool mt_comm_lookup(pid_t pid, char *comm);
void mt_buffer_full(u64 ts);
void mt_stop_writers(void);
void mt_log_comm(unsigned int type, struct task_struct *p);
bool mt_name_exiting(struct task_struct *p, u64 now);
void mt_trace_init(struct dentry *dir);
bool mt_trace_started(void);
extern unsigned int mt_trace_readers;		/* under mt_mutex */

/* migrate_trace_lite_output.c */
#define MT_LINE_MAX	96

/* A snapshot: the rings merged by time, read with the writers stopped. */
enum mt_snap_state { MT_SNAP_LEAD, MT_SNAP_REC, MT_SNAP_TAIL, MT_SNAP_DONE };

struct mt_snap_cpu {
	struct mt_cursor cur;
	struct mt_rec *rec;	/* at the head, in state MT_SNAP_REC */
	u64 ts;			/* of the head */
	u64 lead;		/* records lost before the first one left */
	enum mt_snap_state state;
};

DEFINE_MIN_HEAP(int, mt_cpu_heap);

struct mt_snap {
	struct mt_cpu_heap heap;	/* CPUs with a head, earliest first */
	struct mt_snap_cpu *cpus;	/* by CPU number */
	int *heap_data;
};

int mt_snap_alloc(struct mt_snap *s);
void mt_snap_free(struct mt_snap *s);
void mt_snap_start(struct mt_snap *s, unsigned long newest);
int mt_snap_top(struct mt_snap *s);
unsigned int mt_snap_format(struct mt_snap *s, int cpu, char *buf);
void mt_snap_next(struct mt_snap *s);

unsigned int mt_format_record(char *buf, int cpu, const struct mt_rec *rec,
			      u64 ts);
unsigned int mt_format_clock(char *buf, int cpu, const struct mt_cpu_start *s);
unsigned int mt_format_name(char *buf, unsigned int type, int cpu, u64 ts,
			    pid_t pid, const char *comm);
unsigned int mt_format_lost(char *buf, int cpu, u64 ts, u64 count);
unsigned int mt_format_clamped(char *buf, int cpu, u64 ts, u64 ns);
void mt_show_header(struct seq_buf *s, bool live);
size_t mt_header_max(void);
void mt_output_init(struct dentry *dir);

/* migrate_trace_lite_oops.c */
void mt_oops_init(struct dentry *dir);
int mt_oops_hold(void);
void mt_oops_wait(void);
extern atomic_t mt_oops_state;
/*
 * The dump's state.  ARMED: a panic or oops dumps.  DUMPING: a dump
 * runs.  DONE: dumped once for this trace.  FREEING: the buffers are
 * being freed, no dump.
 */
enum { MT_OOPS_ARMED, MT_OOPS_DUMPING, MT_OOPS_DONE, MT_OOPS_FREEING };
void mt_oops_release(void);
bool mt_oops_dumped(void);
void mt_oops_line(const char *line, unsigned int len);
void mt_oops_dump(void);
int mt_oops_set_records(unsigned long n);
extern unsigned long mt_oops_records;

/* migrate_trace_lite_pipe.c */
void mt_pipe_init(struct dentry *dir);
void mt_pipe_wake(void);
void mt_pipe_kick_waiting(bool now);
void mt_pipe_reset(void);
bool mt_pipe_busy(void);
u64 mt_pipe_clamped(void);
int mt_pipe_get(void);
void mt_pipe_put(void);
size_t mt_pipe_read_kernel(char *buf, size_t size);
struct mt_pipe_cpu;
bool mt_pipe_catch_up(struct mt_pipe_cpu *pc, struct mt_ring *r,
		      unsigned long ws);
void mt_pipe_lock_reader(void);
void mt_pipe_unlock_reader(void);
extern atomic_t mt_pipe_waiting;
/*
 * After a commit: wake a waiting reader, at once after a new chunk
 * (@now), within MT_PIPE_NUDGE_JIFFIES after a name or a mark.
 */
static inline void mt_pipe_kick(bool now)
{
	/* Pairs with mt_pipe_set_waiting(): it sees the commit, or this it. */
	smp_mb();
	if (unlikely(atomic_read(&mt_pipe_waiting)))
		mt_pipe_kick_waiting(now);
}

/* migrate_trace_lite_trace.c, continued: the fast path, after the pipe */

/**
 * mt_writer_begin() - this CPU starts logging a record
 *
 * Before the clock is read.  A consuming reader reads its own clock, then
 * looks at a CPU that has nothing left to read: if that CPU is not busy,
 * whatever it logs later is stamped later, and what the reader holds up
 * to its clock may be handed out (see migrate_trace_lite_pipe.c).  With
 * interrupts disabled until mt_writer_end(); writers never nest.
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

static __always_inline void mt_fill_migration(struct mt_rec_migrate *r,
					      struct task_struct *p,
					      unsigned int from,
					      unsigned int to)
{
	r->from = from;
	r->to = to;
	r->pid = p->pid;
}

/*
 * Log a migration on the ring's fast path; called by the hook with
 * interrupts disabled, right before the move: task_cpu(@p) is still the
 * CPU it leaves.  Inline: this is the work of every traced event.
 * Return: false, having published nothing, when the record needs the
 * ring's slow path: a new chunk, a gap past 32 bits, or a clock that
 * stepped back.  The hook then calls mt_log_migration_slow() out of its
 * line, so that its values live in registers that need no saving; for
 * that, this one holds few values at a time: the CPU is read again, and
 * the delta is stored before it is checked.
 * A waiting reader is woken by the slow path, once a chunk is full, or
 * wakes by itself (see migrate_trace_lite_pipe.c).
 */
static __always_inline bool mt_log_migration_fast(struct task_struct *p,
						  unsigned int to,
						  unsigned int why, u64 now)
{
	const unsigned int len = sizeof(struct mt_rec_migrate);
	struct mt_ring *ring = this_cpu_ptr(&mt_rings);
	/* Read before the record's stores, which may alias them. */
	struct mt_chunk *c = ring->wchunk;
	unsigned int tail = ring->wtail;
	u64 delta = now - ring->wlast;
	struct mt_rec_migrate *r;

	/* As mt_ring_fits(). */
	if (unlikely(tail + len > ring->wlimit))
		return false;
	r = (struct mt_rec_migrate *)mt_chunk_rec(c, tail);
	/* Stored before it is checked: past the commit, nobody reads it. */
	r->hdr.delta = delta;
	if (unlikely(delta > U32_MAX))
		return false;
	ring->wlast = now;
	r->hdr.info = mt_rec_info(why, len);
	mt_fill_migration(r, p, task_cpu(p), to);
	local64_inc(&ring->entries);
	mt_ring_publish(ring, c, tail + len);
	return true;
}

/* Log a migration that needs the ring's slow path: the hook's rare case. */
static __always_inline void mt_log_migration_slow(struct task_struct *p,
						  unsigned int from,
						  unsigned int to,
						  unsigned int why, u64 now)
{
	struct mt_ring *ring = this_cpu_ptr(&mt_rings);
	struct mt_rec_migrate *r;

	r = mt_ring_write_slow(ring, sizeof(*r), why & 0xff, why >> 8, now);
	if (unlikely(!r)) {
		mt_buffer_full(now);
		return;
	}
	mt_fill_migration(r, p, from, to);
	mt_ring_advance(ring, sizeof(*r));
	mt_pipe_kick(true);
}

#else /* !CONFIG_SNSC_LITE_MIGRATION_TRACE */

static inline bool mt_trace_running(void)
{
	return false;
}

static inline void mt_writer_begin(void)
{
}

static inline void mt_writer_end(void)
{
}

static inline void mt_log_migration_slow(struct task_struct *p,
					 unsigned int from, unsigned int to,
					 unsigned int why, u64 now)
{
}

static inline bool mt_log_migration_fast(struct task_struct *p,
					 unsigned int to, unsigned int why,
					 u64 now)
{
	return true;
}

static inline void mt_log_comm(unsigned int type, struct task_struct *p)
{
}

static inline bool mt_name_exiting(struct task_struct *p, u64 now)
{
	return true;
}

static inline void mt_trace_init(struct dentry *dir)
{
}

#define MT_EV_COPY_PROCESS	0
#define MT_EV_SET_TASK_COMM	0

#endif /* CONFIG_SNSC_LITE_MIGRATION_TRACE */

#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT

extern bool ms_collecting;		/* hooks count; read locklessly */

/* Whether the hooks count; the per-CPU state set up before a start is seen. */
static inline bool ms_stat_running(void)
{
	/* Pairs with the release of ms_start_locked(). */
	return smp_load_acquire(&ms_collecting);
}

/*
 * The hook's part of mstat, inline in it: this CPU's counter of the move's
 * column in its current period, unless the period has ended.  The column
 * of a cause and reason is ms_col[][] (see migrate_trace_lite_stat.c).
 */
extern u8 ms_col[MT_CAUSE_END][MT_REASON_END];
DECLARE_PER_CPU(u64 [], ms_counts);
DECLARE_PER_CPU(u64, ms_period_end);
DECLARE_PER_CPU(unsigned long, ms_period_end_tick);
void ms_count_slow(unsigned int col, u64 now);
void ms_count_untimed_slow(unsigned int col);

/*
 * Count a move the trace stamped at @now, @why being MT_WHY(); interrupts
 * disabled.  The trace and the stat then put it in the same period.
 */
static __always_inline void ms_count(unsigned int why, u64 now)
{
	unsigned int col = ms_col[why & 0xff][why >> 8];

	if (unlikely(now >= raw_cpu_read(ms_period_end))) {
		ms_count_slow(col, now);
		return;
	}
	raw_cpu_inc(ms_counts[col]);
}

/*
 * Count a move when the stat collects alone: no clock is read until the
 * tick count nears the period's end (ms_period_end_tick), after which
 * every move reads it, so that each lands in the period of its time.
 * 32-bit reads it always (see migrate_trace_lite_stat.c).
 */
static __always_inline void ms_count_untimed(unsigned int why)
{
	unsigned int col = ms_col[why & 0xff][why >> 8];

	if (BITS_PER_LONG == 32 ||
	    unlikely(time_after_eq(jiffies, raw_cpu_read(ms_period_end_tick)))) {
		ms_count_untimed_slow(col);
		return;
	}
	raw_cpu_inc(ms_counts[col]);
}

void ms_stat_init(void);

#else /* !CONFIG_SNSC_LITE_MIGRATION_STAT */

static inline bool ms_stat_running(void)
{
	return false;
}

static inline void ms_count(unsigned int why, u64 now)
{
}

static inline void ms_count_untimed(unsigned int why)
{
}

static inline void ms_stat_init(void)
{
}

#endif /* CONFIG_SNSC_LITE_MIGRATION_STAT */

#if IS_ENABLED(CONFIG_KUNIT)
/* Internals that migrate_trace_lite_test.c reaches. */
void mt_log_move_at(struct task_struct *p, unsigned int to, unsigned int why,
		    u64 now);
#ifdef CONFIG_SNSC_LITE_MIGRATION_TRACE
int mt_snap_walk(void (*fn)(int cpu, const struct mt_rec *rec, u64 ts, void *arg),
		 void *arg);
int mt_reset_locked(void);
int mt_trace_reset(void);
void mt_take_task_list(u64 ts);
#endif
#ifdef CONFIG_SNSC_LITE_MIGRATION_STAT
extern unsigned long ms_period_msec;
extern u64 ms_start_ns;
int ms_start_locked(void);
void ms_stop_locked(void);
int ms_reset_locked(void);
u64 ms_read_count(u64 period, unsigned int col);
u64 ms_read_locked(u64 now);
unsigned int ms_column(unsigned int cause, unsigned int reason);
#endif
#endif

#ifdef CONFIG_SNSC_LITE_MIGRATION_BENCH
/* Under mt_mutex: which trace and collection run, and the bench's own. */
extern unsigned long mt_trace_starts;
extern unsigned long ms_starts;
int mt_bench_start_trace_locked(void);
int ms_bench_start_locked(void);
void mt_bench_init(struct dentry *dir);
#else
static inline void mt_bench_init(struct dentry *dir)
{
}
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_H */
