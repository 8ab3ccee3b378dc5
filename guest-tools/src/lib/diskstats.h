/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/diskstats parsed into the entries of partitions.h: one "%4d %7d
 * %pg" line per disk and partition, then the counters (block/genhd.c:
 * 11 of them before 4.18, 15 until 5.5, 17 since), no header.  Unlike
 * /proc/partitions it lists disks of size 0 too.  blocks stays 0.
 */
#ifndef BLKSCALE_DISKSTATS_H
#define BLKSCALE_DISKSTATS_H

#include <stddef.h>

#include "partitions.h"

/* The fewest counters a line may carry. */
#define DISKSTATS_MIN_FIELDS 11

/*
 * Parse text (len bytes, need not be NUL-terminated) into pt, in the
 * order listed (not sorted, duplicates not counted: listcheck.h compares
 * names).  Returns 0, or -1 with "line N: what" in err (pt is then empty).
 */
int diskstats_parse(const char *text, size_t len, struct partitions *pt,
		    char *err, size_t errlen);

#endif
