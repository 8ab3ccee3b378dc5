// SPDX-License-Identifier: GPL-2.0
/* The user-space clock and the empty timed region (src/lib/clock.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "clock.h"

static void monotonic(void **state)
{
	uint64_t a, b;
	int i;

	(void)state;
	a = now_ns();
	for (i = 0; i < 1000; i++) {
		b = now_ns();
		assert_true(b >= a);
		a = b;
	}
}

static void empty_region_summary(void **state)
{
	struct clock_empty ce;

	(void)state;
	assert_int_equal(clock_empty_region(10000, &ce), 0);
	assert_int_equal(ce.pairs, 10000);
	assert_true(ce.min_ns <= ce.median_ns);
	/* the smallest step is the minimum unless some pairs saw none */
	if (ce.min_ns)
		assert_int_equal(ce.min_nonzero_ns, ce.min_ns);
	else
		assert_true(ce.min_nonzero_ns == 0 ||
			    ce.min_nonzero_ns > ce.min_ns);
}

static void no_pairs(void **state)
{
	struct clock_empty ce = { .pairs = 7 };

	(void)state;
	assert_int_equal(clock_empty_region(0, &ce), -1);
	assert_int_equal(ce.pairs, 7);
}

/* A coarse clock: most regions read 0, the step shows in min_nonzero. */
static void summarise_coarse(void **state)
{
	uint64_t ns[] = { 558, 0, 279, 0, 279 };
	struct clock_empty ce;

	(void)state;
	clock_empty_summarise(ns, 5, &ce);
	assert_int_equal(ce.pairs, 5);
	assert_int_equal(ce.median_ns, 279);
	assert_int_equal(ce.min_ns, 0);
	assert_int_equal(ce.min_nonzero_ns, 279);
}

static void summarise_all_zero_and_none(void **state)
{
	uint64_t ns[] = { 0, 0, 0 };
	struct clock_empty ce = { .min_nonzero_ns = 99 };

	(void)state;
	clock_empty_summarise(ns, 3, &ce);
	assert_int_equal(ce.median_ns, 0);
	assert_int_equal(ce.min_nonzero_ns, 0);
	clock_empty_summarise(NULL, 0, &ce);
	assert_int_equal(ce.pairs, 0);
	assert_int_equal(ce.median_ns, 0);
	assert_int_equal(ce.min_ns, 0);
	assert_int_equal(ce.min_nonzero_ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic),
		cmocka_unit_test(empty_region_summary),
		cmocka_unit_test(no_pairs),
		cmocka_unit_test(summarise_coarse),
		cmocka_unit_test(summarise_all_zero_and_none),
	};

	return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}
