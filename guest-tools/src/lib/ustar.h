/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading tar headers (POSIX ustar and GNU): 512-byte blocks whose numbers
 * are octal text.  A device node's numbers are devmajor and devminor, 8
 * bytes each: 7 octal digits and a terminator, 0..2097151, unless the
 * writer switches to GNU base-256 (first byte 0x80) for larger values.
 */
#ifndef BLKSCALE_USTAR_H
#define BLKSCALE_USTAR_H

#include <stddef.h>
#include <stdint.h>

#define USTAR_BLOCK 512
#define USTAR_DEV_FIELD 8
/* largest value of an 8-byte octal field with its terminator */
#define USTAR_DEV_OCTAL_MAX 2097151u

struct ustar_entry {
	char name[256];		/* prefix/name joined */
	char typeflag;		/* '3' char device, '4' block device, ... */
	uint64_t mode, size;
	uint64_t devmajor, devminor;
	const unsigned char *data;	/* size bytes, inside the buffer */
};

/*
 * A numeric field: octal digits with leading spaces and a NUL or space
 * after them, or GNU base-256.  Returns 0, or -1 when it is neither.
 */
int ustar_number(const unsigned char *field, size_t len, uint64_t *val);

/*
 * The entry at *off of buf (len bytes); *off moves past its data.
 * Returns 1 for an entry, 0 at the end (a zero block or the end of buf),
 * -1 with "offset N: what" in err (bad checksum, bad field, truncation).
 */
int ustar_next(const unsigned char *buf, size_t len, size_t *off,
	       struct ustar_entry *e, char *err, size_t errlen);

#endif
