// SPDX-License-Identifier: GPL-2.0
/*
 * Disk kinds from sysfs (src/lib/diskkind.c, src/lib/sysfs.c) on a fake
 * sysfs tree laid out like a guest's: /sys/block/<disk> links into
 * /sys/devices, a device link per disk, driver links, SCSI hosts with
 * their proc_name, and null_blk disks with no device at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "compiler.h"
#include "diskkind.h"
#include "procdevices.h"
#include "sysfs.h"

#define PCI "devices/pci0000:00"

#define REL_MAX 512		/* paths inside the tree */
#define PATH_LEN 1024		/* the same with root in front */

static char root[64];

static void mkdirs(const char *rel)
{
	char path[PATH_LEN], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

static void link_to(const char *rel, const char *target)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path))
		fail_msg("symlink %s: %s", path, strerror(errno));
}

static void put(const char *rel, const char *text)
{
	char path[PATH_LEN];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* /sys/block/<name> -> ../<devdir>/block/<name>, as the kernel links it. */
static void block_disk(const char *name, const char *devdir, const char *dev)
{
	char rel[REL_MAX], target[REL_MAX + 16];

	snprintf(rel, sizeof(rel), "%s/block/%s", devdir, name);
	mkdirs(rel);
	snprintf(target, sizeof(target), "%s/dev", rel);
	put(target, dev);
	snprintf(target, sizeof(target), "../%s", rel);
	snprintf(rel, sizeof(rel), "block/%s", name);
	link_to(rel, target);
}

static void virtio_disk(const char *name, const char *virtio)
{
	char dir[REL_MAX / 2], rel[REL_MAX], target[REL_MAX];

	snprintf(dir, sizeof(dir), PCI "/0000:00:04.0/%s", virtio);
	block_disk(name, dir, "254:0\n");
	snprintf(rel, sizeof(rel), "%s/driver", dir);
	link_to(rel, "../../../../bus/virtio/drivers/virtio_blk");
	snprintf(rel, sizeof(rel), "%s/block/%s/device", dir, name);
	snprintf(target, sizeof(target), "../../../%s", virtio);
	link_to(rel, target);
}

/* A SCSI disk at hctl on a host whose template is proc_name. */
static void scsi_disk(const char *name, unsigned int host, const char *hctl,
		      const char *driver)
{
	char dir[REL_MAX / 2], rel[REL_MAX], target[REL_MAX];

	snprintf(dir, sizeof(dir), PCI "/0000:00:05.0/virtio9/host%u/target%u:0:0/%s",
		 host, host, hctl);
	block_disk(name, dir, "8:0\n");
	snprintf(rel, sizeof(rel), "%s/driver", dir);
	link_to(rel, driver);
	snprintf(rel, sizeof(rel), "%s/block/%s/device", dir, name);
	snprintf(target, sizeof(target), "../../../%s", hctl);
	link_to(rel, target);
}

static void add_host(unsigned int host, const char *proc_name)
{
	char rel[REL_MAX];

	snprintf(rel, sizeof(rel), "class/scsi_host/host%u", host);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "class/scsi_host/host%u/proc_name", host);
	put(rel, proc_name);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/census-kind.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mkdirs("block");
	mkdirs("bus/virtio/drivers/virtio_blk");
	mkdirs("bus/scsi/drivers/sd");
	mkdirs("devices/virtual/block");

	virtio_disk("vda", "virtio1");
	virtio_disk("vdb", "virtio2");
	add_host(0, "virtio_scsi\n");
	add_host(1, "scsi_debug\n");
	add_host(2, "ata_piix\n");
	scsi_disk("sda", 0, "0:0:0:0", "../../../../../../../../bus/scsi/drivers/sd");
	scsi_disk("sdb", 0, "0:0:0:1", "../../../../../../../../bus/scsi/drivers/sd");
	scsi_disk("sdc", 1, "1:0:0:0", "../../../../../../../../bus/scsi/drivers/sd");
	scsi_disk("sdd", 2, "2:0:0:0", "../../../../../../../../bus/scsi/drivers/sd");
	/* a host that is gone from class/scsi_host */
	scsi_disk("sde", 7, "7:0:0:0", "../../../../../../../../bus/scsi/drivers/sd");
	scsi_disk("sr0", 0, "0:0:1:0", "../../../../../../../../bus/scsi/drivers/sr");
	/* an sd device whose name is not H:C:T:L */
	scsi_disk("sdf", 0, "weird", "../../../../../../../../bus/scsi/drivers/sd");
	/* null_blk and zram: no device link */
	block_disk("nullb0", "devices/virtual", "252:0\n");
	block_disk("zram0", "devices/virtual", "251:0\n");
	/* a device without a driver */
	block_disk("vdz", PCI "/0000:00:06.0/virtio5", "254:400\n");
	link_to(PCI "/0000:00:06.0/virtio5/block/vdz/device",
		"../../../virtio5");
	return 0;
}

