// SPDX-License-Identifier: GPL-2.0
/*
 * The migration trace as text: the header and one line per record, shared
 * by the trace file, trace_pipe and the oops dump.
 */

#define pr_fmt(fmt) "migrate_trace_lite: " fmt

#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "migrate_trace_lite_output.h"

const char * const mt_event_names[MT_EV_END] = {
	[MT_EV_COPY_PROCESS]	= "copy_process",
	[MT_EV_SET_TASK_COMM]	= "set_task_comm",
	[MT_EV_TASK_LIST]	= "task_list",
	[MT_EV_MARK]		= "mark",
	[MT_EV_LOST]		= "lost",
	[MT_EV_SAVED_COMM]	= "saved_comm",
	[MT_EV_CLAMPED]		= "clamped",
};

/* ---- one line of text --------------------------------------------------- */

/* "0x" and @v in lowercase hex, at least @digits digits. */
static char *mt_put_hex(char *p, u64 v, int digits)
{
	int i;

	digits = max(digits, (fls64(v) + 3) / 4);
	*p++ = '0';
	*p++ = 'x';
	for (i = digits - 1; i >= 0; i--, v >>= 4)
		p[i] = hex_asc[v & 15];
	return p + digits;
}

static char *mt_put_num(char *p, u64 v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = '0' + do_div(v, 10);
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* A space, then @v in decimal. */
static char *mt_put_dec(char *p, u64 v)
{
	*p++ = ' ';
	return mt_put_num(p, v);
}

static char *mt_put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* "TS CPU", the start of every event line. */
static char *mt_put_stamp(char *p, u64 ts, int cpu)
{
	return mt_put_dec(mt_put_hex(p, ts, 16), cpu);
}

/* A comm runs to the end of the line: keep control characters out. */
static char *mt_put_comm(char *p, const char *comm)
{
	int i;

	for (i = 0; i < TASK_COMM_LEN - 1 && comm[i]; i++) {
		unsigned char c = comm[i];

		*p++ = (c < ' ' || c == 0x7f) ? '?' : c;
	}
	return p;
}

/**
 * mt_format_name() - format a name line: "TS CPU . . PID TYPE : COMM"
 * @buf: the line, at least MT_LINE_MAX bytes
 * @type: the event that named the task (MT_EV_*)
 * @cpu: the CPU that logged it
 * @ts: its time stamp
 * @pid: the task's pid
 * @comm: its name; control characters are shown as '?'
 *
 * Return: the length of the line, with its newline, not NUL-terminated.
 */
unsigned int mt_format_name(char *buf, unsigned int type, int cpu, u64 ts,
			    pid_t pid, const char *comm)
{
	char *p = mt_put_str(mt_put_stamp(buf, ts, cpu), " . .");

	p = mt_put_dec(mt_put_dec(p, pid), type);
	p = mt_put_comm(mt_put_str(p, " : "), comm);
	*p++ = '\n';
	return p - buf;
}

/* "TS CPU . . 0 KIND N": N records lost, or nanoseconds clamped. */
static unsigned int mt_format_count(char *buf, int cpu, u64 ts,
				    unsigned int kind, u64 n)
{
	char *p = mt_put_str(mt_put_stamp(buf, ts, cpu), " . . 0");

	p = mt_put_dec(mt_put_dec(p, kind), n);
	*p++ = '\n';
	return p - buf;
}

/**
 * mt_format_lost() - format a line of records lost on a CPU
 * @buf: the line, at least MT_LINE_MAX bytes
 * @cpu: the CPU that lost them
 * @ts: the time of the line
 * @count: the records lost
 *
 * Return: the length of the line, with its newline.
 */
unsigned int mt_format_lost(char *buf, int cpu, u64 ts, u64 count)
{
	return mt_format_count(buf, cpu, ts, MT_EV_LOST, count);
}

/**
 * mt_format_clamped() - format a line of a time stamp clamped on a CPU
 * @buf: the line, at least MT_LINE_MAX bytes
 * @cpu: the CPU whose clock stepped back
 * @ts: the time of the line
 * @ns: the nanoseconds clamped
 *
 * Return: the length of the line, with its newline.
 */
unsigned int mt_format_clamped(char *buf, int cpu, u64 ts, u64 ns)
{
	return mt_format_count(buf, cpu, ts, MT_EV_CLAMPED, ns);
}

/**
 * mt_format_clock() - format a CPU's start clock line
 * @buf: the line, at least MT_LINE_MAX bytes
 * @cpu: the CPU
 * @s: its clocks when the trace started
 *
 * Return: the length of the line, with its newline.
 */
unsigned int mt_format_clock(char *buf, int cpu, const struct mt_cpu_start *s)
{
	char *p = mt_put_str(mt_put_stamp(buf, s->ts, cpu),
			     " . . . start_sched_clock");

	if (s->sec < 0)
		p = mt_put_num(mt_put_str(p, " -"), -s->sec);
	else
		p = mt_put_dec(p, s->sec);
	p = mt_put_dec(p, s->usec);
	*p++ = '\n';
	return p - buf;
}

/**
 * mt_format_record() - format a record of a ring as a line
 * @buf: the line, at least MT_LINE_MAX bytes
 * @cpu: the CPU whose ring holds the record
 * @rec: the record
 * @ts: its time stamp
 *
 * Return: the length of the line, with its newline.
 */
unsigned int mt_format_record(char *buf, int cpu, const struct mt_rec *rec,
			      u64 ts)
{
	const struct mt_rec_migrate *mig = (const void *)rec;
	const struct mt_rec_comm *com = (const void *)rec;
	const struct mt_rec_mark *mrk = (const void *)rec;
	char *p = mt_put_stamp(buf, ts, cpu);

	switch (rec->type) {
	case MT_CAUSE_NONE + 1 ... MT_CAUSE_END - 1:
		p = mt_put_dec(mt_put_dec(p, mig->from), mig->to);
		p = mt_put_dec(mt_put_dec(p, mig->pid), rec->type);
		p = mt_put_dec(p, rec->reason);
		break;
	case MT_EV_COPY_PROCESS:
	case MT_EV_SET_TASK_COMM:
		return mt_format_name(buf, rec->type, cpu, ts, com->pid,
				      com->comm);
	case MT_EV_MARK:
		p = mt_put_dec(mt_put_str(p, " . ."), mrk->pid);
		p = mt_put_dec(p, rec->type);
		*p++ = ' ';
		p = mt_put_hex(p, mrk->mark, 8);
		break;
	case MT_EV_CLAMPED:
		return mt_format_clamped(buf, cpu, ts,
					 ((const struct mt_rec_clamped *)rec)->ns);
	}
	*p++ = '\n';
	return p - buf;
}

/* ---- the header ------------------------------------------------------------ */

/* A CPU's records refused: its ring was full, or it had no buffer. */
static u64 mt_cpu_refused(struct mt_buffer *b, int cpu)
{
	return mt_ring_dropped(b, cpu) + mt_ring_nobuf(b, cpu);
}

/**
 * mt_show_header() - format a trace's header, format 1.2
 * @tr: the trace
 * @s: the buffer to append to
 * @live: writers may run (a consuming reader, under its lock)
 *
 * With @live, loss is what the writers and the consuming reader know so
 * far, and the buffer use is left out.
 */
void mt_show_header(struct mt_trace *tr, struct seq_buf *s, bool live)
{
	u64 dropped = 0, overwritten = 0, clamped = mt_reader_clamped(&tr->rd);
	struct mt_buffer *b = &tr->buf;
	bool have = mt_ring_allocated(b);
	int i, cpu;

	seq_buf_puts(s, "# version 1.2.0\n");
	seq_buf_printf(s, "# nr_cpus %u\n", nr_cpu_ids);
	seq_buf_puts(s, "# ts_field 1\n");
	seq_buf_puts(s, "# clock " MT_CLOCK_NAME "\n");
	seq_buf_printf(s, "# clock_offset %lld\n", tr->clock_offset);
	seq_buf_printf(s, "# overwrite %d\n", READ_ONCE(b->overwrite));
	seq_buf_printf(s, "# buffer_size_kb %lu\n", READ_ONCE(tr->buf_size_kb));
	/* An instance's trace says whose it is; the top trace's as in 2010. */
	if (tr->id >= 0)
		seq_buf_printf(s, "# instance %s\n", tr->name);
	for_each_possible_cpu(cpu) {
		if (!have)
			break;
		dropped += mt_cpu_refused(b, cpu);
		overwritten += mt_ring_overwritten(b, cpu);
		clamped += mt_ring_clamped(b, cpu);
	}
	seq_buf_printf(s, "# dropped %llu\n", dropped);
	seq_buf_printf(s, "# overwritten %llu\n", overwritten);
	seq_buf_printf(s, "# clamped %llu\n", clamped);
	for_each_possible_cpu(cpu)
		seq_buf_printf(s, "# cpu_lost %d %llu %llu\n", cpu,
			       have ? mt_cpu_refused(b, cpu) : 0,
			       have ? mt_ring_overwritten(b, cpu) : 0);
	/* While writers run, the chunks cannot be looked at. */
	if (!live)
		seq_buf_printf(s, "# buffer_used %lu\n", mt_ring_used(b));
	if (tr->task_list_truncated)
		seq_buf_printf(s, "# task_list_truncated %lu\n",
			       tr->task_list_truncated);
	/* A filtered trace says what it left out; others stay as they were. */
	if (!mt_filter_is_all(&tr->filter)) {
		seq_buf_puts(s, "# filter ");
		mt_filter_show(s, &tr->filter);
		seq_buf_putc(s, '\n');
	}
	if (tr->pids.nr) {
		seq_buf_puts(s, "# pid_filter ");
		mt_pids_show(s, &tr->pids);
		seq_buf_putc(s, '\n');
		if (tr->pids.fork)
			seq_buf_puts(s, "# event_fork 1\n");
	}
	for (i = 1; i < MT_CAUSE_END; i++)
		seq_buf_printf(s, "# cause %d %s\n", i, mt_cause_names[i]);
	for (i = MT_CAUSE_END; i < MT_EV_END; i++)
		seq_buf_printf(s, "# loc %d %s\n", i, mt_event_names[i]);
	for (i = 1; i < MT_REASON_END; i++)
		seq_buf_printf(s, "# reason %d %s\n", i, mt_reason_names[i]);
	for_each_possible_cpu(cpu) {
		struct mt_cpu_start *st = &per_cpu_ptr(b->rings, cpu)->start;

		if (have)
			seq_buf_printf(s, "# topology %d %d %d %d\n", cpu,
				       st->core, st->llc, st->node);
	}
}

/**
 * mt_header_max() - the most bytes mt_show_header() may write
 *
 * Return: the size of a buffer that holds the header.
 */
size_t mt_header_max(void)
{
	return 16384 + MT_FILTER_TEXT_MAX + MT_PIDS_TEXT_MAX + nr_cpu_ids * 128;
}
