/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration trace as text (migrate_trace_lite_output.c): its header
 * and its lines.
 */
#ifndef _KERNEL_MIGRATE_TRACE_LITE_OUTPUT_H
#define _KERNEL_MIGRATE_TRACE_LITE_OUTPUT_H

#include "migrate_trace_lite_trace.h"

struct seq_buf;

extern const char * const mt_event_names[MT_EV_END];

#define MT_LINE_MAX	96

unsigned int mt_format_record(char *buf, int cpu, const struct mt_rec *rec,
			      u64 ts);
unsigned int mt_format_clock(char *buf, int cpu, const struct mt_cpu_start *s);
unsigned int mt_format_name(char *buf, unsigned int type, int cpu, u64 ts,
			    pid_t pid, const char *comm);
unsigned int mt_format_lost(char *buf, int cpu, u64 ts, u64 count);
unsigned int mt_format_clamped(char *buf, int cpu, u64 ts, u64 ns);
void mt_show_header(struct mt_trace *tr, struct seq_buf *s, bool live);
size_t mt_header_max(void);

#endif /* _KERNEL_MIGRATE_TRACE_LITE_OUTPUT_H */
