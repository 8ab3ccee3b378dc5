/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting for the disks a run expects: look at /sys/block every interval
 * until enough disks are there or the time is up.  A disk is an entry
 * named sd*, vd* or nullb*: SCSI (and scsi_debug), virtio-blk, null_blk.
 */
#ifndef BLKSCALE_DISKWAIT_H
#define BLKSCALE_DISKWAIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether a /sys/block entry is one of the disks the census counts. */
bool disk_name_counts(const char *name);

/* The disks in dir (a /sys/block); -errno when it cannot be read. */
long disk_count(const char *dir);

struct disk_wait {
	/* asked for */
	const char *dir;
	unsigned long expected;
	unsigned long interval_ms;	/* between the starts of two looks */
	unsigned long timeout_ms;
	FILE *progress;			/* "blkscale: settle: F/E disks", 1/s */
	long (*count)(const char *dir);	/* NULL: disk_count() */

	/* what happened */
	unsigned long found;
	unsigned long looks;
	uint64_t waited_ns;		/* start of the first look to the last */
	uint64_t max_gap_ns;		/* longest time between two looks */
	uint64_t max_look_ns;		/* longest look */
	int error;			/* the last -errno of a look, or 0 */
	bool timed_out;
};

/*
 * Look until found >= expected or timeout_ms have passed (at least one
 * look).  Looks start on a fixed schedule, so the time a disk waits to be
 * seen is at most interval_ms, unless looks get slow: with thousands of
 * disks under emulation a look can take longer than the interval, and the
 * wait must not eat the CPU the disks are probed on, so the next look
 * starts no sooner than 5 times the last look's duration after its start
 * (looking takes at most a fifth of a CPU).  max_gap_ns says what the
 * resolution was.  Returns 0 when the disks are there, 1 on time out.
 */
int disk_wait(struct disk_wait *w);

#endif
