// SPDX-License-Identifier: GPL-2.0
/* Disk kinds from sysfs (see diskkind.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskkind.h"
#include "sysfs.h"

const char *const disk_kind_names[DISK_KINDS] = {
	[DISK_VIRTIO] = "virtio",
	[DISK_SCSI] = "scsi",
	[DISK_SIM] = "sim",
	[DISK_OTHER] = "other",
};

void disk_kinds_init(struct disk_kinds *dk, const char *sysfs_root,
		     const struct procdevices *pd)
{
	memset(dk, 0, sizeof(*dk));
	dk->sysfs_root = sysfs_root;
	dk->pd = pd;
}

void disk_kinds_free(struct disk_kinds *dk)
{
	free(dk->hosts);
	dk->hosts = NULL;
	dk->nhosts = dk->cap = 0;
}

/* proc_name of SCSI host N, read once per host: there are few hosts. */
static const char *host_name(struct disk_kinds *dk, unsigned int host)
{
	char path[PATH_MAX], name[sizeof(dk->hosts->proc_name)];
	struct scsi_host_name *h;
	size_t i;

	for (i = 0; i < dk->nhosts; i++)
		if (dk->hosts[i].host == host)
			return dk->hosts[i].proc_name;
	snprintf(path, sizeof(path), "%s/class/scsi_host/host%u/proc_name",
		 dk->sysfs_root, host);
	if (sysfs_read(path, name, sizeof(name)) <= 0)
		return NULL;	/* not cached: a later disk may find it */
	if (dk->nhosts == dk->cap) {
		size_t cap = dk->cap ? dk->cap * 2 : 8;

		h = realloc(dk->hosts, cap * sizeof(*h));
		if (!h)
			return NULL;
		dk->hosts = h;
		dk->cap = cap;
	}
	h = &dk->hosts[dk->nhosts++];
	h->host = host;
	memcpy(h->proc_name, name, sizeof(name));
	return h->proc_name;
}

static enum disk_kind scsi_kind(struct disk_kinds *dk, const char *hctl,
				char *why, size_t len)
{
	unsigned int host, chan, target, lun;
	const char *proc_name;
	int end = 0;

	if (sscanf(hctl, "%u:%u:%u:%u%n", &host, &chan, &target, &lun,
		   &end) != 4 || hctl[end]) {
		snprintf(why, len, "sd device '%s' is not H:C:T:L", hctl);
		return DISK_OTHER;
	}
	proc_name = host_name(dk, host);
	if (!proc_name) {
		snprintf(why, len, "sd on host%u without proc_name", host);
		return DISK_OTHER;
	}
	snprintf(why, len, "sd on %s host%u", proc_name, host);
	/* QEMU's SCSI disks: on virtio-scsi, or on an emulated SAS HBA */
	if (!strcmp(proc_name, "virtio_scsi") || !strcmp(proc_name, "mptsas"))
		return DISK_SCSI;
	if (!strcmp(proc_name, "scsi_debug"))
		return DISK_SIM;
	return DISK_OTHER;
}

enum disk_kind disk_kind_of(struct disk_kinds *dk, const char *name,
			    uint32_t major, char *why, size_t len)
{
	char path[PATH_MAX], device[NAME_MAX + 1], driver[NAME_MAX + 1];
	char dummy[1];
	const char *major_name;
	long ret;

	if (!why) {
		why = dummy;
		len = sizeof(dummy);
	}
	snprintf(path, sizeof(path), "%s/block/%s/device", dk->sysfs_root,
		 name);
	ret = sysfs_link_name(path, device, sizeof(device));
	if (ret == -ENOENT) {
		/* null_blk disks hang off no device: their major tells */
		major_name = dk->pd ? procdev_block_name(dk->pd, (int)major) :
			     NULL;
		snprintf(why, len, "no device, major %u is %s", major,
			 major_name ? major_name : "not in /proc/devices");
		if (major_name && !strcmp(major_name, "nullb"))
			return DISK_SIM;
		return DISK_OTHER;
	}
	if (ret < 0) {
		snprintf(why, len, "device link: %s", strerror((int)-ret));
		return DISK_OTHER;
	}
	snprintf(path, sizeof(path), "%s/block/%s/device/driver",
		 dk->sysfs_root, name);
	ret = sysfs_link_name(path, driver, sizeof(driver));
	if (ret < 0) {
		snprintf(why, len, "device %s without driver", device);
		return DISK_OTHER;
	}
	if (!strcmp(driver, "virtio_blk")) {
		snprintf(why, len, "virtio_blk on %s", device);
		return DISK_VIRTIO;
	}
	if (!strcmp(driver, "sd"))
		return scsi_kind(dk, device, why, len);
	snprintf(why, len, "driver %s", driver);
	return DISK_OTHER;
}
