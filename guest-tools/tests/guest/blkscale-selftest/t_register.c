// SPDX-License-Identifier: GPL-2.0
/* Registration semantics: explicit majors, ownership, release on close. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "selftest.h"

void t_explicit_register(struct st_ctx *ctx, struct st_result *r)
{
	char listed[64];
	int fd, fd2, major, got = -1;

	(void)ctx;
	/* devices.txt keeps 240-254 for local use: no driver claims them */
	major = st_free_major(240, 254);
	if (major < 0) {
		st_skip(r, "no free major in 240..254");
		return;
	}
	fd = st_open(r);
	if (fd < 0)
		return;
	fd2 = st_open(r);
	if (fd2 < 0)
		goto out_close;
	if (!st_expect_err(r, "register explicit",
			   helper_register(fd, major, "bsexp", &got, NULL), 0))
		goto out_close2;
	if (got != major)
		st_fail(r, "asked for %d, got %d", major, got);
	st_block_name(major, listed, sizeof(listed));
	if (strcmp(listed, "bsexp"))
		st_fail(r, "major %d listed as '%s'", major, listed);
	st_expect_err(r, "register it again",
		      helper_register(fd, major, "bsexp2", NULL, NULL), -EBUSY);
	st_expect_err(r, "register it from another file",
		      helper_register(fd2, major, "bsexp3", NULL, NULL),
		      -EBUSY);
	st_block_name(major, listed, sizeof(listed));
	if (strcmp(listed, "bsexp"))
		st_fail(r, "after refusals major %d listed as '%s'", major,
			listed);
	st_expect_err(r, "unregister",
		      helper_unregister(fd, major, "bsexp", NULL), 0);
	st_block_name(major, listed, sizeof(listed));
	if (listed[0])
		st_fail(r, "major %d still listed as '%s'", major, listed);
	st_note(r, "major %d", major);
out_close2:
	close(fd2);
out_close:
	close(fd);
}

void t_unregister_unknown(struct st_ctx *ctx, struct st_result *r)
{
	char listed[64];
	int fd, fd2, major, other;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	fd2 = st_open(r);
	if (fd2 < 0)
		goto out_close;
	other = st_free_major(1, 254);
	if (other > 0)
		st_expect_err(r, "unregister a free major",
			      helper_unregister(fd, other, "bsnone", NULL),
			      -ENOENT);
	/* major 1 is the RAM disk's or nobody's: never this file's */
	st_expect_err(r, "unregister a major held by nobody here",
		      helper_unregister(fd, 1, "ramdisk", NULL), -ENOENT);
	if (!st_expect_err(r, "register",
			   helper_register(fd2, 0, "bsown", &major, NULL), 0))
		goto out_close2;
	st_expect_err(r, "unregister another file's major",
		      helper_unregister(fd, major, "bsown", NULL), -ENOENT);
	st_expect_err(r, "unregister under another name",
		      helper_unregister(fd2, major, "bsother", NULL), -EINVAL);
	st_block_name(major, listed, sizeof(listed));
	if (strcmp(listed, "bsown"))
		st_fail(r, "major %d listed as '%s' after refusals", major,
			listed);
	st_expect_err(r, "unregister by its owner",
		      helper_unregister(fd2, major, "bsown", NULL), 0);
	st_expect_err(r, "unregister twice",
		      helper_unregister(fd2, major, "bsown", NULL), -ENOENT);
out_close2:
	close(fd2);
out_close:
	close(fd);
}

void t_close_releases(struct st_ctx *ctx, struct st_result *r)
{
	struct procdev_list added, removed;
	struct helper_batch res;
	int fd, explicit_major;
	int32_t majors[20];

	fd = st_open(r);
	if (fd < 0)
		return;
	explicit_major = st_free_major(240, 254);
	if (explicit_major > 0 &&
	    !st_expect_err(r, "register explicit",
			   helper_register(fd, explicit_major, "bsclose", NULL,
					   NULL), 0))
		explicit_major = -1;
	if (!st_expect_err(r, "register 20",
			   helper_batch_register(fd, 20, "bscl", 0, NULL,
						 majors, &res), 0)) {
		close(fd);
		return;
	}
	if (st_procdev_changes(ctx, &added, &removed, r) == 0) {
		if (added.n != res.done + (explicit_major > 0))
			st_fail(r, "%zu majors listed, %u registered", added.n,
				res.done + (explicit_major > 0));
		procdev_list_free(&added);
		procdev_list_free(&removed);
	}
	close(fd);
	if (st_procdev_changes(ctx, &added, &removed, r) == 0) {
		if (added.n || removed.n)
			st_fail(r, "after close: %zu block majors still there (first %d %s)",
				added.n, added.n ? added.v[0].major : 0,
				added.n ? added.v[0].name : "");
		procdev_list_free(&added);
		procdev_list_free(&removed);
	}
	/* the explicit major is free again */
	if (explicit_major > 0) {
		fd = st_open(r);
		if (fd < 0)
			return;
		st_expect_err(r, "register the explicit major again",
			      helper_register(fd, explicit_major, "bsclose2",
					      NULL, NULL), 0);
		close(fd);
	}
	st_note(r, "%u dynamic + %s explicit released", res.done,
		explicit_major > 0 ? "1" : "no");
}

