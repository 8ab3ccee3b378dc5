/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading cpio "newc" archives (magic 070701, or 070702 with checksums),
 * the format of initramfs and of `cpio -H newc`: a 110-byte header of
 * thirteen 8-digit hex fields, the NUL-terminated name and the data, each
 * padded to 4 bytes; the entry named TRAILER!!! ends the archive.  The
 * device of a node is stored as two 32-bit fields, c_rdevmajor and
 * c_rdevminor.
 */
#ifndef BLKSCALE_NEWC_H
#define BLKSCALE_NEWC_H

#include <stddef.h>
#include <stdint.h>

#define NEWC_HEADER_SIZE 110
#define NEWC_TRAILER "TRAILER!!!"

struct newc_entry {
	uint32_t ino, mode, uid, gid, nlink, mtime, filesize;
	uint32_t devmajor, devminor, rdevmajor, rdevminor, namesize, check;
	const char *name;		/* inside the archive buffer */
	const unsigned char *data;	/* filesize bytes, inside the buffer */
};

/*
 * The entry at *off of buf (len bytes); *off moves past it.  Returns 1
 * for an entry, 0 for the trailer, -1 with "offset N: what" in err.
 */
int newc_next(const unsigned char *buf, size_t len, size_t *off,
	      struct newc_entry *e, char *err, size_t errlen);

#endif
