// SPDX-License-Identifier: GPL-2.0
/*
 * Is each disk the disk it should be?  Its serial (virtio-blk's serial
 * attribute; SCSI's unit serial number VPD page) must be one the plan
 * has, once, or once per path to a LUN of a group with several; its size must be its group's; on a file-backed disk, the
 * signature the launcher wrote into sector 0 of the image must name the
 * same serial and carry this run's nonce: the node with the dev_t sysfs
 * gives for the disk reaches that disk.  And each dev_t must be the one
 * its driver computes from the disk's name (sd_probe(),
 * virtblk_probe()), above minor 255 included.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "sysfs.h"

static const char *const identity_checks[] = {
	"serial", "size", "signature", "transport", "devt-scheme",
};

bool census_identity_check(const char *check)
{
	size_t i;

	for (i = 0; i < sizeof(identity_checks) / sizeof(*identity_checks); i++)
		if (!strcmp(check, identity_checks[i]))
			return true;
	return false;
}

void census_read_serial(struct census *c, struct disk *d)
{
	char path[PATH_MAX];
	unsigned char page[256];
	long ret;

	d->serial[0] = '\0';
	if (d->kind == DISK_VIRTIO) {
		snprintf(path, sizeof(path), "%s/block/%s/serial",
			 c->paths.sysfs, d->name);
		ret = sysfs_read(path, (char *)page, sizeof(page));
		if (ret > 0 && (size_t)ret < sizeof(d->serial))
			memcpy(d->serial, page, (size_t)ret + 1);
		return;
	}
	if (d->kind != DISK_SCSI)
		return;
	snprintf(path, sizeof(path), "%s/block/%s/device/vpd_pg80",
		 c->paths.sysfs, d->name);
	ret = sysfs_read(path, (char *)page, sizeof(page));
	if (ret > 0 && !vpd80_serial(page, (size_t)ret, d->serial,
				     sizeof(d->serial)))
		return;
	snprintf(path, sizeof(path), "%s/block/%s/device/serial",
		 c->paths.sysfs, d->name);
	ret = sysfs_read(path, (char *)page, sizeof(page));
	if (ret > 0 && (size_t)ret < sizeof(d->serial))
		memcpy(d->serial, page, (size_t)ret + 1);
}

static bool kind_matches(const struct plan_group *g, const struct disk *d)
{
	if (d->kind == DISK_VIRTIO)
		return !strcmp(g->kind, "virtio_blk");
	return !strcmp(g->kind, "virtio_scsi") || !strcmp(g->kind, "sas");
}

/*
 * A sas group's disk must have come through the SAS transport class:
 * mptsas adds a port, an end device and then the target for each SAS
 * device it finds, so the disk's device resolves below an end_device-H:N
 * directory; a disk the HBA exposed any other way does not.
 */
static bool check_transport(struct census *c, const struct disk *d,
			    const struct plan_group *g)
{
	char path[PATH_MAX], real[PATH_MAX];

	snprintf(path, sizeof(path), "%s/block/%s/device", c->paths.sysfs,
		 d->name);
	if (!realpath(path, real)) {
		census_fail(c, d, "transport", errno, "%s: device link",
			    d->serial);
		return false;
	}
	if (!strstr(real, "/end_device-")) {
		census_fail(c, d, "transport", 0,
			    "%s of sas group %s is not below a SAS end device",
			    d->serial, g->id);
		return false;
	}
	c->id.sas_transport++;
	return true;
}

static void check_signature(struct census *c, const struct disk *d,
			    const void *sector0)
{
	struct disksig sig;
	char why[96];

	c->id.signatures_checked++;
	if (disksig_parse(sector0, CENSUS_READ_SIZE, &sig, why, sizeof(why))) {
		census_fail(c, d, "signature", 0, "%s", why);
		return;
	}
	if (strcmp(sig.serial, d->serial)) {
		census_fail(c, d, "signature", 0,
			    "sector 0 is disk %s, sysfs says %s", sig.serial,
			    d->serial);
		return;
	}
	if (c->nonce && strcmp(sig.nonce, c->nonce)) {
		census_fail(c, d, "signature", 0,
			    "sector 0 is from another run (nonce %.16s)",
			    sig.nonce);
		return;
	}
	c->id.signatures_ok++;
}

