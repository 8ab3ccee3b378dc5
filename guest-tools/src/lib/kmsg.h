/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's log records as /dev/kmsg gives them, one per read():
 * "PRI,SEQ,USEC,FLAGS[,...];TEXT\n" and dictionary lines " KEY=VALUE\n".
 * Turned into dmesg's lines, "[SSSSS.UUUUUU] TEXT", so that the host
 * reads either the same way.  /dev/kmsg reads the whole ring buffer,
 * however large; busybox dmesg reads 16 MiB of it at most.
 */
#ifndef BLKSCALE_KMSG_H
#define BLKSCALE_KMSG_H

#include <stdio.h>
#include <stddef.h>

struct kmsg_counts {
	unsigned long records;		/* lines written */
	unsigned long malformed;	/* records without "PRI,SEQ,USEC;" */
	unsigned long lost;		/* records overwritten while reading */
};

/*
 * Write one record (len bytes, its newline optional) as a dmesg line;
 * dictionary lines (a leading space) write nothing.  Returns 0, or -1 if
 * the record is malformed (it is written as it came, after "[?] ").
 */
int kmsg_write_record(FILE *out, const char *rec, size_t len,
		      struct kmsg_counts *c);

/*
 * Copy every record readable from fd now (opened O_NONBLOCK on
 * /dev/kmsg, or a file of records one per line) to out, until there is
 * nothing more to read.  Returns 0 or -errno.
 */
int kmsg_dump(int fd, FILE *out, struct kmsg_counts *c);

#endif
