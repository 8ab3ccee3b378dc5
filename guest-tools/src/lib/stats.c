// SPDX-License-Identifier: GPL-2.0
/* Percentiles, summaries and curves (see stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t stats_percentile(const uint64_t *sorted, size_t n, double p)
{
	double rank;
	size_t idx;

	if (n == 0)
		return 0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	/* p * n first: exact for integral p, so 99% of 100 is rank 99 */
	rank = ceil(p * (double)n / 100.0);
	idx = rank < 1 ? 0 : (size_t)rank - 1;
	return sorted[idx < n ? idx : n - 1];
}

void stats_compute(uint64_t *samples, size_t n, struct stats *st)
{
	long double sum = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return;
	qsort(samples, n, sizeof(*samples), cmp_u64);
	for (i = 0; i < n; i++)
		sum += samples[i];
	st->n = n;
	st->min = samples[0];
	st->max = samples[n - 1];
	st->p50 = stats_percentile(samples, n, 50);
	st->p90 = stats_percentile(samples, n, 90);
	st->p99 = stats_percentile(samples, n, 99);
	st->mean = (double)(sum / n);
}

int curve_samples_add(struct curve_samples *s, uint64_t registered,
		      uint64_t ns)
{
	struct curve_sample *v;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].registered = registered;
	s->v[s->n].ns = ns;
	s->n++;
	return 0;
}

void curve_samples_free(struct curve_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_sample(const void *a, const void *b)
{
	const struct curve_sample *x = a, *y = b;

	if (x->registered != y->registered)
		return x->registered < y->registered ? -1 : 1;
	return cmp_u64(&x->ns, &y->ns);
}

long curve_build(const struct curve_sample *samples, size_t n,
		 uint64_t width, struct curve_point **points)
{
	struct curve_sample *sorted;
	struct curve_point *pts;
	uint64_t *ns;
	size_t i, start, npts = 0;

	*points = NULL;
	if (width == 0)
		return -1;
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	ns = malloc((n ? n : 1) * sizeof(*ns));
	pts = calloc(n ? n : 1, sizeof(*pts));
	if (!sorted || !ns || !pts) {
		free(sorted);
		free(ns);
		free(pts);
		return -1;
	}
	memcpy(sorted, samples, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_sample);

	for (start = 0; start < n; start = i) {
		uint64_t bucket = sorted[start].registered / width;

		for (i = start; i < n && sorted[i].registered / width == bucket;
		     i++)
			ns[i - start] = sorted[i].ns;
		pts[npts].registered = bucket * width;
		stats_compute(ns, i - start, &pts[npts].st);
		npts++;
	}
	free(sorted);
	free(ns);
	*points = pts;
	return (long)npts;
}

static void json_p99(struct json *j, const struct stats *st)
{
	if (stats_has_p99(st))
		json_uint(j, "p99_ns", st->p99);
	else
		json_null(j, "p99_ns");
}

void json_curve(struct json *j, const char *key,
		const struct curve_point *points, size_t n)
{
	size_t i;

	json_array_begin(j, key);
	for (i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		json_uint(j, "registered", points[i].registered);
		json_uint(j, "p50_ns", points[i].st.p50);
		json_uint(j, "p90_ns", points[i].st.p90);
		json_p99(j, &points[i].st);
		json_uint(j, "max_ns", points[i].st.max);
		json_uint(j, "samples", points[i].st.n);
		json_object_end(j);
	}
	json_array_end(j);
}

void json_stats(struct json *j, const char *key, const struct stats *st)
{
	json_object_begin(j, key);
	json_uint(j, "n", st->n);
	json_uint(j, "min_ns", st->min);
	json_uint(j, "p50_ns", st->p50);
	json_uint(j, "p90_ns", st->p90);
	json_p99(j, st);
	json_uint(j, "max_ns", st->max);
	json_double(j, "mean_ns", st->mean);
	json_object_end(j);
}
