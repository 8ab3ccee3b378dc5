// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel says there is: /proc/devices and /proc/partitions, read
 * once each, and every entry of /sys/block with its dev, size and kind.
 * A few small reads per disk and no process per disk: this runs with
 * thousands of disks under an emulated CPU.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "sysfs.h"

/* "MAJ:MIN" as in /sys/block/<name>/dev: decimal, nothing else. */
static int parse_dev(const char *text, uint32_t *major, uint32_t *minor)
{
	unsigned long ma, mi;
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	ma = strtoul(text, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return -1;
	mi = strtoul(end + 1, &end, 10);
	if (*end || ma > 4095 || mi > 1048575)
		return -1;
	*major = (uint32_t)ma;
	*minor = (uint32_t)mi;
	return 0;
}

static int parse_u64(const char *text, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return -1;
	*val = v;
	return 0;
}

static void read_proc_devices(struct census *c)
{
	char path[PATH_MAX], err[REPORT_ERROR_LEN];

	snprintf(path, sizeof(path), "%s/devices", c->paths.proc);
	if (procdev_load(path, &c->pd, NULL, err, sizeof(err)))
		report_error(&c->rep, "%s", err);
	else
		c->have_pd = true;
}

static int read_proc_partitions(struct census *c)
{
	char path[PATH_MAX], err[160], *text;
	long len;
	int ret;

	snprintf(path, sizeof(path), "%s/partitions", c->paths.proc);
	len = procdev_read_file(path, &text);
	if (len < 0) {
		report_error(&c->rep, "%s: %s", path, strerror((int)-len));
		return -1;
	}
	ret = partitions_parse(text, (size_t)len, &c->parts, err, sizeof(err));
	if (ret)
		report_error(&c->rep, "%s: %s", path, err);
	free(text);
	return ret;
}

static struct disk *add_disk(struct census *c, const char *name)
{
	struct disk *v;

	if (c->ndisks == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;

		v = realloc(c->disks, cap * sizeof(*v));
		if (!v)
			return NULL;
		c->disks = v;
		c->cap = cap;
	}
	v = &c->disks[c->ndisks++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* dev and size of /sys/block/<name>; a failure is a consistency error. */
static void read_attrs(struct census *c, struct disk *d)
{
	char path[PATH_MAX], text[64];
	long ret;

	snprintf(path, sizeof(path), "%s/block/%s/dev", c->paths.sysfs,
		 d->name);
	ret = sysfs_read(path, text, sizeof(text));
	if (ret < 0) {
		census_fail(c, d, "sysfs-dev", (int)-ret, "cannot read dev");
		return;
	}
	if (parse_dev(text, &d->major, &d->minor)) {
		census_fail(c, d, "sysfs-dev", 0, "dev is '%.40s'", text);
		return;
	}
	snprintf(path, sizeof(path), "%s/block/%s/size", c->paths.sysfs,
		 d->name);
	ret = sysfs_read(path, text, sizeof(text));
	if (ret < 0) {
		census_fail(c, d, "sysfs-size", (int)-ret, "cannot read size");
		return;
	}
	if (parse_u64(text, &d->sectors)) {
		census_fail(c, d, "sysfs-size", 0, "size is '%.40s'", text);
		return;
	}
	d->have_dev = true;
}

static int cmp_name(const void *a, const void *b)
{
	const struct disk *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int census_scan(struct census *c)
{
	char path[PATH_MAX];
	struct disk_kinds dk;
	struct dirent *de;
	struct disk *d;
	DIR *dir;

	read_proc_devices(c);
	if (read_proc_partitions(c))
		return -1;
	snprintf(path, sizeof(path), "%s/block", c->paths.sysfs);
	dir = opendir(path);
	if (!dir) {
		report_error(&c->rep, "%s: %s", path, strerror(errno));
		return -1;
	}
	disk_kinds_init(&dk, c->paths.sysfs, c->have_pd ? &c->pd : NULL);
	while ((errno = 0, de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (strlen(de->d_name) >= CENSUS_NAME_SIZE) {
			report_error(&c->rep, "%s/%.64s: name too long", path,
				     de->d_name);
			continue;
		}
		d = add_disk(c, de->d_name);
		if (!d) {
			report_error(&c->rep, "out of memory");
			break;
		}
		read_attrs(c, d);
		d->kind = disk_kind_of(&dk, d->name, d->major, d->kind_why,
				       sizeof(d->kind_why));
		census_read_serial(c, d);
		c->found[d->kind]++;
	}
	if (errno)
		report_error(&c->rep, "%s: %s", path, strerror(errno));
	closedir(dir);
	disk_kinds_free(&dk);
	/* readdir order is the kernel's: sorted, failures read the same each run */
	if (c->ndisks > 1)
		qsort(c->disks, c->ndisks, sizeof(*c->disks), cmp_name);
	return 0;
}
