/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kind of disk /sys/block/<name> is, decided from sysfs rather than
 * from the name: the driver of its device (virtio_blk; sd), for SCSI disks
 * the host's template name (/sys/class/scsi_host/hostN/proc_name:
 * virtio_scsi, mptsas or scsi_debug) and, for disks without a device (null_blk),
 * the name of the block major in /proc/devices.
 */
#ifndef BLKSCALE_DISKKIND_H
#define BLKSCALE_DISKKIND_H

#include <stddef.h>
#include <stdint.h>

#include "procdevices.h"

enum disk_kind {
	DISK_VIRTIO,	/* virtio-blk */
	DISK_SCSI,	/* sd on a virtio-scsi or mptsas (SAS HBA) host */
	DISK_SIM,	/* in-guest simulators: sd on scsi_debug, null_blk */
	DISK_OTHER,	/* anything else: not counted as a disk */
	DISK_KINDS,
};

extern const char *const disk_kind_names[DISK_KINDS];

struct scsi_host_name {
	unsigned int host;
	char proc_name[32];
};

/* Where sysfs is, and what has been learnt about SCSI hosts so far. */
struct disk_kinds {
	const char *sysfs_root;
	const struct procdevices *pd;
	struct scsi_host_name *hosts;
	size_t nhosts, cap;
};

/* pd: /proc/devices, for the names of block majors (may be NULL). */
void disk_kinds_init(struct disk_kinds *dk, const char *sysfs_root,
		     const struct procdevices *pd);
void disk_kinds_free(struct disk_kinds *dk);

/*
 * The kind of the disk called name, whose block major is given; why (if
 * not NULL) receives how it was decided, e.g. "sd on virtio_scsi host2".
 */
enum disk_kind disk_kind_of(struct disk_kinds *dk, const char *name,
			    uint32_t major, char *why, size_t len);

#endif
