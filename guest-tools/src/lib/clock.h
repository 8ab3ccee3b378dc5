/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clock of user-space timings, and what one timed region costs when
 * it holds nothing: the floor under every figure taken with now_ns().
 */
#ifndef BLKSCALE_CLOCK_H
#define BLKSCALE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

struct clock_empty {
	size_t pairs;
	uint64_t median_ns, min_ns;
	/*
	 * The smallest step seen: a coarse clocksource (acpi_pm ticks every
	 * 279 ns) makes many empty regions 0, so the median alone can hide it.
	 * 0 when every pair read the same time.
	 */
	uint64_t min_nonzero_ns;
};

/*
 * Time pairs empty regions: two back-to-back now_ns() each.  Returns 0,
 * or -1 without memory or with pairs 0.
 */
int clock_empty_region(size_t pairs, struct clock_empty *ce);

/*
 * Summarise pairs empty-region samples taken elsewhere (the helper
 * module's, in the kernel); sorts ns in place.  All zero when pairs is 0.
 */
void clock_empty_summarise(uint64_t *ns, size_t pairs, struct clock_empty *ce);

#endif
