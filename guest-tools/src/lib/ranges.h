/* SPDX-License-Identifier: GPL-2.0 */
/* Sets of majors as sorted runs of consecutive numbers: [[1,3],[5,5]]. */
#ifndef BLKSCALE_RANGES_H
#define BLKSCALE_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

struct range {
	int32_t first, last;
};

/*
 * Runs of the distinct values of v (any order, duplicates allowed) into
 * out, which must hold n entries.  Returns the number of runs, or -1
 * without memory.
 */
long ranges_build(const int32_t *v, size_t n, struct range *out);

/* Number of values that occur more than once in v. */
size_t ranges_duplicates(const int32_t *v, size_t n);

/* [[first, last], ...] */
void json_ranges(struct json *j, const char *key, const struct range *r,
		 size_t n);

/* "1-3,5" into buf (cut with "..." when it does not fit). */
void ranges_format(char *buf, size_t size, const struct range *r, size_t n);

#endif
