/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_pipe's merge of the per-CPU rings in time order while the writers
 * run (migrate_trace_lite_pipe_merge.c), for its reader's file
 * (migrate_trace_lite_pipe.c).
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_PIPE_MERGE_H
#define _KERNEL_MIGRATE_TRACE_LITE_PIPE_MERGE_H

#include <linux/min_heap.h>

#include "migrate_trace_lite_output.h"

/* The most text one fill of the reader's buffer formats. */
#define MT_PIPE_BUF		(64 * 1024)

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
	struct mt_trace *tr;		/* whose rings */
	/*
	 * The beginning of the stream (header, clocks, task list) is handed
	 * out once per trace, whoever reads it: items handed out so far.
	 */
	unsigned int prologue;
	bool synced;			/* writers gone since the trace stopped */
	u64 limit;			/* heads up to this may be handed out */
	u64 last_out;			/* time of the last line handed out */
	/* Under the readers' pipe_read_lock: */
	char *out;			/* text not yet copied to the user */
	size_t out_len, out_pos;
	char *buf;			/* @buf_size bytes for @out */
	size_t buf_size;
	/* Under the readers' lock: */
	int *clock_cpus;
	struct mt_pipe_heap heap;	/* CPUs with a head, earliest first */
	int *heap_data;
	struct mt_pipe_cpu *cpus;
};

/* What a read would find now. */
enum mt_pipe_state {
	MT_PIPE_IDLE,		/* nothing: wait for a writer or the poll */
	MT_PIPE_SOON,		/* records held back a moment: look again soon */
	MT_PIPE_READY,		/* something to hand out, or the end */
};

int mt_pipe_fill(struct mt_pipe *pipe, size_t room);
enum mt_pipe_state mt_pipe_state_locked(struct mt_pipe *pipe);
bool mt_pipe_eof(struct mt_pipe *pipe);

#if IS_ENABLED(CONFIG_KUNIT)
bool mt_pipe_catch_up(struct mt_pipe_cpu *pc, struct mt_ring *r,
		      unsigned long ws);
#endif

#endif /* _KERNEL_MIGRATE_TRACE_LITE_PIPE_MERGE_H */
