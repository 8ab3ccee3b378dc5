// SPDX-License-Identifier: GPL-2.0
/*
 * Each disk's dev_t must be its own, and the kernel's three views of it
 * must agree: the /dev node (a block device with that st_rdev), the
 * /sys/dev/block/MAJ:MIN link (back to the same disk) and its line in
 * /proc/partitions (same numbers, same size).  Then its first 4 KiB is
 * read with O_DIRECT, so the read reaches the device.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "census.h"
#include "sysfs.h"

void census_fail(struct census *c, const struct disk *d, const char *check,
		 int err, const char *fmt, ...)
{
	struct failure *f;
	va_list ap;

	c->failures_total++;
	if (!strcmp(check, "open") || !strcmp(check, "read"))
		c->read_failed++;
	else if (!strcmp(check, "by-id"))
		;	/* counted by links.c */
	else if (strcmp(check, "devt-unique") && !census_identity_check(check))
		c->consistency_errors++;
	if (c->nfailures >= c->max_failures)
		return;
	f = &c->failures[c->nfailures++];
	snprintf(f->disk, sizeof(f->disk), "%s", d->name);
	snprintf(f->serial, sizeof(f->serial), "%s", d->serial);
	f->check = check;
	f->err = err;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

/* Sorting puts equal dev_ts next to each other: n log n, not n^2. */
static void check_unique(struct census *c)
{
	struct devlist_item *items;
	size_t i, n = 0, counted = 0;
	const struct disk *d, *prev;

	items = calloc(c->ndisks ? c->ndisks : 1, sizeof(*items));
	if (!items) {
		report_error(&c->rep, "out of memory");
		return;
	}
	for (i = 0; i < c->ndisks; i++) {
		if (!c->disks[i].have_dev)
			continue;
		items[n].major = c->disks[i].major;
		items[n].minor = c->disks[i].minor;
		items[n].index = i;
		n++;
	}
	devlist_sort(items, n);
	for (i = 1; i < n; i++) {
		if (items[i].major != items[i - 1].major ||
		    items[i].minor != items[i - 1].minor)
			continue;
		d = &c->disks[items[i].index];
		prev = &c->disks[items[i - 1].index];
		c->devt_duplicates++;
		census_fail(c, d, "devt-unique", 0, "%u:%u is also %s",
			    d->major, d->minor, prev->name);
	}
	c->devt_duplicates += c->parts.duplicates;

	/* the distribution is over the disks that count, still sorted */
	for (i = 0; i < n; i++)
		if (census_counted(&c->disks[items[i].index]))
			items[counted++] = items[i];
	if (devlist_summarize(items, counted, &c->devs))
		report_error(&c->rep, "out of memory");
	free(items);
}

static void check_dev_node(struct census *c, const struct disk *d)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", c->paths.dev, d->name);
	if (stat(path, &st)) {
		census_fail(c, d, "dev-node", errno, "stat %s", path);
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		census_fail(c, d, "dev-node", 0, "%s is not a block device",
			    path);
		return;
	}
	if (major(st.st_rdev) != d->major || minor(st.st_rdev) != d->minor)
		census_fail(c, d, "dev-node", 0, "%s is %u:%u, sysfs says %u:%u",
			    path, major(st.st_rdev), minor(st.st_rdev),
			    d->major, d->minor);
}

static void check_sys_dev(struct census *c, const struct disk *d)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	long ret;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", c->paths.sysfs,
		 d->major, d->minor);
	ret = sysfs_link_name(path, name, sizeof(name));
	if (ret < 0)
		census_fail(c, d, "sys-dev-block", (int)-ret, "readlink %u:%u",
			    d->major, d->minor);
	else if (strcmp(name, d->name))
		census_fail(c, d, "sys-dev-block", 0, "%u:%u leads to %s",
			    d->major, d->minor, name);
}

