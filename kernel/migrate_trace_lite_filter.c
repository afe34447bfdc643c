// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's filter of moves by cause and reason: the text of
 * migration_trace/filter, parsed into one mask of reasons per cause, and
 * shown back in a form that can be written again.
 *
 * The words, separated by blanks: CAUSE selects every move of a cause,
 * CAUSE/REASON one reason of it (CAUSE/none its moves without one), "0"
 * nothing and "all" everything; a leading '!' takes the moves out
 * instead.  A CAUSE/REASON pair the scheduler cannot produce is refused
 * like an unknown name: it is a typo, and would select nothing.
 *
 * And a trace's filter of moves by the moving task: the pids written to
 * migration_trace/set_event_pid, kept sorted, and shown back.
 */

#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/kstrtox.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/types.h>

#include "migrate_trace_lite_filter.h"

/* The bits of @cause's moves that have no reason (see struct mt_filter). */
static u64 mt_filter_none_bits(unsigned int cause)
{
	return ~mt_cause_reasons[cause];
}

/**
 * mt_filter_set_all() - make a filter select every move
 * @f: the filter
 */
void mt_filter_set_all(struct mt_filter *f)
{
	memset(f->mask, 0xff, sizeof(f->mask));
	f->mask[MT_CAUSE_NONE] = 0;
}

/**
 * mt_filter_is_all() - whether a filter selects every move
 * @f: the filter
 *
 * Return: true if no move is filtered out.
 */
bool mt_filter_is_all(const struct mt_filter *f)
{
	unsigned int c;

	for (c = 1; c < MT_CAUSE_END; c++)
		if (f->mask[c] != ~0ULL)
			return false;
	return true;
}

static bool mt_filter_is_none(const struct mt_filter *f)
{
	unsigned int c;

	for (c = 1; c < MT_CAUSE_END; c++)
		if (f->mask[c])
			return false;
	return true;
}

static int mt_filter_cause(const char *name, size_t len)
{
	unsigned int c;

	for (c = 1; c < MT_CAUSE_END; c++)
		if (strlen(mt_cause_names[c]) == len &&
		    !strncmp(mt_cause_names[c], name, len))
			return c;
	return -EINVAL;
}

/* The bits of @name, a reason @cause can have or "none"; 0 if neither. */
static u64 mt_filter_reason_bits(unsigned int cause, const char *name)
{
	unsigned int r;

	if (!strcmp(name, "none"))
		return mt_filter_none_bits(cause);
	for (r = MT_REASON_NONE + 1; r < MT_REASON_END; r++)
		if ((mt_cause_reasons[cause] & BIT_ULL(r)) &&
		    !strcmp(mt_reason_names[r], name))
			return BIT_ULL(r);
	return 0;
}

/* Apply one word to @f; -EINVAL for a name that is no cause or reason. */
static int mt_filter_word(struct mt_filter *f, const char *word)
{
	bool exclude = *word == '!';
	const char *slash;
	u64 bits = ~0ULL;
	int cause;

	if (!strcmp(word, "0")) {
		memset(f->mask, 0, sizeof(f->mask));
		return 0;
	}
	if (!strcmp(word, "all")) {
		mt_filter_set_all(f);
		return 0;
	}
	word += exclude;
	slash = strchr(word, '/');
	cause = mt_filter_cause(word, slash ? slash - word : strlen(word));
	if (cause < 0)
		return cause;
	if (slash) {
		bits = mt_filter_reason_bits(cause, slash + 1);
		if (!bits)
			return -EINVAL;
	}
	if (exclude)
		f->mask[cause] &= ~bits;
	else
		f->mask[cause] |= bits;
	return 0;
}

/**
 * mt_filter_parse() - apply the text written to a filter file
 * @f: the filter, changed only on success
 * @text: the words; it is cut into them
 * @replace: start from nothing (or, if the first word excludes, from
 *	everything) instead of from @f
 *
 * Context: any; the caller serializes changes of @f.
 * Return: 0, or -EINVAL for an unknown name, a pair the scheduler
 * cannot produce, or no word at all.
 */
