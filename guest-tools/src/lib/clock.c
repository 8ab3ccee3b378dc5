// SPDX-License-Identifier: GPL-2.0
/* User-space clock and the cost of an empty timed region (see clock.h). */
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "stats.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void clock_empty_summarise(uint64_t *ns, size_t pairs, struct clock_empty *ce)
{
	struct stats st;
	size_t i;

	stats_compute(ns, pairs, &st);
	ce->pairs = pairs;
	ce->median_ns = st.p50;
	ce->min_ns = st.min;
	ce->min_nonzero_ns = 0;
	/* sorted by stats_compute: the first step above 0 */
	for (i = 0; i < pairs; i++) {
		if (ns[i]) {
			ce->min_nonzero_ns = ns[i];
			break;
		}
	}
}

int clock_empty_region(size_t pairs, struct clock_empty *ce)
{
	uint64_t *ns, t0;
	size_t i;

	if (!pairs)
		return -1;
	ns = malloc(pairs * sizeof(*ns));
	if (!ns)
		return -1;
	for (i = 0; i < pairs; i++) {
		t0 = now_ns();
		ns[i] = now_ns() - t0;
	}
	clock_empty_summarise(ns, pairs, ce);
	free(ns);
	return 0;
}
