// SPDX-License-Identifier: GPL-2.0
/*
 * Which measuring process prints: the one whose register and lookup
 * costs are lowest.  Their product orders the processes as their
 * geometric mean would; the per-process mode moves both together.
 */
#include <math.h>
#include <stdlib.h>

#include "majorbench.h"

/* The median of a curve's samples, 0 when it has none. */
static double samples_median(const struct curve_samples *s)
{
	struct stats st;
	uint64_t *ns;
	size_t i;

	if (!s->n)
		return 0;
	ns = malloc(s->n * sizeof(*ns));
	if (!ns)
		return 0;
	for (i = 0; i < s->n; i++)
		ns[i] = s->v[i].ns;
	stats_compute(ns, s->n, &st);
	free(ns);
	return (double)st.p50;
}

double mb_score(const struct mb *mb)
{
	const struct mb_block *blk = &mb->blk;
	double reg, lookup;

	if (!blk->measured)
		return NAN;
	reg = samples_median(blk->reg.n ? &blk->reg : &blk->reg_cold);
	lookup = samples_median(&blk->lookup);
	if (reg <= 0 && lookup <= 0)
		return NAN;
	return (reg > 0 ? reg : 1) * (lookup > 0 ? lookup : 1);
}