int mt_filter_parse(struct mt_filter *f, char *text, bool replace)
{
	struct mt_filter next = *f;
	bool first = true;
	char *word;
	int ret;

	for (;;) {
		text = skip_spaces(text);
		if (!*text)
			break;
		word = text;
		while (*text && !isspace(*text))
			text++;
		if (*text)
			*text++ = '\0';
		if (first && replace) {
			if (*word == '!')
				mt_filter_set_all(&next);
			else
				memset(next.mask, 0, sizeof(next.mask));
		}
		first = false;
		ret = mt_filter_word(&next, word);
		if (ret)
			return ret;
	}
	if (first)
		return -EINVAL;
	*f = next;
	return 0;
}

/**
 * mt_filter_show() - the text of a filter, as it can be written back
 * @s: the buffer to append to, without a newline
 * @f: the filter
 *
 * "all", "0", or each cause that is selected whole and each selected
 * CAUSE/REASON of the others, separated by spaces.
 *
 * Context: any, also a panic's dump; takes no lock.
 */
void mt_filter_show(struct seq_buf *s, const struct mt_filter *f)
{
	const char *sep = "";
	unsigned int c, r;

	if (mt_filter_is_all(f)) {
		seq_buf_puts(s, "all");
		return;
	}
	if (mt_filter_is_none(f)) {
		seq_buf_puts(s, "0");
		return;
	}
	for (c = 1; c < MT_CAUSE_END; c++) {
		u64 mask = f->mask[c];

		if (mask == ~0ULL) {
			seq_buf_printf(s, "%s%s", sep, mt_cause_names[c]);
			sep = " ";
			continue;
		}
		if (mask & BIT_ULL(MT_REASON_NONE)) {
			seq_buf_printf(s, "%s%s/none", sep, mt_cause_names[c]);
			sep = " ";
		}
		for (r = MT_REASON_NONE + 1; r < MT_REASON_END; r++) {
			if (!(mask & mt_cause_reasons[c] & BIT_ULL(r)))
				continue;
			seq_buf_printf(s, "%s%s/%s", sep, mt_cause_names[c],
				       mt_reason_names[r]);
			sep = " ";
		}
	}
}

/* Put @pid in @p's sorted list, unless it is there; -ENOSPC if full. */
static int mt_pids_add(struct mt_pids *p, pid_t pid)
{
	unsigned int lo = 0, hi = p->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->pid[mid] == pid)
			return 0;
		if (p->pid[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (p->nr == MT_PIDS_MAX)
		return -ENOSPC;
	memmove(&p->pid[lo + 1], &p->pid[lo], (p->nr - lo) * sizeof(p->pid[0]));
	p->pid[lo] = pid;
	p->nr++;
	return 0;
}

/**
 * mt_pids_parse() - apply the text written to set_event_pid
 * @p: the pids; on an error, partly changed: parse a copy
 * @text: pids in decimal, separated by blanks; it is cut into them
 * @replace: start from no pid instead of from @p's
 *
 * Text with no pid selects every task with @replace (as ftrace's
 * "echo > set_event_pid" does), and changes nothing without.  @p->fork
 * is left as it is.
 *
 * Context: any; the caller serializes changes of @p.
 * Return: 0, -EINVAL for a word that is not a pid (digits only, below
 * PID_MAX_LIMIT), or -ENOSPC for more than MT_PIDS_MAX pids.
 */
int mt_pids_parse(struct mt_pids *p, char *text, bool replace)
{
	unsigned int pid;
	char *word;
	int ret;

	if (replace)
		p->nr = 0;
	for (;;) {
		text = skip_spaces(text);
		if (!*text)
			return 0;
		word = text;
		while (*text && !isspace(*text))
			text++;
		if (*text)
			*text++ = '\0';
		/* kstrtouint() would take a sign. */
		if (!isdigit(*word) || kstrtouint(word, 10, &pid) ||
		    pid >= PID_MAX_LIMIT)
			return -EINVAL;
		ret = mt_pids_add(p, pid);
		if (ret)
			return ret;
	}
}

/**
 * mt_pids_show() - the text of a trace's pids, as it can be written back
 * @s: the buffer to append to, without a newline
 * @p: the pids
 *
 * The pids in increasing order, separated by spaces; nothing if every
 * task is selected.
 *
 * Context: any, also a panic's dump; takes no lock.
 */
void mt_pids_show(struct seq_buf *s, const struct mt_pids *p)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		seq_buf_printf(s, "%s%d", i ? " " : "", p->pid[i]);
}