/* The baseline plus exactly majors[0..n-1], named prefix0, prefix1, ... */
static void check_listed(struct st_ctx *ctx, struct st_result *r,
			 const int32_t *majors, size_t n, const char *prefix)
{
	struct procdev_list added, removed;
	char want[16];
	size_t i, k;

	if (st_procdev_changes(ctx, &added, &removed, r))
		return;
	if (removed.n)
		st_fail(r, "major %d '%s' disappeared", removed.v[0].major,
			removed.v[0].name);
	if (added.n != n)
		st_fail(r, "%zu majors added, %zu registered", added.n, n);
	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%s%zu", prefix, i);
		for (k = 0; k < added.n; k++)
			if (added.v[k].major == majors[i])
				break;
		if (k == added.n || strcmp(added.v[k].name, want)) {
			st_fail(r, "major %d not listed as %s", majors[i],
				want);
			break;
		}
	}
	procdev_list_free(&added);
	procdev_list_free(&removed);
}

/* /proc/devices lists exactly what is registered, under its names. */
void t_proc_devices(struct st_ctx *ctx, struct st_result *r)
{
	struct helper_batch res;
	int32_t majors[50];
	int fd;

	fd = st_open(r);
	if (fd < 0)
		return;
	if (!st_expect_err(r, "register 50",
			   helper_batch_register(fd, 50, "bspd", 0, NULL,
						 majors, &res), 0))
		goto out_close;
	if (res.done != 50) {
		st_fail(r, "registered %u of 50 (%s)", res.done,
			errno_name(res.stop_error));
		goto out_close;
	}
	check_listed(ctx, r, majors, 50, "bspd");
	/* newest first: bspd0..bspd24 stay */
	if (st_expect_err(r, "unregister 25",
			  helper_batch_unregister(fd, 25, NULL, NULL, &res), 0))
		check_listed(ctx, r, majors, 25, "bspd");
out_close:
	close(fd);
}

/*
 * unregister_blkdev() with the wrong name must keep the entry, and the
 * kernel warns: the only warning the run tolerates.
 */
void t_wrong_name(struct st_ctx *ctx, struct st_result *r)
{
	char listed[64], line[256];
	unsigned int warnings;
	bool kept = false;
	int fd, major;

	fd = st_open(r);
	if (fd < 0)
		return;
	if (!st_expect_err(r, "register",
			   helper_register(fd, 0, "bsright", &major, NULL), 0))
		goto out_close;
	st_kmsg_problems(ctx, NULL, 0);
	st_expect_err(r, "same name through the wrong-name path",
		      helper_unregister_wrong(fd, major, "bsright", &kept),
		      -EINVAL);
	if (!st_expect_err(r, "unregister with a wrong name",
			   helper_unregister_wrong(fd, major, "bswrong",
						   &kept), 0))
		goto out_close;
	warnings = st_kmsg_problems(ctx, line, sizeof(line));
	if (!kept)
		st_fail(r, "the kernel dropped major %d on a wrong name",
			major);
	st_block_name(major, listed, sizeof(listed));
	if (strcmp(listed, "bsright"))
		st_fail(r, "major %d listed as '%s'", major, listed);
	if (ctx->kmsg < 0)
		st_note(r, "kept; /dev/kmsg unreadable, warning not checked");
	else if (warnings != 1)
		st_fail(r, "%u kernel warnings, want 1", warnings);
	else if (!strstr(line, "WARNING"))
		st_fail(r, "not a WARNING: %s", line);
	else
		st_note(r, "kept; kernel said: %.160s", line);
	st_expect_err(r, "unregister with the right name",
		      helper_unregister(fd, major, "bsright", NULL), 0);
	st_block_name(major, listed, sizeof(listed));
	if (listed[0])
		st_fail(r, "major %d still listed as '%s'", major, listed);
out_close:
	close(fd);
}
