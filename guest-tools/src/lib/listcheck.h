/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a listing of block devices (/proc/partitions, /proc/diskstats
 * read while disks came and went) names every device of an earlier,
 * quiet listing exactly once.  The devices taken away meanwhile are
 * excluded from the check, and names that were not there before (devices
 * added, or a removed device's name given to a new one) are only counted.
 */
#ifndef BLKSCALE_LISTCHECK_H
#define BLKSCALE_LISTCHECK_H

#include <stddef.h>

#include "partitions.h"

struct name_set {
	char (*v)[PART_NAME_SIZE];	/* ascending by strcmp() */
	size_t n;
};

struct listcheck {
	size_t expected;	/* names of before, less the excluded */
	size_t added;		/* names listed that before lacks */
	struct name_set missed;		/* expected, not listed */
	struct name_set repeated;	/* expected, listed more than once */
};

/*
 * Compare listed with before, leaving out the nexcluded names of
 * excluded.  Returns 0, -EINVAL when before names a device twice (it
 * cannot be the reference), or -ENOMEM; out is empty unless 0.
 */
int listcheck_compare(const struct partitions *before,
		      const struct partitions *listed,
		      const char *const *excluded, size_t nexcluded,
		      struct listcheck *out);

void listcheck_free(struct listcheck *c);

#endif