static int teardown(void **state)
{
	char cmd[sizeof(root) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static const char proc_devices[] =
	"Character devices:\n  1 mem\n\n"
	"Block devices:\n  8 sd\n251 zram\n252 nullb\n254 virtblk\n";

struct want {
	const char *name;
	uint32_t major;
	enum disk_kind kind;
	const char *why;
};

static void kinds(void **state)
{
	static const struct want want[] = {
		{ "vda", 254, DISK_VIRTIO, "virtio_blk on virtio1" },
		{ "vdb", 254, DISK_VIRTIO, "virtio_blk on virtio2" },
		{ "sda", 8, DISK_SCSI, "sd on virtio_scsi host0" },
		{ "sdb", 8, DISK_SCSI, "sd on virtio_scsi host0" },
		{ "sdc", 8, DISK_SIM, "sd on scsi_debug host1" },
		{ "sdd", 8, DISK_OTHER, "sd on ata_piix host2" },
		{ "sde", 8, DISK_OTHER, "sd on host7 without proc_name" },
		{ "sdf", 8, DISK_OTHER, "sd device 'weird' is not H:C:T:L" },
		{ "sr0", 11, DISK_OTHER, "driver sr" },
		{ "nullb0", 252, DISK_SIM, "no device, major 252 is nullb" },
		{ "zram0", 251, DISK_OTHER, "no device, major 251 is zram" },
		{ "vdz", 254, DISK_OTHER, "device virtio5 without driver" },
	};
	struct procdevices pd;
	struct disk_kinds dk;
	char why[128], err[160];
	enum disk_kind kind;
	size_t i;

	(void)state;
	assert_int_equal(procdev_parse(proc_devices, strlen(proc_devices), &pd,
				       err, sizeof(err)), 0);
	disk_kinds_init(&dk, root, &pd);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		why[0] = '\0';
		kind = disk_kind_of(&dk, want[i].name, want[i].major, why,
				    sizeof(why));
		assert_string_equal(why, want[i].why);
		assert_int_equal(kind, want[i].kind);
	}
	/* each host that exists was read once; host7, missing, is not kept */
	assert_int_equal(dk.nhosts, 3);
	disk_kinds_free(&dk);
	procdev_free(&pd);
}

/* The kind comes from sysfs, not from the name. */
static void names_do_not_decide(void **state)
{
	struct disk_kinds dk;
	char why[128];

	(void)state;
	/* no /proc/devices: a deviceless disk cannot be told to be null_blk */
	disk_kinds_init(&dk, root, NULL);
	assert_int_equal(disk_kind_of(&dk, "nullb0", 252, why, sizeof(why)),
			 DISK_OTHER);
	assert_string_equal(why, "no device, major 252 is not in /proc/devices");
	/* an sd name on a virtio-blk device is virtio */
	virtio_disk("sdq", "virtio3");
	assert_int_equal(disk_kind_of(&dk, "sdq", 254, NULL, 0), DISK_VIRTIO);
	assert_int_equal(disk_kind_of(&dk, "nothere", 8, why, sizeof(why)),
			 DISK_OTHER);
	disk_kinds_free(&dk);
}

static void attribute_reads(void **state)
{
	char path[PATH_LEN], buf[8];

	(void)state;
	snprintf(path, sizeof(path), "%s/block/vda/dev", root);
	assert_int_equal(sysfs_read(path, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "254:0");
	/* 6 bytes with the newline: a 6-byte buffer cannot hold it */
	assert_int_equal(sysfs_read(path, buf, 6), -EFBIG);
	assert_int_equal(sysfs_read(path, buf, 7), 5);
	snprintf(path, sizeof(path), "%s/block/nothere/dev", root);
	assert_int_equal(sysfs_read(path, buf, sizeof(buf)), -ENOENT);

	snprintf(path, sizeof(path), "%s/block/vda/device", root);
	assert_int_equal(sysfs_link_name(path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "virtio1");
	assert_int_equal(sysfs_link_name(path, buf, 7), -ENAMETOOLONG);
	snprintf(path, sizeof(path), "%s/block/vda/dev", root);
	assert_int_equal(sysfs_link_name(path, buf, sizeof(buf)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kinds),
		cmocka_unit_test(names_do_not_decide),
		cmocka_unit_test(attribute_reads),
	};

	return cmocka_run_group_tests_name("census_kind", tests, setup,
					   teardown);
}
