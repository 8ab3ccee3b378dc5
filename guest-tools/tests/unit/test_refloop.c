// SPDX-License-Identifier: GPL-2.0
/* The reference timed beside measured blocks (src/lib/refloop.c). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "refloop.h"

/* The work is a function of its state and steps alone, run in pieces too. */
static void test_work_deterministic(void **state)
{
	uint64_t whole = refloop_work(7, 3000);

	(void)state;
	assert_int_equal(refloop_work(7, 3000), whole);
	assert_int_equal(refloop_work(refloop_work(7, 1000), 2000), whole);
	assert_int_not_equal(refloop_work(7, 2999), whole);
	assert_int_not_equal(refloop_work(8, 3000), whole);
	assert_int_equal(refloop_work(7, 0), 7);
}

static void test_init_rejects_no_work(void **state)
{
	struct refloop rl;

	(void)state;
	assert_int_equal(refloop_init(&rl, 0), -1);
	assert_int_equal(refloop_init(&rl, 100), 0);
	assert_int_equal(rl.steps, 100);
	assert_int_equal(rl.n, 0);	/* the warm-up run is not recorded */
	refloop_free(&rl);
}

/* Every timing is recorded; more steps take longer. */
static void test_time_records_and_scales(void **state)
{
	uint64_t small = UINT64_MAX, large = UINT64_MAX, ns;
	struct refloop a, b;
	int i;

	(void)state;
	assert_int_equal(refloop_init(&a, 1000), 0);
	assert_int_equal(refloop_init(&b, 200000), 0);
	/* the fastest of several: a busy host slows single timings */
	for (i = 0; i < 5; i++) {
		ns = refloop_time(&a);
		small = ns < small ? ns : small;
		ns = refloop_time(&b);
		large = ns < large ? ns : large;
	}
	assert_int_equal(a.n, 5);
	assert_int_equal(b.n, 5);
	assert_true(large > 20 * small);
	refloop_free(&a);
	refloop_free(&b);
	assert_null(a.ns);
}

/* A spell that slows the call and the reference alike cancels. */
static void test_units_cancel_a_spell(void **state)
{
	double fast, slow;

	(void)state;
	fast = refloop_units(700, 40000, 42000, 8192);
	slow = refloop_units(700 * 14 / 10, 40000 * 14 / 10, 42000 * 14 / 10,
			     8192);
	assert_true(fabs(fast - slow) < 1e-9 * fast);
	/* 700 ns over a reference of 41000 ns for 8192 steps */
	assert_true(fabs(fast - 700.0 * 8192 / 41000) < 1e-9);
	/* a slower call at the same reference is more steps */
	assert_true(refloop_units(900, 40000, 42000, 8192) > fast);
	assert_true(isnan(refloop_units(700, 0, 0, 8192)));
	assert_true(isnan(refloop_units(700, 40000, 42000, 0)));
}

static void test_block_end_adds_one_value(void **state)
{
	struct refcost c = { 0 };
	struct refloop rl;
	uint64_t before, after;

	(void)state;
	assert_int_equal(refloop_init(&rl, 5000), 0);
	before = refloop_time(&rl);
	after = refloop_block_end(&rl, before, 1234, &c);
	assert_int_equal(rl.n, 2);
	assert_int_equal(after, rl.ns[1]);
	assert_int_equal(c.n, 1);
	assert_true(fabs(c.v[0] - refloop_units(1234, before, after, 5000)) <
		    1e-9);
	refcost_free(&c);
	refloop_free(&rl);
}

static void test_summary(void **state)
{
	double odd[] = { 5, 1, 9, 3, 7 }, even[] = { 4, 2, 8, 6 };
	struct refcost_summary s;
	struct refcost c = { 0 };
	size_t i;

	(void)state;
	refcost_summarise(&c, &s);
	assert_int_equal(s.blocks, 0);
	assert_true(isnan(s.median) && isnan(s.min) && isnan(s.max));

	for (i = 0; i < 5; i++)
		assert_int_equal(refcost_add(&c, odd[i]), 0);
	assert_int_equal(refcost_add(&c, NAN), 0);	/* not a block */
	refcost_summarise(&c, &s);
	assert_int_equal(s.blocks, 5);
	assert_true(s.median == 5 && s.min == 1 && s.max == 9);
	refcost_free(&c);

	for (i = 0; i < 4; i++)
		refcost_add(&c, even[i]);
	refcost_summarise(&c, &s);
	assert_true(s.median == 5 && s.min == 2 && s.max == 8);
	refcost_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_work_deterministic),
		cmocka_unit_test(test_init_rejects_no_work),
		cmocka_unit_test(test_time_records_and_scales),
		cmocka_unit_test(test_units_cancel_a_spell),
		cmocka_unit_test(test_block_end_adds_one_value),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
