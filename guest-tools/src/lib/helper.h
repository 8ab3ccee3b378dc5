/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helper module's ioctls (include/blkscale/majors_uapi.h) as plain
 * functions.  All return 0 or -errno.
 */
#ifndef BLKSCALE_HELPER_H
#define BLKSCALE_HELPER_H

#include <stdbool.h>
#include <stdint.h>

#include <blkscale/majors_uapi.h>

/* callers name the -errno these return */
#include "errname.h"

#define HELPER_DEV "/dev/" BLKSCALE_DEV_NAME

/*
 * Open the helper device and check its version: -ENOENT when the module
 * is not loaded, -EPROTO when it speaks another version (*version, if not
 * NULL, receives the module's).  Returns the fd otherwise.
 */
int helper_open(uint32_t *version);

int helper_register(int fd, int major, const char *name, int *got,
		    uint64_t *ns);
int helper_unregister(int fd, int major, const char *name, uint64_t *ns);
/* Unregister with a name other than the registered one; *kept from kernel. */
int helper_unregister_wrong(int fd, int major, const char *wrong_name,
			    bool *kept);

struct helper_batch {
	unsigned int done;
	int stop_error;		/* 0 or -errno that ended the loop */
};

/* Up to count dynamic majors named prefix + (base + i). */
int helper_batch_register(int fd, unsigned int count, const char *prefix,
			  unsigned int base, uint64_t *samples,
			  int32_t *majors, struct helper_batch *res);
/* Up to count of this fd's majors, newest first. */
int helper_batch_unregister(int fd, unsigned int count, uint64_t *samples,
			    int32_t *majors, struct helper_batch *res);

struct helper_char {
	unsigned int count;
	int stop_error;
	unsigned int min_major, max_major;
};

int helper_char_probe(int fd, unsigned int limit, uint64_t *samples,
		      int32_t *majors, struct helper_char *res);

int helper_probe_hits(int fd, int major, struct blkscale_probe_hits *h);

/*
 * pairs empty regions timed in the kernel (1..BLKSCALE_CLOCK_PAIRS_MAX),
 * each into samples; min and max, if not NULL, get the module's extremes.
 */
int helper_clock_empty(int fd, unsigned int pairs, uint64_t *samples,
		       uint64_t *min, uint64_t *max);

/* Wait for RCU callbacks; *done gets the BLKSCALE_BARRIER_* that ran. */
int helper_rcu_barrier(int fd, uint32_t *done);

#endif
