/* SPDX-License-Identifier: GPL-2.0 */
/* procdevbench: what generating /proc/devices costs. */
#ifndef PROCDEVBENCH_H
#define PROCDEVBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "fullread.h"

#define PDB_MAX_POINTS 32

struct pdb_point {
	unsigned long requested;	/* as asked for; ULONG_MAX = max */
	unsigned int registered;	/* our majors registered */
	unsigned int block_majors;	/* all block majors listed */
	size_t lines, bytes;
	bool verified;
	struct fullread_timing t[FULLREAD_METHODS];
};

#endif
