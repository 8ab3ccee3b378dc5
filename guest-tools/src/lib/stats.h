/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of nanosecond samples, and curves: samples grouped
 * by how many majors were registered when they were taken.
 */
#ifndef BLKSCALE_STATS_H
#define BLKSCALE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

struct stats {
	size_t n;
	uint64_t min, max;
	uint64_t p50, p90, p99;
	double mean;
};

/*
 * Nearest-rank percentile of sorted samples: the smallest sample such that
 * at least p percent of the samples are at or below it.  0 when n is 0.
 */
uint64_t stats_percentile(const uint64_t *sorted, size_t n, double p);

/*
 * Below this many samples a p99 is only the largest sample or next to
 * it: JSON gives null, tables "-".
 */
#define STATS_P99_MIN_SAMPLES 100

static inline bool stats_has_p99(const struct stats *st)
{
	return st->n >= STATS_P99_MIN_SAMPLES;
}

/* Sorts samples in place and fills st; all zero when n is 0. */
void stats_compute(uint64_t *samples, size_t n, struct stats *st);

/* One sample of a curve: the cost of an operation at a registered count. */
struct curve_sample {
	uint64_t registered;
	uint64_t ns;
};

/* A growing list of curve samples. */
struct curve_samples {
	struct curve_sample *v;
	size_t n, cap;
};

/* 0, or -1 without memory. */
int curve_samples_add(struct curve_samples *s, uint64_t registered,
		      uint64_t ns);
void curve_samples_free(struct curve_samples *s);

struct curve_point {
	uint64_t registered;	/* lower bound of the bucket */
	struct stats st;
};

/*
 * Group samples into buckets [k * width, (k + 1) * width) of registered
 * count, in ascending order, skipping empty buckets.  Returns the number of
 * points written to *points (malloc'ed, caller frees), or -1 without
 * memory or with width 0.
 */
long curve_build(const struct curve_sample *samples, size_t n,
		 uint64_t width, struct curve_point **points);

/*
 * A curve as a JSON array of {registered, p50_ns, p90_ns, p99_ns, max_ns,
 * samples}; p99_ns is null in buckets of fewer than 100 samples.
 */
void json_curve(struct json *j, const char *key,
		const struct curve_point *points, size_t n);

/* {n, min_ns, p50_ns, p90_ns, p99_ns, max_ns, mean_ns}; p99_ns as above */
void json_stats(struct json *j, const char *key, const struct stats *st);

#endif
