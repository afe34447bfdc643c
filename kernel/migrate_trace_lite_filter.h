/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's filters of moves, by cause and reason and by the moving
 * task's pid (migrate_trace_lite_filter.c): their text, parsed and
 * shown, and the matches the hooks run.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_FILTER_H
#define _KERNEL_MIGRATE_TRACE_LITE_FILTER_H

#include <linux/threads.h>

#include "migrate_trace_lite_base.h"

/*
 * The moves a filter selects: bit r of mask[c] selects cause c with
 * reason r.  Bit MT_REASON_NONE also stands for the reasons cause c
 * cannot have (mt_cause_reasons[]), so that a whole cause is all ones.
 * mask[MT_CAUSE_NONE] is always 0.
 */
struct mt_filter {
	u64 mask[MT_CAUSE_END];
};

/* A cap on a filter's text, written or read; every pair listed takes ~1.6 KiB. */
#define MT_FILTER_TEXT_MAX	4096

/*
 * Whether a move of @why, MT_WHY(cause, reason), passes @f.  A plain
 * read: a trace's filter changes only while no trace runs, and a start
 * publishes it to the hooks (mt_trace_running() pairs with it).
 */
static __always_inline bool mt_filter_match(const struct mt_filter *f,
					    unsigned int why)
{
	return f->mask[why & 0xff] & BIT_ULL(why >> 8);
}

/* A cap on the pids a trace selects: its header lists them all. */
#define MT_PIDS_MAX		1024
/* Their longest text: a pid has at most 7 digits, and a blank after it. */
#define MT_PIDS_TEXT_MAX	(MT_PIDS_MAX * 8)

/*
 * The tasks whose moves a trace records, by pid as the trace shows it
 * (the task's id in the initial namespace), sorted and each once; none
 * selects every task.  With @fork, a task that a selected task forks is
 * selected too, for the rest of the trace (not listed here).
 */
struct mt_pids {
	unsigned int nr;
	bool fork;
	pid_t pid[MT_PIDS_MAX];
};

/*
 * Whether @pid is set in @bits, a bitmap of PID_MAX_LIMIT bits; a pid
 * beyond it (KUnit's made-up tasks) is never.
 */
static __always_inline bool mt_pids_match(const unsigned long *bits, pid_t pid)
{
	return (unsigned int)pid < PID_MAX_LIMIT && test_bit(pid, bits);
}

void mt_filter_set_all(struct mt_filter *f);
bool mt_filter_is_all(const struct mt_filter *f);
int mt_filter_parse(struct mt_filter *f, char *text, bool replace);
void mt_filter_show(struct seq_buf *s, const struct mt_filter *f);
int mt_pids_parse(struct mt_pids *p, char *text, bool replace);
void mt_pids_show(struct seq_buf *s, const struct mt_pids *p);

#endif /* _KERNEL_MIGRATE_TRACE_LITE_FILTER_H */
