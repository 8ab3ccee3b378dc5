// SPDX-License-Identifier: GPL-2.0
/*
 * devtaudit: how the 12/20-bit dev_t survives the interfaces to user
 * space: mknod and stat at the edges and past them, glibc's encoding,
 * the old 16-bit stat, ustat, loop status, cpio newc and tar.  Each check
 * gets a verdict: pass, fail, truncates (a narrower interface loses bits:
 * a finding, not an error of the tool) or unsupported.  Everything
 * happens in a directory on a tmpfs, removed at the end.
 */
#include <errno.h>
#include <ftw.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "devtaudit.h"
#include "options.h"
#include "version.h"

static struct {
	bool json;
	const char *dir;
	const char *busybox;
	const char *checks;
	const char *sysfs;
	bool keep;
} cfg = {
	.dir = "/tmp/devtaudit",
	.busybox = "/bin/busybox",
	.checks = "all",
	.sysfs = "/sys",
};

static const struct {
	const char *name;
	void (*run)(struct audit *a);
	const char *what;
} groups[] = {
	{ "mknod", audit_mknod, "mknod+stat/statx at and past the edges" },
	{ "makedev", audit_makedev, "glibc's encoding against the kernel's" },
	{ "stat", audit_stat, "raw stat(2), i386 oldstat and stat" },
	{ "ustat", audit_ustat, "ustat(2) with a wide dev_t" },
	{ "loop", audit_loop, "LOOP_GET_STATUS against LOOP_GET_STATUS64" },
	{ "cpio", audit_cpio, "busybox cpio newc round trip" },
	{ "tar", audit_tar, "busybox tar round trip" },
};

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "print one JSON document instead of a table"),
	OPT_STR("dir", 'd', &cfg.dir, "DIR",
		"work directory on a tmpfs, made and removed here (/tmp/devtaudit)"),
	OPT_STR("busybox", 0, &cfg.busybox, "PATH",
		"busybox for the cpio and tar round trips (/bin/busybox)"),
	OPT_STR("checks", 'c', &cfg.checks, "LIST",
		"check groups, comma-separated: all, mknod, makedev, stat, ustat, loop, cpio, tar"),
	OPT_STR("sysfs-root", 0, &cfg.sysfs, "DIR", "where sysfs is (/sys)"),
	OPT_BOOL("keep", 0, &cfg.keep, "leave the work directory behind"),
	OPT_END,
};

static bool selected(const char *name)
{
	return !strcmp(cfg.checks, "all") || opt_list_has(cfg.checks, name);
}

/* Every name in --checks must be a group. */
static int check_groups(void)
{
	char bad[64];

	if (!strcmp(cfg.checks, "all"))
		return 0;
	if (OPT_LIST_UNKNOWN(cfg.checks, groups, ARRAY_SIZE(groups), bad,
			     sizeof(bad))) {
		fprintf(stderr, "devtaudit: --checks: no group '%s'\n", bad);
		return -1;
	}
	return 0;
}

/* A new directory (or an empty one) on tmpfs: device nodes stay in memory. */
static int setup_dir(void)
{
	struct statfs sfs;

	/* an empty directory that is already there is made anew */
	if (mkdir(cfg.dir, 0700) &&
	    (errno != EEXIST || rmdir(cfg.dir) || mkdir(cfg.dir, 0700))) {
		fprintf(stderr, "devtaudit: --dir %s: %s\n", cfg.dir,
			errno == ENOTEMPTY ? "exists and is not empty" :
			strerror(errno));
		return -1;
	}
	if (statfs(cfg.dir, &sfs)) {
		fprintf(stderr, "devtaudit: --dir %s: %s\n", cfg.dir,
			strerror(errno));
		return -1;
	}
	if (sfs.f_type != TMPFS_MAGIC && sfs.f_type != RAMFS_MAGIC) {
		fprintf(stderr,
			"devtaudit: --dir %s: not on a tmpfs (filesystem 0x%lx)\n",
			cfg.dir, (unsigned long)sfs.f_type);
		rmdir(cfg.dir);
		return -1;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

static void cleanup(struct audit *a)
{
	if (nftw(cfg.dir, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		report_error(&a->rep, "removing %s: %s", cfg.dir,
			     strerror(errno));
}

static void print_json(struct audit *a)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	report_json_begin(&a->rep, &j);
	json_string(&j, "dir", cfg.dir);
	json_string(&j, "busybox", cfg.busybox);
	json_string(&j, "groups", cfg.checks);
	json_array_begin(&j, "checks");
	for (i = 0; i < a->n; i++) {
		json_object_begin(&j, NULL);
		json_string(&j, "name", a->checks[i].name);
		json_string(&j, "verdict", verdict_names[a->checks[i].verdict]);
		json_string(&j, "detail", a->checks[i].detail);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_uint(&j, "passed", a->count[V_PASS]);
	json_uint(&j, "failed", a->count[V_FAIL]);
	json_uint(&j, "truncates", a->count[V_TRUNCATES]);
	json_uint(&j, "unsupported", a->count[V_UNSUPPORTED]);
	if (report_json_end(&a->rep, &j))
		fprintf(stderr, "devtaudit: internal error: bad JSON\n");
}

static void print_human(const struct audit *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		printf("%-12s %-28s %s\n", verdict_names[a->checks[i].verdict],
		       a->checks[i].name, a->checks[i].detail);
	printf("devtaudit: %zu passed, %zu failed, %zu truncate, %zu unsupported: %s\n",
	       a->count[V_PASS], a->count[V_FAIL], a->count[V_TRUNCATES],
	       a->count[V_UNSUPPORTED], a->rep.nerrors ? "FAILED" : "ok");
}

int main(int argc, char **argv)
{
	static struct audit a;
	size_t i;
	int ret;

	report_init(&a.rep, "devtaudit", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("devtaudit",
			     "Check what user-space interfaces make of device numbers at the\n"
			     "edges of the kernel's 12-bit major, 20-bit minor dev_t.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	if (check_groups())
		return 2;
	if (setup_dir())
		return 2;
	a.dir = cfg.dir;
	a.busybox = cfg.busybox;
	a.sysfs = cfg.sysfs;
	for (i = 0; i < ARRAY_SIZE(groups); i++)
		if (selected(groups[i].name))
			groups[i].run(&a);
	if (!cfg.keep)
		cleanup(&a);

	if (cfg.json)
		print_json(&a);
	else
		print_human(&a);
	free(a.checks);
	return a.rep.nerrors ? 1 : 0;
}