/* Disk i of the census; sector0 is its first read, NULL if not read. */
void census_identify(struct census *c, size_t i, const void *sector0)
{
	const struct disk *d = &c->disks[i];
	struct plan_group *g;
	unsigned long index;
	size_t before;

	if (!c->have_plan || (d->kind != DISK_VIRTIO && d->kind != DISK_SCSI))
		return;
	c->id.checked++;
	c->id.checked_kind[d->kind]++;
	if (!d->serial[0]) {
		c->id.unexpected++;
		census_fail(c, d, "serial", 0, "the disk reports no serial");
		return;
	}
	g = diskplan_find(&c->plan, d->serial, &index);
	if (!g) {
		c->id.unexpected++;
		census_fail(c, d, "serial", 0, "%s is not a disk of the plan",
			    d->serial);
		return;
	}
	if (g->count[index] >= g->paths) {
		c->id.duplicated++;
		if (g->paths == 1)
			census_fail(c, d, "serial", 0,
				    "%s is also the serial of %s", d->serial,
				    c->disks[g->seen[index]].name);
		else
			census_fail(c, d, "serial", 0,
				    "%s has more than its %lu paths (%s is one)",
				    d->serial, g->paths,
				    c->disks[g->seen[index]].name);
		return;
	}
	if (g->seen[index] < 0)
		g->seen[index] = (long)i;
	g->count[index]++;
	before = c->failures_total;
	if (!kind_matches(g, d))
		census_fail(c, d, "serial", 0, "%s is a %s disk, group %s is %s",
			    d->serial, disk_kind_names[d->kind], g->id, g->kind);
	else if (d->sectors != g->sectors)
		census_fail(c, d, "size", 0,
			    "%s has %llu sectors, its group %llu", d->serial,
			    (unsigned long long)d->sectors,
			    (unsigned long long)g->sectors);
	else if ((strcmp(g->kind, "sas") || check_transport(c, d, g)) &&
		 g->is_signed && sector0)
		check_signature(c, d, sector0);
	if (c->failures_total != before)
		c->id.mismatched++;
	else {
		c->id.ok++;
		c->id.ok_kind[d->kind]++;
	}
}

void census_identity_finish(struct census *c)
{
	char serial[2 * DISKSIG_ID_SIZE];
	struct disk missing;
	unsigned long i;
	size_t g;

	if (!c->have_plan)
		return;
	memset(&missing, 0, sizeof(missing));
	for (g = 0; g < c->plan.n; g++)
		for (i = 0; i < c->plan.groups[g].disks; i++) {
			const struct plan_group *pg = &c->plan.groups[g];

			if (pg->count[i] >= pg->paths)
				continue;
			if (pg->count[i]) {
				c->id.missing += pg->paths - pg->count[i];
				snprintf(missing.name, sizeof(missing.name),
					 "%.31s", c->disks[pg->seen[i]].name);
				snprintf(missing.serial, sizeof(missing.serial),
					 "%.31s", c->disks[pg->seen[i]].serial);
				census_fail(c, &missing, "serial", 0,
					    "%s has %lu of its %lu paths",
					    missing.serial, pg->count[i],
					    pg->paths);
				continue;
			}
			c->id.missing += pg->paths;
			/* no guest disk has it: the serial names it */
			snprintf(serial, sizeof(serial), "%s-%lu",
				 c->plan.groups[g].id, i);
			snprintf(missing.name, sizeof(missing.name), "%.31s",
				 serial);
			snprintf(missing.serial, sizeof(missing.serial), "%.31s",
				 serial);
			census_fail(c, &missing, "serial", 0,
				    "no disk has serial %s", missing.serial);
		}
}

/* a..z, aa..zz, ...: sd_format_disk_name()'s index, or -1. */
static long name_index(const char *suffix)
{
	long n = 0;

	if (!*suffix)
		return -1;
	for (; *suffix; suffix++) {
		if (*suffix < 'a' || *suffix > 'z' || n > (1L << 24))
			return -1;
		n = n * 26 + (*suffix - 'a' + 1);
	}
	return n - 1;
}

/* drivers/scsi/sd.c: sd_major() */
static uint32_t sd_major(long i)
{
	if (i == 0)
		return 8;
	return i < 8 ? 64 + (uint32_t)i : 128 + (uint32_t)i - 8;
}

void census_devt_scheme(struct census *c, const struct disk *d)
{
	uint32_t major = d->major, minor;
	const char *what;
	long index;

	if (!d->have_dev)
		return;
	if (!strncmp(d->name, "sd", 2) && (index = name_index(d->name + 2)) >= 0) {
		/* sd_probe(): 16 minors a disk, 256 disks per major set */
		major = sd_major((index & 0xf0) >> 4);
		minor = (uint32_t)(((index & 0xf) << 4) | (index & 0xfff00));
		what = "sd";
	} else if (!strncmp(d->name, "vd", 2) &&
		   (index = name_index(d->name + 2)) >= 0) {
		/* virtblk_probe(): index_to_minor(), on virtblk's one major */
		minor = (uint32_t)index << 4;
		what = "virtio_blk";
	} else {
		return;
	}
	c->scheme.checked++;
	if (d->major == major && d->minor == minor) {
		c->scheme.ok++;
		if (what[0] == 's' && index >= 256) {
			c->scheme.sd_beyond_256++;
			/* and its node worked: census_verify() read it */
			if (d->read_ok || !c->read_disks)
				c->scheme.sd_beyond_256_ok++;
		}
		return;
	}
	if (what[0] == 's' && index >= 256)
		c->scheme.sd_beyond_256++;
	c->scheme.failed++;
	census_fail(c, d, "devt-scheme", 0, "%s is %u:%u, %s gives %s %u:%u",
		    d->name, d->major, d->minor, what, d->name, major, minor);
}

int census_write_serial_map(const struct census *c, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < c->ndisks; i++)
		if (c->disks[i].serial[0])
			fprintf(f, "%s %s\n", c->disks[i].serial,
				c->disks[i].name);
	if (fclose(f))
		return -errno;
	return 0;
}
