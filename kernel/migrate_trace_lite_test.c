// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the migration trace, included at the end of
 * kernel/migrate_trace_lite.c so that they can reach its internals.
 * They use the real buffers: run them before tracing anything.
 */
#include <kunit/test.h>

static void mt_test_reset(struct kunit *test)
{
	mutex_lock(&mt_mutex);
	KUNIT_ASSERT_EQ(test, mt_reset_locked(), 0);
	mutex_unlock(&mt_mutex);
}

/* Walk the trace as the trace file would; count marks of value @mark. */
static int mt_test_count_marks(struct kunit *test, unsigned long mark)
{
	struct mt_iter *it;
	struct mt_rec *r;
	int n = 0;

	it = kunit_kzalloc(test, struct_size(it, off, nr_cpu_ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, it);
	while ((r = mt_iter_peek(it))) {
		if (r->type == MT_EV_MARK &&
		    ((struct mt_rec_mark *)r)->mark == mark)
			n++;
		mt_iter_consume(it, r);
	}
	return n;
}

static void mt_test_api_mark(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(1, 0), 0);
	mt_trace_mark(0xfeedUL);
	mt_trace_mark(0xfeedUL);
	KUNIT_ASSERT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_test_count_marks(test, 0xfeedUL), 2);
	mt_test_reset(test);
}

static void mt_test_mark_while_stopped(struct kunit *test)
{
	mt_test_reset(test);
	mt_trace_mark(0x77UL);
	KUNIT_EXPECT_TRUE(test, mt_buffers_empty());
}

static void mt_test_enable_rules(struct kunit *test)
{
	mt_test_reset(test);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(2, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(-1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	/* The buffer holds a trace: only an explicit restart continues it. */
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(1, 1), 0);
	KUNIT_EXPECT_EQ(test, mt_trace_enable(0, 0), 0);
	mt_test_reset(test);
}

/*
 * Fill a private buffer with migration-sized records: none may straddle
 * a chunk boundary, the chunks are used up to their last whole record,
 * and the first refused reservation leaves everything before it intact.
 */
static void mt_test_reserve_chunks(struct kunit *test)
{
	unsigned long chunk = ~mt_chunk_mask + 1, per_chunk, n = 0, off;
	const unsigned int len = sizeof(struct mt_rec_migrate);
	struct mt_buf b = { };
	char *rec;

	b.data = vzalloc(mt_buf_size);
	KUNIT_ASSERT_NOT_NULL(test, b.data);
	local_set(&b.head, 0);
	while ((rec = mt_reserve(&b, len))) {
		off = rec - b.data;
		KUNIT_ASSERT_EQ(test, off / chunk, (off + len - 1) / chunk);
		((struct mt_rec *)rec)->len = len;
		((struct mt_rec *)rec)->type = MT_CAUSE_TRY_TO_WAKE_UP;
		n++;
	}
	per_chunk = chunk / len;
	KUNIT_EXPECT_EQ(test, n, (mt_buf_size / chunk) * per_chunk +
			(mt_buf_size % chunk) / len);
	/* Records and padding tile the buffer exactly. */
	for (off = 0; off < mt_buf_size; ) {
		struct mt_rec *r = (struct mt_rec *)(b.data + off);

		KUNIT_ASSERT_NE(test, r->len, 0);
		KUNIT_ASSERT_TRUE(test, r->type == MT_EV_PAD ||
				  r->type == MT_CAUSE_TRY_TO_WAKE_UP);
		off += r->len;
	}
	KUNIT_EXPECT_EQ(test, off, mt_buf_size);
	vfree(b.data);
}

static struct kunit_case mt_test_cases[] = {
	KUNIT_CASE(mt_test_api_mark),
	KUNIT_CASE(mt_test_mark_while_stopped),
	KUNIT_CASE(mt_test_enable_rules),
	KUNIT_CASE(mt_test_reserve_chunks),
	{}
};

static struct kunit_suite mt_test_suite = {
	.name = "migrate_trace_lite",
	.test_cases = mt_test_cases,
};

kunit_test_suite(mt_test_suite);
