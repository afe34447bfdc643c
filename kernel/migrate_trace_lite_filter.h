/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's filter of moves by cause and reason
 * (migrate_trace_lite_filter.c): its text, parsed and shown, and the
 * match the hooks run.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_FILTER_H
#define _KERNEL_MIGRATE_TRACE_LITE_FILTER_H

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

void mt_filter_set_all(struct mt_filter *f);
bool mt_filter_is_all(const struct mt_filter *f);
int mt_filter_parse(struct mt_filter *f, char *text, bool replace);
void mt_filter_show(struct seq_buf *s, const struct mt_filter *f);

#endif /* _KERNEL_MIGRATE_TRACE_LITE_FILTER_H */
