/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A list of device numbers (one per disk): sorted once, so that repeated
 * dev_ts are neighbours (no pairwise comparison, which 5000 disks could
 * not afford), and summarised per major.
 */
#ifndef BLKSCALE_DEVLIST_H
#define BLKSCALE_DEVLIST_H

#include <stddef.h>
#include <stdint.h>

struct devlist_item {
	uint32_t major, minor;
	size_t index;		/* the caller's, e.g. into its disk table */
};

struct devlist_major {
	uint32_t major;
	size_t count;		/* items with this major */
	uint32_t max_minor;
	size_t minor_over_255;	/* items whose minor needs more than 8 bits */
};

struct devlist_summary {
	size_t duplicates;	/* items whose dev_t an earlier item has */
	uint32_t max_minor;
	size_t minor_over_255;
	struct devlist_major *majors;	/* ascending; malloc'ed */
	size_t nmajors;
};

/* Ascending by major, then minor, then index. */
void devlist_sort(struct devlist_item *v, size_t n);

/*
 * Summarise items sorted by devlist_sort().  Returns 0, or -1 without
 * memory (s is then empty).
 */
int devlist_summarize(const struct devlist_item *v, size_t n,
		      struct devlist_summary *s);

void devlist_summary_free(struct devlist_summary *s);

#endif
