/* SPDX-License-Identifier: GPL-2.0 */
/* procdevbench: what generating /proc/devices costs. */
#ifndef PROCDEVBENCH_H
#define PROCDEVBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define PDB_MAX_POINTS 32

enum pdb_method {
	PDB_LSEEK,	/* one open file: lseek to 0, read to EOF */
	PDB_REOPEN,	/* open, read to EOF, close */
	PDB_METHODS,
};

struct pdb_timing {
	bool measured;
	struct stats st;	/* ns per full read */
	uint64_t read_calls;	/* read() calls per full read */
	bool size_stable;	/* every read returned the same byte count */
};

struct pdb_point {
	unsigned long requested;	/* as asked for; ULONG_MAX = max */
	unsigned int registered;	/* our majors registered */
	unsigned int block_majors;	/* all block majors listed */
	size_t lines, bytes;
	bool verified;
	struct pdb_timing t[PDB_METHODS];
};

extern const char *const pdb_method_names[PDB_METHODS];

/*
 * Read path to EOF iters times (after one untimed read) with the given
 * method; buf must hold bufsize bytes.  Returns 0 or -errno.
 */
int pdb_measure(const char *path, enum pdb_method method, unsigned long iters,
		char *buf, size_t bufsize, struct pdb_timing *t);

#endif
