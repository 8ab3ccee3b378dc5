// SPDX-License-Identifier: GPL-2.0
/*
 * The driver core's glue directories in sysfs, once devices stopped
 * coming and going.  A class device whose parent has no class lives in a
 * directory named after its class under the parent (drivers/base/core.c,
 * get_device_parent()): devices/.../H:C:T:L/block/sda.  The checks:
 *  - every live SCSI device (bus/scsi/devices) has the glue directory of
 *    each configured class it should have (block and scsi_disk for a disk,
 *    scsi_device, scsi_generic and bsg for any), holding exactly one
 *    device, the one class/<class>/<name> leads to;
 *  - every class link of those classes leads to a device that exists,
 *    under a live SCSI device when it is under one at all;
 *  - no glue directory anywhere under devices/ is empty (the last device
 *    gone, cleanup_glue_dir() removes it) or sits under a SCSI device that
 *    left the bus.
 * A glue directory is a directory named after a class with no uevent
 * file: devices have one, the bare kobjects of glue directories do not.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gluecheck.h"
#include "sysfs.h"

#define MAX_DEPTH 32

/* The classes that hang a glue directory under a scsi_device. */
static const char *const scsi_classes[] = {
	"block", "scsi_disk", "scsi_device", "scsi_generic", "bsg",
};
/* Only a disk (type 0, bound to sd) has the first two. */
#define DISK_ONLY_CLASSES 2

struct names {
	char **v;
	size_t n, cap;
};

struct walk {
	const char *root;		/* as given */
	char real_root[PATH_MAX];
	size_t root_len;
	struct names live;		/* real paths of live SCSI devices */
	struct names classes;		/* every class in class/ */
	bool configured[ARRAY_SIZE(scsi_classes)];
	struct glue_stats *st;
	struct findings *f;
};

static int names_add(struct names *s, const char *name)
{
	char **v;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		v = realloc(s->v, s->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n])
		return -ENOMEM;
	s->n++;
	return 0;
}

static bool names_has(const struct names *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return true;
	return false;
}

static void names_free(struct names *s)
{
	while (s->n)
		free(s->v[--s->n]);
	free(s->v);
}

/* H:C:T:L, four decimal numbers. */
static bool is_hctl(const char *name)
{
	int fields = 0;
	const char *p = name;

	for (;;) {
		if (*p < '0' || *p > '9')
			return false;
		p += strspn(p, "0123456789");
		fields++;
		if (*p != ':')
			return fields == 4 && !*p;
		p++;
	}
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A path for messages: relative to the sysfs root. */
static const char *rel(const struct walk *w, const char *path)
{
	if (!strncmp(path, w->real_root, w->root_len) && path[w->root_len] == '/')
		return path + w->root_len + 1;
	return path;
}

/* dir/name into path; false when it does not fit. */
static bool join(char *path, size_t size, const char *dir, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < size;
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISDIR(sb.st_mode);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (!join(path, sizeof(path), dir, name))
		return false;
	return !access(path, F_OK);
}

/* The subdirectories of dir (not links), the first one's name to first. */
static long subdirs(const char *dir, char *first, size_t size)
{
	char path[PATH_MAX];
	struct dirent *de;
	long n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!join(path, sizeof(path), dir, de->d_name))
			continue;
		if (!is_dir(path))
			continue;
		if (!n++ && first)
			snprintf(first, size, "%s", de->d_name);
	}
	closedir(d);
	return n;
}

/* A SCSI device's directory: H:C:T:L right under its targetH:C:T. */
static bool is_scsi_device_dir(const char *path)
{
	char parent[PATH_MAX], *slash;

	if (!is_hctl(base(path)))
		return false;
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return !strncmp(base(parent), "target", 6);
}

static int read_lists(struct walk *w)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct dirent *de;
	size_t i;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class", w->root);
	d = opendir(path);
	if (!d) {
		finding(w->f, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && names_add(&w->classes, de->d_name))
			break;
	closedir(d);
	for (i = 0; i < ARRAY_SIZE(scsi_classes); i++) {
		w->configured[i] = names_has(&w->classes, scsi_classes[i]);
		if (!w->configured[i])
			continue;
		w->st->classes++;
		snprintf(w->st->class_names + strlen(w->st->class_names),
			 sizeof(w->st->class_names) - strlen(w->st->class_names),
			 "%s%s", w->st->classes > 1 ? " " : "", scsi_classes[i]);
	}

	/* no bus/scsi: no SCSI device, nothing live */
	snprintf(path, sizeof(path), "%s/bus/scsi/devices", w->root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!is_hctl(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/bus/scsi/devices/%s", w->root,
			 de->d_name);
		if (!realpath(path, real)) {
			finding(w->f, "bus/scsi/devices/%s leads nowhere",
				de->d_name);
			continue;
		}
		if (names_add(&w->live, real))
			break;
	}
	closedir(d);
	w->st->scsi_devices = w->live.n;
	return 0;
}

