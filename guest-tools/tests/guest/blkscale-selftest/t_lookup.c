// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's lookup path: open() of a node of our major calls its probe
 * (with the node's dev_t, any minor) and fails with ENXIO; once the major
 * is released the probe is no longer called.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "selftest.h"

static int open_errno(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static uint64_t hits(int fd, int major, uint64_t *strays)
{
	struct blkscale_probe_hits h;

	if (helper_probe_hits(fd, major, &h))
		return UINT64_MAX;
	if (strays)
		*strays = h.strays;
	return h.hits;
}

void t_probe_lookup(struct st_ctx *ctx, struct st_result *r)
{
	char dir[256], node0[300], node7[300];
	uint64_t h0, h1, s0 = 0, s1 = 0;
	int fd, major, i, e;

	snprintf(dir, sizeof(dir), "%s/selftest.XXXXXX", ctx->node_dir);
	if (!mkdtemp(dir)) {
		st_skip(r, "%s: %s", ctx->node_dir, strerror(errno));
		return;
	}
	fd = st_open(r);
	if (fd < 0)
		goto out_rmdir;
	if (!st_expect_err(r, "register",
			   helper_register(fd, 0, "bsprobe", &major, NULL), 0))
		goto out_close;
	snprintf(node0, sizeof(node0), "%s/b0", dir);
	snprintf(node7, sizeof(node7), "%s/b7", dir);
	if (mknod(node0, S_IFBLK | 0600, makedev(major, 0)) ||
	    mknod(node7, S_IFBLK | 0600, makedev(major, 7))) {
		st_fail(r, "mknod: %s", strerror(errno));
		goto out_unlink;
	}

	h0 = hits(fd, major, &s0);
	if (h0 != 0)
		st_fail(r, "new major starts with %llu hits",
			(unsigned long long)h0);
	e = open_errno(node0);
	if (e != ENXIO)
		st_fail(r, "open: %s, want ENXIO", errno_name(e));
	h1 = hits(fd, major, NULL);
	if (h1 != 1)
		st_fail(r, "one open, %llu probe calls", (unsigned long long)h1);
	for (i = 0; i < 5; i++)
		open_errno(node7);
	h1 = hits(fd, major, NULL);
	if (h1 != 6)
		st_fail(r, "six opens, %llu probe calls",
			(unsigned long long)h1);

	if (!st_expect_err(r, "unregister",
			   helper_unregister(fd, major, "bsprobe", NULL), 0))
		goto out_unlink;
	e = open_errno(node0);
	if (e != ENXIO)
		st_fail(r, "open after release: %s, want ENXIO",
			errno_name(e));
	h1 = hits(fd, major, &s1);
	if (h1 != 6 || s1 != s0)
		st_fail(r, "released major still probed: %llu hits, %llu stray",
			(unsigned long long)h1,
			(unsigned long long)(s1 - s0));
	st_note(r, "major %d: 6 opens, 6 probe calls", major);
out_unlink:
	unlink(node0);
	unlink(node7);
out_close:
	close(fd);
out_rmdir:
	rmdir(dir);
}
