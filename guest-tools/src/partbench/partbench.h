/* SPDX-License-Identifier: GPL-2.0 */
/* partbench: what a full read of /proc/partitions and /proc/diskstats costs. */
#ifndef PARTBENCH_H
#define PARTBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "fullread.h"
#include "listcheck.h"
#include "partitions.h"
#include "report.h"

/* Disks deleted before an interleaved read and scanned back during it. */
#define PB_MAX_ADDS 16
/* Names of missed or repeated disks printed in the document. */
#define PB_MAX_NAMES 100

struct pb_disk {
	char name[PART_NAME_SIZE];
	unsigned int host, channel, target;
	unsigned long long lun;
};

/* One interleaved read: a disk deleted after its first page. */
struct pb_churn {
	bool run;
	char why[REPORT_ERROR_LEN];	/* why not, when !run */
	struct pb_disk deleted;
	struct pb_disk readded[PB_MAX_ADDS];
	size_t nreadded;
	size_t first_page_entries;	/* listed by the first read() */
	size_t read_calls, bytes, listed;
	struct listcheck lc;
	bool restored;
	double restore_s;
	size_t entries_before, entries_after;	/* quiet reads around it */
};

struct pb_file {
	const char *name;	/* partitions, diskstats */
	const char *path;
	int (*parse)(const char *text, size_t len, struct partitions *pt,
		     char *err, size_t errlen);
	bool checked;		/* churn check asked for */
	size_t lines, bytes, entries, disks;
	unsigned long iters[FULLREAD_METHODS];
	struct fullread_timing t[FULLREAD_METHODS];
	struct pb_churn churn;
};

#endif
