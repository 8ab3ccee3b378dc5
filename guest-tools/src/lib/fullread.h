/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timed full reads of a file (a proc file, mostly), three ways:
 *   reader  what a program reading it with stdio pays: open, fstat, read
 *           to EOF with stdio's buffer (st_blksize up to BUFSIZ: 1 KiB
 *           on procfs), close;
 *   lseek   one open file: lseek to 0, read to EOF with a given buffer;
 *   reopen  open, read to EOF with a given buffer, close.
 */
#ifndef BLKSCALE_FULLREAD_H
#define BLKSCALE_FULLREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "refloop.h"
#include "stats.h"

enum fullread_method {
	FULLREAD_READER,
	FULLREAD_LSEEK,
	FULLREAD_REOPEN,
	FULLREAD_METHODS,
};

extern const char *const fullread_method_names[FULLREAD_METHODS];

struct fullread_timing {
	bool measured;
	struct stats st;	/* ns per full read */
	size_t buffer;		/* bytes asked of each read() */
	uint64_t read_calls;	/* read() calls per full read, EOF included */
	long bytes;		/* of the untimed first read */
	bool size_stable;	/* every read returned the same byte count */
	/* with a reference: a read's cost in its steps, over the blocks */
	struct refcost_summary ref;
};

/* Reads per block between two timings of the reference. */
#define FULLREAD_REF_BLOCK 10

/* stdio's buffer for a file of this st_blksize (glibc's rule). */
size_t fullread_stdio_buffer(long st_blksize);

/*
 * Read path to EOF iters times (after one untimed read) with the given
 * method; bufsize is the buffer of lseek and reopen.  Returns 0 or -errno.
 */
int fullread_measure(const char *path, enum fullread_method method,
		     unsigned long iters, size_t bufsize,
		     struct fullread_timing *t);

/*
 * The same, with the reference rl timed before the first read and after
 * every FULLREAD_REF_BLOCK reads (and the last): each block's median read
 * over its adjacent timings, in steps, summarised in t->ref.  rl NULL:
 * no reference, t->ref has no blocks.
 */
int fullread_measure_ref(const char *path, enum fullread_method method,
			 unsigned long iters, size_t bufsize,
			 struct refloop *rl, struct fullread_timing *t);

#endif
