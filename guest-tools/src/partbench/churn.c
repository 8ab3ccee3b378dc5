// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaved read: a proc listing of disks read one page per read(),
 * as seq_file hands it out, while SCSI disks go and come.  After the
 * first page a disk that page listed is deleted (device/delete), and
 * disks deleted before the read are scanned back (the host's scan, "C T
 * L"); then the read goes on to EOF.  Every disk of a quiet read taken
 * just before, less the one deleted, must be listed exactly once: a
 * kernel that finds its place again by counting disks from the first
 * (disk_seqf_start()) lists the disk after the page boundary one
 * position too late, and skips it.  At the end every host that lost a
 * disk is scanned ("- - -") until the listing is as long as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "churn.h"
#include "clock.h"
#include "errname.h"
#include "procdevices.h"
#include "sysfs.h"

#define SYS_BLOCK "/sys/block"
#define SCSI_HOST_SCAN "/sys/class/scsi_host/host%u/scan"

static int write_attr(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t w;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, text, len);
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* A whole SCSI disk that can be deleted: its name and H:C:T:L. */
static bool scsi_disk(const char *name, struct pb_disk *d)
{
	char path[PATH_MAX], hctl[64];

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/device/delete", name);
	if (access(path, W_OK))
		return false;
	snprintf(path, sizeof(path), SYS_BLOCK "/%s/device", name);
	if (sysfs_link_name(path, hctl, sizeof(hctl)) < 0 ||
	    sscanf(hctl, "%u:%u:%u:%llu", &d->host, &d->channel, &d->target,
		   &d->lun) != 4)
		return false;
	snprintf(d->name, sizeof(d->name), "%s", name);
	return true;
}

static int delete_disk(const struct pb_disk *d)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/device/delete", d->name);
	return write_attr(path, "1");
}

static int scan_lun(const struct pb_disk *d)
{
	char path[PATH_MAX], what[96];

	snprintf(path, sizeof(path), SCSI_HOST_SCAN, d->host);
	snprintf(what, sizeof(what), "%u %u %llu", d->channel, d->target,
		 d->lun);
	return write_attr(path, what);
}

static int scan_host(unsigned int host)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SCSI_HOST_SCAN, host);
	return write_attr(path, "- - -");
}

/* A quiet full read of f, parsed. */
static int quiet_read(const struct pb_file *f, struct partitions *pt,
		      struct report *rep)
{
	char err[REPORT_ERROR_LEN];
	char *text;
	long len;

	len = procdev_read_file(f->path, &text);
	if (len < 0) {
		report_error(rep, "%s: %s", f->path, errno_name((int)len));
		return -1;
	}
	if (f->parse(text, (size_t)len, pt, err, sizeof(err))) {
		report_error(rep, "%s: %s", f->path, err);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/*
 * Up to n deletable disks from the end of pt (sorted by dev_t: the disks
 * registered last, far from the first page), into d.
 */
static size_t pick_late_disks(const struct partitions *pt, size_t n,
			      struct pb_disk *d)
{
	size_t i, got = 0;

	for (i = pt->n; i-- > 0 && got < n;)
		if (scsi_disk(pt->v[i].name, &d[got]))
			got++;
	return got;
}

/* Read fd one page at a time to EOF, appending to *text. */
static int read_pages(int fd, size_t page, char **text, size_t *len,
		      size_t *cap, size_t *calls, bool once)
{
	char *b;
	ssize_t r;

	for (;;) {
		if (*cap - *len < page) {
			b = realloc(*text, *cap * 2 + page);
			if (!b)
				return -ENOMEM;
			*text = b;
			*cap = *cap * 2 + page;
		}
		r = read(fd, *text + *len, page);
		(*calls)++;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0 || once) {
			*len += (size_t)r;
			return 0;
		}
		*len += (size_t)r;
	}
}

/* The complete lines of text[0, len). */
static size_t whole_lines(const char *text, size_t len)
{
	while (len && text[len - 1] != '\n')
		len--;
	return len;
}

/*
 * Scan the hosts of the disks taken away until f lists as many entries
 * as want, or timeout_s passes.
 */
static void restore(struct pb_file *f, size_t want, unsigned long timeout_s,
		    struct report *rep)
{
	struct pb_churn *c = &f->churn;
	struct partitions pt;
	uint64_t t0 = now_ns(), limit = (uint64_t)timeout_s * 1000000000ull;
	size_t i;
	int ret;