/* A live SCSI device's glue directories, each holding its one device. */
static void check_device(struct walk *w, const char *dev)
{
	char path[PATH_MAX], type[16] = "", child[256], link[PATH_MAX],
	     want[PATH_MAX], got[PATH_MAX];
	const char *name = base(dev);
	bool disk;
	long n;
	size_t i;

	snprintf(path, sizeof(path), "%s/type", dev);
	disk = sysfs_read(path, type, sizeof(type)) < 0 || !strcmp(type, "0");
	for (i = disk ? 0 : DISK_ONLY_CLASSES; i < ARRAY_SIZE(scsi_classes);
	     i++) {
		if (!w->configured[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dev, scsi_classes[i]);
		if (!is_dir(path)) {
			finding(w->f, "%s has no %s/ glue directory", name,
				scsi_classes[i]);
			continue;
		}
		n = subdirs(path, child, sizeof(child));
		if (n != 1) {
			finding(w->f, "%s/%s/ holds %ld devices, not one", name,
				scsi_classes[i], n);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/%s", dev, scsi_classes[i],
			 child);
		snprintf(link, sizeof(link), "%s/class/%s/%s", w->root,
			 scsi_classes[i], child);
		if (!realpath(path, got) || !realpath(link, want) ||
		    strcmp(want, got))
			finding(w->f, "class/%s/%s does not lead to %s's %s/%s",
				scsi_classes[i], child, name, scsi_classes[i],
				child);
	}
}

/* Every link of class/<class> leads to a device, under a live one. */
static void check_class(struct walk *w, const char *class)
{
	char dir[PATH_MAX], path[PATH_MAX], real[PATH_MAX], *slash;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/%s", w->root, class);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!join(path, sizeof(path), dir, de->d_name))
			continue;
		if (!realpath(path, real) || !exists(real, "uevent")) {
			finding(w->f, "class/%s/%s leads to no device", class,
				de->d_name);
			continue;
		}
		/* .../H:C:T:L/<class>/<name>: its SCSI device must be live */
		slash = strrchr(real, '/');
		*slash = '\0';
		if (strcmp(base(real), class))
			continue;
		slash = strrchr(real, '/');
		*slash = '\0';
		if (is_scsi_device_dir(real) && !names_has(&w->live, real))
			finding(w->f, "class/%s/%s is under %s, which left the SCSI bus",
				class, de->d_name, rel(w, real));
	}
	closedir(d);
}

static void walk_devices(struct walk *w, const char *dir, int depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	long n;
	DIR *d;

	if (depth > MAX_DEPTH)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!join(path, sizeof(path), dir, de->d_name))
			continue;
		if (!is_dir(path))
			continue;
		if (is_scsi_device_dir(path) && exists(path, "uevent") &&
		    !names_has(&w->live, path))
			finding(w->f, "%s is not on the SCSI bus", rel(w, path));
		if (names_has(&w->classes, de->d_name) &&
		    !exists(path, "uevent")) {
			w->st->glue_dirs++;
			n = subdirs(path, NULL, 0);
			if (n > 0)
				w->st->glue_children += (size_t)n;
			else
				finding(w->f, "empty glue directory %s",
					rel(w, path));
			if (is_scsi_device_dir(dir) && !names_has(&w->live, dir))
				finding(w->f, "glue directory %s under a removed SCSI device",
					rel(w, path));
		}
		walk_devices(w, path, depth + 1);
	}
	closedir(d);
}

int glue_check(const char *root, struct glue_stats *st, struct findings *f)
{
	struct walk w = { .root = root, .st = st, .f = f };
	char devices[PATH_MAX];
	size_t i;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!realpath(root, w.real_root)) {
		finding(f, "%s: %s", root, strerror(errno));
		return -errno;
	}
	w.root = w.real_root;
	w.root_len = strlen(w.real_root);
	ret = read_lists(&w);
	if (ret)
		goto out;
	for (i = 0; i < w.live.n; i++)
		check_device(&w, w.live.v[i]);
	for (i = 0; i < ARRAY_SIZE(scsi_classes); i++)
		if (w.configured[i])
			check_class(&w, scsi_classes[i]);
	snprintf(devices, sizeof(devices), "%s/devices", w.root);
	walk_devices(&w, devices, 0);
out:
	names_free(&w.live);
	names_free(&w.classes);
	return ret;
}
