/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/partitions, read once and looked up by device number: the header
 * "major minor  #blocks  name", a blank line, then one "%4d  %7d %10llu
 * %s" line per disk and partition with a non-zero size (block/genhd.c;
 * disks of size 0 and hidden disks are not listed).  Sizes are in 1 KiB
 * blocks.
 */
#ifndef BLKSCALE_PARTITIONS_H
#define BLKSCALE_PARTITIONS_H

#include <stddef.h>
#include <stdint.h>

#define PART_NAME_SIZE 64

struct part_entry {
	uint32_t major, minor;
	uint64_t blocks;
	char name[PART_NAME_SIZE];
};

struct partitions {
	struct part_entry *v;	/* ascending by major:minor */
	size_t n;
	size_t duplicates;	/* entries whose major:minor an earlier one has */
};

/*
 * Parse text (len bytes, need not be NUL-terminated).  Returns 0, or -1
 * with "line N: what" in err (pt is then empty).
 */
int partitions_parse(const char *text, size_t len, struct partitions *pt,
		     char *err, size_t errlen);

/* The entry of major:minor (one of them, if repeated), or NULL. */
const struct part_entry *partitions_find(const struct partitions *pt,
					 uint32_t major, uint32_t minor);

void partitions_free(struct partitions *pt);

#endif
