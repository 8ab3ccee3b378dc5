// SPDX-License-Identifier: GPL-2.0
/*
 * The links udev made for the disks: /dev/disk/by-id and by-path, each
 * entry a symlink to ../../<name>.  Every counted disk must have a by-id
 * link, except disks of a kind the plan excuses (Debian's
 * 60-persistent-storage.rules gives none to null_blk): a disk without
 * one fails check "by-id".  The paths of a LUN seen on several paths
 * (a plan group with paths) share their by-id names, so udev points each
 * name at one of them: a path without a link of its own passes when a
 * path of its LUN has one.  Each directory is read once and the disks
 * are found by name in a sorted index, so the cost stays n log n.
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census.h"

/* The plan's names for the kinds a disk may be excused by. */
static const char *const link_kinds[] = {
	"virtio_blk", "virtio_scsi", "scsi_debug", "null_blk",
};
#define LINK_KINDS (sizeof(link_kinds) / sizeof(*link_kinds))

static const char *link_kind(const struct disk *d)
{
	switch (d->kind) {
	case DISK_VIRTIO:
		return "virtio_blk";
	case DISK_SCSI:
		return "virtio_scsi";
	case DISK_SIM:
		/* scsi_debug disks are sd disks; null_blk ones have no device */
		return strncmp(d->kind_why, "sd on", 5) ? "null_blk" :
			"scsi_debug";
	default:
		return NULL;
	}
}

int census_links_excuse(struct census *c, const char *kinds)
{
	char buf[128], *tok, *save = NULL;
	size_t i;

	if (!kinds || !kinds[0])
		return 0;
	if (strlen(kinds) >= sizeof(buf))
		return -1;
	strcpy(buf, kinds);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < LINK_KINDS; i++)
			if (!strcmp(tok, link_kinds[i]))
				break;
		if (i == LINK_KINDS)
			return -1;
		c->links.excused |= 1u << i;
	}
	return 0;
}

static bool excused(const struct census *c, const struct disk *d)
{
	const char *kind = link_kind(d);
	size_t i;

	for (i = 0; kind && i < LINK_KINDS; i++)
		if (!strcmp(kind, link_kinds[i]))
			return c->links.excused & (1u << i);
	return false;
}

static const struct census *sort_census;

static int by_name(const void *a, const void *b)
{
	return strcmp(sort_census->disks[*(const size_t *)a].name,
		      sort_census->disks[*(const size_t *)b].name);
}

static struct disk *find(struct census *c, const size_t *index,
			 const char *name)
{
	size_t lo = 0, hi = c->ndisks, mid;
	int cmp;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		cmp = strcmp(name, c->disks[index[mid]].name);
		if (!cmp)
			return &c->disks[index[mid]];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Count the links of dir/sub per disk; by_id says which counter. */
static void read_dir(struct census *c, const size_t *index, const char *sub,
		     bool by_id)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	struct dirent *de;
	struct disk *d;
	ssize_t n;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s", c->links.dir, sub);
	dir = opendir(path);
	if (!dir) {
		/* no directory: no disk has such a link */
		if (errno != ENOENT)
			report_error(&c->rep, "%s: %s", path, strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		n = readlinkat(dirfd(dir), de->d_name, target,
			       sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		d = find(c, index, base);
		if (by_id)
			c->links.by_id_links++;
		else
			c->links.by_path_links++;
		if (!d)
			continue;	/* a partition's, or another device's */
		if (by_id)
			d->by_id_links++;
		else
			d->by_path_links++;
	}
	closedir(dir);
}

/* The census disk that first had d's serial, for a LUN with paths. */
static struct disk *lun_first(struct census *c, const struct disk *d)
{
	struct plan_group *g;
	unsigned long index;

	if (!c->have_plan || !d->serial[0])
		return NULL;
	g = diskplan_find(&c->plan, d->serial, &index);
	if (!g || g->paths < 2 || g->seen[index] < 0)
		return NULL;
	return &c->disks[g->seen[index]];
}

void census_links(struct census *c)
{
	struct census_links *l = &c->links;
	struct disk *d, *first;
	size_t *index, i;

	index = calloc(c->ndisks ? c->ndisks : 1, sizeof(*index));
	if (!index) {
		report_error(&c->rep, "out of memory");
		return;
	}
	for (i = 0; i < c->ndisks; i++)
		index[i] = i;
	sort_census = c;
	qsort(index, c->ndisks, sizeof(*index), by_name);
	read_dir(c, index, "by-id", true);
	read_dir(c, index, "by-path", false);
	free(index);
	l->checked = true;
	for (i = 0; i < c->ndisks; i++) {
		d = &c->disks[i];
		if (census_counted(d) && d->by_id_links && (first = lun_first(c, d)))
			first->lun_by_id = true;
	}
	for (i = 0; i < c->ndisks; i++) {
		d = &c->disks[i];
		if (!census_counted(d))
			continue;
		if (d->by_path_links)
			l->disks_with_by_path++;
		if (d->by_id_links) {
			l->disks_with_by_id++;
			continue;
		}
		if ((first = lun_first(c, d)) && first->lun_by_id) {
			l->disks_with_lun_by_id++;
			continue;
		}
		if (excused(c, d)) {
			l->disks_excused++;
			continue;
		}
		l->disks_without_by_id++;
		census_fail(c, d, "by-id", 0, "no link in %s/by-id", l->dir);
	}
}

void census_links_json(struct json *j, const struct census *c)
{
	const struct census_links *l = &c->links;
	size_t i;

	if (!l->checked) {
		json_null(j, "links");
		return;
	}
	json_object_begin(j, "links");
	json_string(j, "dir", l->dir);
	json_array_begin(j, "excused_kinds");
	for (i = 0; i < LINK_KINDS; i++)
		if (l->excused & (1u << i))
			json_string(j, NULL, link_kinds[i]);
	json_array_end(j);
	json_uint(j, "by_id_links", l->by_id_links);
	json_uint(j, "by_path_links", l->by_path_links);
	json_uint(j, "disks_with_by_id", l->disks_with_by_id);
	json_uint(j, "disks_without_by_id", l->disks_without_by_id);
	json_uint(j, "disks_excused", l->disks_excused);
	json_uint(j, "disks_with_lun_by_id", l->disks_with_lun_by_id);
	json_uint(j, "disks_with_by_path", l->disks_with_by_path);
	json_object_end(j);
}
