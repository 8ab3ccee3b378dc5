// SPDX-License-Identifier: GPL-2.0
/* Percentiles, summaries and curves (src/lib/stats.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"

static void percentile_nearest_rank(void **state)
{
	uint64_t v[100];
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	assert_int_equal(stats_percentile(v, 100, 50), 50);
	assert_int_equal(stats_percentile(v, 100, 90), 90);
	assert_int_equal(stats_percentile(v, 100, 99), 99);
	assert_int_equal(stats_percentile(v, 100, 100), 100);
	assert_int_equal(stats_percentile(v, 100, 0), 1);
	assert_int_equal(stats_percentile(v, 100, 0.5), 1);
	assert_int_equal(stats_percentile(v, 100, 99.5), 100);
}

static void percentile_small_sets(void **state)
{
	uint64_t one[] = { 7 };
	uint64_t two[] = { 10, 20 };
	uint64_t ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	(void)state;
	assert_int_equal(stats_percentile(one, 1, 50), 7);
	assert_int_equal(stats_percentile(one, 1, 99), 7);
	assert_int_equal(stats_percentile(two, 2, 50), 10);
	assert_int_equal(stats_percentile(two, 2, 51), 20);
	assert_int_equal(stats_percentile(ten, 10, 90), 9);
	assert_int_equal(stats_percentile(ten, 10, 91), 10);
	assert_int_equal(stats_percentile(ten, 0, 50), 0);
}

static void compute_sorts_and_summarises(void **state)
{
	uint64_t v[] = { 50, 10, 40, 20, 30 };
	struct stats st;

	(void)state;
	stats_compute(v, 5, &st);
	assert_int_equal(st.n, 5);
	assert_int_equal(st.min, 10);
	assert_int_equal(st.max, 50);
	assert_int_equal(st.p50, 30);
	assert_int_equal(st.p90, 50);
	assert_int_equal(st.p99, 50);
	assert_true(st.mean > 29.999 && st.mean < 30.001);
	assert_int_equal(v[0], 10);
	assert_int_equal(v[4], 50);
}

static void compute_empty(void **state)
{
	struct stats st = { .n = 99, .max = 5 };

	(void)state;
	stats_compute(NULL, 0, &st);
	assert_int_equal(st.n, 0);
	assert_int_equal(st.max, 0);
	assert_int_equal(st.p50, 0);
}

static void compute_large_values(void **state)
{
	uint64_t v[] = { UINT64_MAX, UINT64_MAX - 1 };
	struct stats st;

	(void)state;
	stats_compute(v, 2, &st);
	assert_true(st.min == UINT64_MAX - 1);
	assert_true(st.max == UINT64_MAX);
	assert_true(st.mean > 1.8e19);
}

static void curve_buckets(void **state)
{
	struct curve_samples s = { 0 };
	struct curve_point *pts;
	long n;
	uint64_t i;

	(void)state;
	/* registered 0..39, cost = 100 + registered */
	for (i = 0; i < 40; i++)
		assert_int_equal(curve_samples_add(&s, i, 100 + i), 0);
	/* and a lone sample far away: empty buckets are skipped */
	assert_int_equal(curve_samples_add(&s, 1000, 5), 0);
	n = curve_build(s.v, s.n, 16, &pts);
	assert_int_equal(n, 4);
	assert_int_equal(pts[0].registered, 0);
	assert_int_equal(pts[0].st.n, 16);
	assert_int_equal(pts[0].st.min, 100);
	assert_int_equal(pts[0].st.max, 115);
	assert_int_equal(pts[0].st.p50, 107);
	assert_int_equal(pts[1].registered, 16);
	assert_int_equal(pts[2].registered, 32);
	assert_int_equal(pts[2].st.n, 8);
	assert_int_equal(pts[3].registered, 992);
	assert_int_equal(pts[3].st.n, 1);
	assert_int_equal(pts[3].st.p99, 5);
	free(pts);
	curve_samples_free(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
}

static void curve_pools_rounds_in_any_order(void **state)
{
	struct curve_sample v[] = {
		{ 5, 30 }, { 1, 10 }, { 5, 10 }, { 1, 20 }, { 5, 20 },
	};
	struct curve_point *pts;
	long n;

	(void)state;
	n = curve_build(v, 5, 1, &pts);
	assert_int_equal(n, 2);
	assert_int_equal(pts[0].registered, 1);
	assert_int_equal(pts[0].st.n, 2);
	assert_int_equal(pts[1].registered, 5);
	assert_int_equal(pts[1].st.n, 3);
	assert_int_equal(pts[1].st.p50, 20);
	free(pts);
}

static void curve_edge_cases(void **state)
{
	struct curve_sample v[] = { { 1, 1 } };
	struct curve_point *pts;

	(void)state;
	assert_int_equal(curve_build(v, 1, 0, &pts), -1);
	assert_null(pts);
	assert_int_equal(curve_build(v, 0, 16, &pts), 0);
	free(pts);
}

/* json_curve() of buckets of 99 and 100 samples into a string. */
static char *curve_json(void)
{
	struct curve_samples s = { 0 };
	struct curve_point *pts;
	struct json j;
	size_t len = 0;
	char *buf;
	FILE *f;
	long n, i;

	for (i = 0; i < 99; i++)
		assert_int_equal(curve_samples_add(&s, 0, 1000 + i), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(curve_samples_add(&s, 16, 2000 + i), 0);
	n = curve_build(s.v, s.n, 16, &pts);
	assert_int_equal(n, 2);
	f = open_memstream(&buf, &len);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_curve(&j, "c", pts, (size_t)n);
	json_stats(&j, "small", &pts[0].st);
	json_stats(&j, "large", &pts[1].st);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), 0);
	fclose(f);
	free(pts);
	curve_samples_free(&s);
	return buf;
}

static void p99_needs_100_samples(void **state)
{
	struct stats st = { .n = 99 };
	char *buf, *big;

	(void)state;
	assert_false(stats_has_p99(&st));
	st.n = 100;
	assert_true(stats_has_p99(&st));
	buf = curve_json();
	/* the bucket of 99: p99 is null, the bucket of 100 has one */
	big = strstr(buf, "\"registered\": 16");
	assert_non_null(big);
	assert_non_null(strstr(buf, "\"p99_ns\": null"));
	assert_true(strstr(buf, "\"p99_ns\": null") < big);
	assert_non_null(strstr(big, "\"p99_ns\": 2098"));
	/* the same in a summary */
	assert_non_null(strstr(strstr(buf, "\"small\""), "\"p99_ns\": null"));
	assert_non_null(strstr(strstr(buf, "\"large\""), "\"p99_ns\": 2098"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(percentile_nearest_rank),
		cmocka_unit_test(percentile_small_sets),
		cmocka_unit_test(compute_sorts_and_summarises),
		cmocka_unit_test(compute_empty),
		cmocka_unit_test(compute_large_values),
		cmocka_unit_test(curve_buckets),
		cmocka_unit_test(curve_pools_rounds_in_any_order),
		cmocka_unit_test(curve_edge_cases),
		cmocka_unit_test(p99_needs_100_samples),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
