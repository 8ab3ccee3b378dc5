// SPDX-License-Identifier: GPL-2.0
/* Lookup in the generated table of statically assigned block majors. */
#include <stddef.h>

#include "static_majors.h"

const char *static_block_major(unsigned int major)
{
	unsigned int lo = 0, hi = static_block_majors_count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (static_block_majors[mid].major == major)
			return static_block_majors[mid].assigned_to;
		if (static_block_majors[mid].major < major)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
