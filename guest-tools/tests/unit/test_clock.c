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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic),
		cmocka_unit_test(empty_region_summary),
		cmocka_unit_test(no_pairs),
	};

	return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}