/* Disks of size 0 are not listed (block/genhd.c show_partition). */
static void check_partitions(struct census *c, const struct disk *d)
{
	const struct part_entry *p;

	p = partitions_find(&c->parts, d->major, d->minor);
	if (!d->sectors) {
		if (p)
			census_fail(c, d, "proc-partitions", 0,
				    "listed as %s although its size is 0",
				    p->name);
		return;
	}
	if (!p) {
		census_fail(c, d, "proc-partitions", 0, "%u:%u not listed",
			    d->major, d->minor);
		return;
	}
	if (strcmp(p->name, d->name))
		census_fail(c, d, "proc-partitions", 0, "%u:%u is listed as %s",
			    d->major, d->minor, p->name);
	else if (p->blocks != d->sectors / 2)
		census_fail(c, d, "proc-partitions", 0,
			    "%llu KiB listed, sysfs size is %llu sectors",
			    (unsigned long long)p->blocks,
			    (unsigned long long)d->sectors);
}

static void read_disk(struct census *c, struct disk *d, void *buf)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", c->paths.dev, d->name);
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		census_fail(c, d, "open", errno, "open O_DIRECT");
		return;
	}
	n = pread(fd, buf, CENSUS_READ_SIZE, 0);
	if (n < 0)
		census_fail(c, d, "read", errno, "first %d bytes",
			    CENSUS_READ_SIZE);
	else if (n != CENSUS_READ_SIZE)
		census_fail(c, d, "read", 0, "short read: %zd of %d bytes", n,
			    CENSUS_READ_SIZE);
	else
		d->read_ok = true;
	close(fd);
}

static void check_expectations(struct census *c)
{
	enum disk_kind k;

	for (k = 0; k < DISK_OTHER; k++)
		if (c->found[k] != c->expect[k].count)
			report_error(&c->rep, "%s: %zu disks found, %lu expected",
				     disk_kind_names[k], c->found[k],
				     c->expect[k].count);
}

/*
 * One line for all per-disk failures, naming the first first (it ends
 * stderr, so it is the step's message, and may be cut at its end).
 */
static void summarise_failures(struct census *c)
{
	const struct failure *f = c->nfailures ? &c->failures[0] : NULL;
	const struct identity *id = &c->id;
	char who[2 * DISKSIG_ID_SIZE + 4] = "?";

	if (!c->failures_total && !c->devt_duplicates)
		return;
	if (f && f->serial[0] && strcmp(f->serial, f->disk))
		snprintf(who, sizeof(who), "%s (%s)", f->disk, f->serial);
	else if (f)
		snprintf(who, sizeof(who), "%s", f->disk);
	report_error(&c->rep,
		     "%s: %s: %s%s%s; %zu failed reads, %zu consistency errors, %zu repeated dev_t, identity %zu mismatched %zu missing %zu duplicated %zu unexpected, %zu off the dev_t scheme, %zu without a by-id link",
		     who, f ? f->check : "?", f ? f->detail : "",
		     f && f->err ? ": " : "", f && f->err ? strerror(f->err) : "",
		     c->read_failed, c->consistency_errors, c->devt_duplicates,
		     id->mismatched, id->missing, id->duplicated,
		     id->unexpected, c->scheme.failed,
		     c->links.disks_without_by_id);
}

void census_verify(struct census *c)
{
	struct disk *d;
	void *buf = NULL;
	size_t i;

	check_unique(c);
	if (c->read_disks && posix_memalign(&buf, CENSUS_READ_SIZE,
					    CENSUS_READ_SIZE)) {
		report_error(&c->rep, "out of memory");
		return;
	}
	for (i = 0; i < c->ndisks; i++) {
		d = &c->disks[i];
		if (!d->have_dev)
			continue;
		check_dev_node(c, d);
		check_sys_dev(c, d);
		check_partitions(c, d);
		if (buf && census_counted(d)) {
			read_disk(c, d, buf);
			if (d->read_ok)
				c->read_ok++;
		}
		if (census_counted(d)) {
			census_identify(c, i, d->read_ok ? buf : NULL);
			census_devt_scheme(c, d);
		}
	}
	free(buf);
	if (c->links.dir)
		census_links(c);
	census_identity_finish(c);
	check_expectations(c);
	summarise_failures(c);	/* last: the step's message is stderr's last line */
}
