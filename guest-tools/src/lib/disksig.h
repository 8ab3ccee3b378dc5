/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disk identity: the serial QEMU gives every disk ("<group>-<index>"),
 * the plan's disk groups (/etc/blkscale/disk-groups) and the signature
 * the launcher writes into sector 0 of every file-backed disk before the
 * boot (launcher/blkscale/machine/signatures.py writes the same format):
 *
 *	BLKSCALE-DISK 1\n
 *	serial <group>-<index>\n
 *	group <group>\n
 *	index <index>\n
 *	nonce <hex>\n
 *
 * then NUL bytes to the end of the sector.
 */
#ifndef BLKSCALE_DISKSIG_H
#define BLKSCALE_DISKSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISKSIG_SECTOR 512
#define DISKSIG_MAGIC "BLKSCALE-DISK 1\n"
#define DISKSIG_ID_SIZE 32	/* group ids are at most 14 bytes */
#define DISKSIG_NONCE_SIZE 65

struct disksig {
	char serial[DISKSIG_ID_SIZE];
	char group[DISKSIG_ID_SIZE];
	unsigned long index;
	char nonce[DISKSIG_NONCE_SIZE];
};

/*
 * Parse the signature in the first len bytes of a disk (at least one
 * sector).  0, or -1 with the reason in err.
 */
int disksig_parse(const void *sector, size_t len, struct disksig *sig,
		  char *err, size_t errlen);

/* "<group>-<index>" into its parts; 0, or -1 if it is not one. */
int serial_split(const char *serial, char *group, size_t len,
		 unsigned long *index);

/*
 * The serial in a SCSI unit serial number VPD page (0x80, sysfs
 * vpd_pg80): a 4-byte header with the length, then the text, which
 * loses its padding.  0, or -1 when the page is not one.
 */
int vpd80_serial(const unsigned char *page, size_t len, char *serial,
		 size_t size);

/* One disk group of the plan: one line "id kind disks sectors signed". */
struct plan_group {
	char id[DISKSIG_ID_SIZE];
	char kind[32];		/* virtio_blk or virtio_scsi */
	unsigned long disks;
	uint64_t sectors;	/* size of each disk, 512-byte units */
	bool is_signed;		/* file-backed: sector 0 carries a signature */
	unsigned long paths;	/* disks per serial: paths to each LUN, 1.. */
	long *seen;		/* per index: the census disk with it, or -1 */
	unsigned long *count;	/* per index: disks found with its serial */
};

struct diskplan {
	struct plan_group *groups;
	size_t n;
	unsigned long total;	/* disks of every group, each path one */
};

/* Parse the groups file; 0, or -1 with "line N: problem" in err. */
int diskplan_parse(const char *text, struct diskplan *p, char *err,
		   size_t errlen);
void diskplan_free(struct diskplan *p);

/* The group of a serial and the index in it, or NULL when not planned. */
struct plan_group *diskplan_find(struct diskplan *p, const char *serial,
				 unsigned long *index);

#endif