	ret = c->deleted.name[0] ? scan_host(c->deleted.host) : 0;
	for (i = 0; !ret && i < c->nreadded; i++)
		if (!c->deleted.name[0] || c->readded[i].host != c->deleted.host)
			ret = scan_host(c->readded[i].host);
	if (ret) {
		report_error(rep, "%s: host scan to put the disks back: %s",
			     f->name, errno_name(ret));
		return;
	}
	for (;;) {
		if (quiet_read(f, &pt, rep))
			return;
		c->entries_after = pt.n;
		partitions_free(&pt);
		if (c->entries_after >= want || now_ns() - t0 > limit)
			break;
		usleep(100000);
	}
	c->restore_s = (double)(now_ns() - t0) / 1e9;
	c->restored = c->entries_after == want;
	if (!c->restored)
		report_error(rep,
			     "%s: %zu entries listed after putting the disks back, %zu before",
			     f->name, c->entries_after, want);
}

int pb_churn_run(struct pb_file *f, unsigned int adds,
		 unsigned long restore_timeout_s, struct report *rep)
{
	struct pb_churn *c = &f->churn;
	struct partitions first = { 0 }, before = { 0 }, start = { 0 },
			  listed = { 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 0, cap = 0, i;
	char err[REPORT_ERROR_LEN], *text = NULL;
	const char *excluded[1];
	bool taken = false;
	int fd = -1, ret = -1, r;

	memset(c, 0, sizeof(*c));
	if (quiet_read(f, &start, rep))
		return -1;
	c->entries_before = start.n;
	/* the disks to add during the read: taken away first */
	if (adds > PB_MAX_ADDS)
		adds = PB_MAX_ADDS;
	c->nreadded = pick_late_disks(&start, adds, c->readded);
	for (i = 0; i < c->nreadded; i++) {
		r = delete_disk(&c->readded[i]);
		if (r) {
			report_error(rep, "%s: delete %s: %s", f->name,
				     c->readded[i].name, errno_name(r));
			c->nreadded = i;
			goto out;
		}
		taken = true;
	}
	if (quiet_read(f, &before, rep))
		goto out;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	cap = 4 * page;
	text = malloc(cap);
	if (fd < 0 || !text) {
		report_error(rep, "%s: %s", f->path,
			     fd < 0 ? errno_name(-errno) : "out of memory");
		goto out;
	}
	r = read_pages(fd, page, &text, &len, &cap, &c->read_calls, true);
	if (r) {
		report_error(rep, "%s: first read: %s", f->path, errno_name(r));
		goto out;
	}
	if (f->parse(text, whole_lines(text, len), &first, err, sizeof(err))) {
		report_error(rep, "%s: first page: %s", f->path, err);
		goto out;
	}
	c->first_page_entries = first.n;
	if (first.n >= before.n) {
		snprintf(c->why, sizeof(c->why),
			 "the first read() listed all %zu entries: nothing left to skip",
			 before.n);
		goto not_run;
	}
	for (i = 0; i < first.n; i++)
		if (scsi_disk(first.v[i].name, &c->deleted))
			break;
	if (i == first.n) {
		snprintf(c->why, sizeof(c->why),
			 "no SCSI disk with device/delete among the %zu entries of the first page",
			 first.n);
		goto not_run;
	}
	/* adds first: they go to the end of the class, deleting shifts */
	for (i = 0; i < c->nreadded; i++) {
		r = scan_lun(&c->readded[i]);
		if (r) {
			report_error(rep, "%s: scan %u:%u:%u:%llu: %s", f->name,
				     c->readded[i].host, c->readded[i].channel,
				     c->readded[i].target, c->readded[i].lun,
				     errno_name(r));
			goto out;
		}
	}
	r = delete_disk(&c->deleted);
	if (r) {
		report_error(rep, "%s: delete %s: %s", f->name,
			     c->deleted.name, errno_name(r));
		goto out;
	}
	taken = true;
	r = read_pages(fd, page, &text, &len, &cap, &c->read_calls, false);
	if (r) {
		report_error(rep, "%s: read: %s", f->path, errno_name(r));
		goto out;
	}
	c->bytes = len;
	if (f->parse(text, len, &listed, err, sizeof(err))) {
		report_error(rep, "%s: interleaved read: %s", f->path, err);
		goto out;
	}
	c->listed = listed.n;
	excluded[0] = c->deleted.name;
	r = listcheck_compare(&before, &listed, excluded, 1, &c->lc);
	if (r) {
		report_error(rep, "%s: %s", f->name, r == -EINVAL ?
			     "the quiet read before lists a name twice" :
			     "out of memory");
		goto out;
	}
	c->run = true;
	ret = 0;
	goto out;
not_run:
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(text);
	if (taken)
		restore(f, start.n, restore_timeout_s, rep);
	else {
		c->restored = true;
		c->entries_after = c->entries_before;
	}
	partitions_free(&first);
	partitions_free(&before);
	partitions_free(&start);
	partitions_free(&listed);
	return ret;
}

static void json_names(struct json *j, const char *key,
		       const struct name_set *s)
{
	size_t i;

	json_array_begin_inline(j, key);
	for (i = 0; i < s->n && i < PB_MAX_NAMES; i++)
		json_string(j, NULL, s->v[i]);
	json_array_end(j);
}

static void json_disk(struct json *j, const char *key,
		      const struct pb_disk *d)
{
	char hctl[96];

	json_object_begin(j, key);
	json_string(j, "name", d->name);
	snprintf(hctl, sizeof(hctl), "%u:%u:%u:%llu", d->host, d->channel,
		 d->target, d->lun);
	json_string(j, "hctl", hctl);
	json_object_end(j);
}

void pb_churn_json(struct json *j, const struct pb_file *f)
{
	const struct pb_churn *c = &f->churn;
	size_t i;

	json_object_begin(j, f->name);
	json_bool(j, "run", c->run);
	json_string(j, "reason", c->run ? NULL : c->why);
	json_uint(j, "entries_before", c->entries_before);
	json_uint(j, "first_page_entries", c->first_page_entries);
	if (c->run)
		json_disk(j, "deleted", &c->deleted);
	else
		json_null(j, "deleted");
	json_array_begin(j, "readded");
	for (i = 0; i < c->nreadded; i++)
		json_disk(j, NULL, &c->readded[i]);
	json_array_end(j);
	json_uint(j, "read_calls", c->read_calls);
	json_uint(j, "bytes", c->bytes);
	json_uint(j, "listed", c->listed);
	json_uint(j, "expected", c->lc.expected);
	json_uint(j, "added_listed", c->lc.added);
	json_uint(j, "missed_count", c->lc.missed.n);
	json_names(j, "missed", &c->lc.missed);
	json_uint(j, "repeated_count", c->lc.repeated.n);
	json_names(j, "repeated", &c->lc.repeated);
	if (c->run)
		json_bool(j, "complete",
			  !c->lc.missed.n && !c->lc.repeated.n);
	else
		json_null(j, "complete");
	json_bool(j, "restored", c->restored);
	json_double(j, "restore_s", c->restore_s);
	json_uint(j, "entries_after", c->entries_after);
	json_object_end(j);
}
