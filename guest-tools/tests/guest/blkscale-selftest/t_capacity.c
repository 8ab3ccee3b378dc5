// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic capacity and the major space: the expectations differ between
 * the stock and the patched kernel and are only checked with --expect.
 *
 * stock 6.1: dynamic majors top-down from 254 (about 234 of them), many of
 * them assigned to drivers in devices.txt; explicit majors below 512.
 * patched: 254..203 first, then 384 upwards to 4095 (at least 3700),
 * none assigned in devices.txt; explicit majors up to 4095.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "ranges.h"
#include "selftest.h"
#include "static_majors.h"

#define STOCK_CAPACITY_MIN	200
#define STOCK_CAPACITY_MAX	254
#define PATCHED_CAPACITY_MIN	3700

static bool capacity_error(int err)
{
	return err == -EBUSY || err == -ENOSPC;
}

void t_capacity(struct st_ctx *ctx, struct st_result *r)
{
	struct procdev_list added, removed;
	struct helper_batch res;
	int fd, ret;
	size_t dups;

	ctx->cap_done = true;
	ctx->cap_majors = calloc(BLKSCALE_BATCH_MAX, sizeof(int32_t));
	if (!ctx->cap_majors) {
		ctx->cap_error = -ENOMEM;
		st_fail(r, "out of memory");
		return;
	}
	fd = st_open(r);
	if (fd < 0) {
		ctx->cap_error = -ENODEV;
		return;
	}
	ret = helper_batch_register(fd, BLKSCALE_BATCH_MAX, "cap", 0, NULL,
				    ctx->cap_majors, &res);
	if (!st_expect_err(r, "register until refused", ret, 0)) {
		ctx->cap_error = ret;
		goto out_close;
	}
	ctx->cap_count = res.done;
	ctx->cap_stop = res.stop_error;
	if (!capacity_error(res.stop_error))
		st_fail(r, "after %u majors: %s, want EBUSY or ENOSPC",
			res.done, errno_name(res.stop_error));
	dups = ranges_duplicates(ctx->cap_majors, res.done);
	if (dups)
		st_fail(r, "%zu majors handed out twice", dups);

	ret = helper_register(fd, 0, "capmore", NULL, NULL);
	if (!capacity_error(ret))
		st_fail(r, "one more when full: %s, want EBUSY or ENOSPC",
			errno_name(ret));
	if (res.done)
		st_expect_err(r, "explicit register of a held major",
			      helper_register(fd, ctx->cap_majors[0], "capx",
					      NULL, NULL), -EBUSY);
	if (st_procdev_changes(ctx, &added, &removed, r) == 0) {
		if (added.n != res.done || removed.n)
			st_fail(r, "/proc/devices: %zu added, %zu removed, %u registered",
				added.n, removed.n, res.done);
		procdev_list_free(&added);
		procdev_list_free(&removed);
	}

	switch (ctx->expect) {
	case EXPECT_STOCK:
		if (res.done < STOCK_CAPACITY_MIN ||
		    res.done > STOCK_CAPACITY_MAX)
			st_fail(r, "stock: capacity %u, want %d..%d", res.done,
				STOCK_CAPACITY_MIN, STOCK_CAPACITY_MAX);
		break;
	case EXPECT_PATCHED:
		if (res.done < PATCHED_CAPACITY_MIN)
			st_fail(r, "patched: capacity %u, want >= %d",
				res.done, PATCHED_CAPACITY_MIN);
		break;
	case EXPECT_NONE:
		break;
	}
	st_note(r, "%u dynamic majors, then %s%s", res.done,
		errno_name(res.stop_error),
		ctx->expect == EXPECT_NONE ? " (no --expect: count not judged)" :
		"");
out_close:
	close(fd);
}

/* The capacity's majors, measured here if the capacity test did not run. */
static bool have_capacity(struct st_ctx *ctx, struct st_result *r)
{
	st_capacity(ctx);
	if (ctx->cap_error) {
		st_fail(r, "capacity not measured: %s",
			errno_name(ctx->cap_error));
		return false;
	}
	return true;
}

static bool in_patched_ranges(int32_t m)
{
	return (m >= 203 && m <= 254) || (m >= 384 && m <= 4095);
}

void t_dynamic_ranges(struct st_ctx *ctx, struct st_result *r)
{
	const int32_t *m = ctx->cap_majors;
	unsigned int i, n;

	if (ctx->expect == EXPECT_NONE) {
		st_skip(r, "needs --expect stock|patched");
		return;
	}
	if (!have_capacity(ctx, r))
		return;
	n = ctx->cap_count;
	for (i = 0; i < n; i++) {
		if (ctx->expect == EXPECT_STOCK) {
			/* top-down from 254, nothing above */
			if (m[i] < 1 || m[i] > 254 || (i && m[i] >= m[i - 1])) {
				st_fail(r, "stock: major #%u is %d after %d",
					i, m[i], i ? m[i - 1] : 0);
				return;
			}
			continue;
		}
		if (!in_patched_ranges(m[i])) {
			st_fail(r, "patched: major #%u is %d, outside 203-254 and 384-4095",
				i, m[i]);
			return;
		}
		/* the legacy range top-down first, then upwards from 384 */
		if (i && ((m[i] <= 254 && (m[i - 1] > 254 || m[i] >= m[i - 1])) ||
			  (m[i] >= 384 && m[i - 1] >= 384 && m[i] <= m[i - 1]))) {
			st_fail(r, "patched: major #%u is %d after %d", i,
				m[i], m[i - 1]);
			return;
		}
	}
	if (n)
		st_note(r, "%u majors from %d to %d", n, m[0], m[n - 1]);
}

void t_static_collisions(struct st_ctx *ctx, struct st_result *r)
{
	unsigned int i, count = 0;
	int first = 0;

	if (ctx->expect == EXPECT_NONE) {
		st_skip(r, "needs --expect stock|patched");
		return;
	}
	if (!have_capacity(ctx, r))
		return;
	for (i = 0; i < ctx->cap_count; i++) {
		if (!static_block_major(ctx->cap_majors[i]))
			continue;
		if (!count++)
			first = ctx->cap_majors[i];
	}
	if (ctx->expect == EXPECT_PATCHED && count)
		st_fail(r, "patched: %u dynamic majors are assigned in devices.txt, first %d (%s)",
			count, first, static_block_major(first));
	/* stock hands them out: seeing none means this is not stock */
	if (ctx->expect == EXPECT_STOCK && !count)
		st_fail(r, "stock: no dynamic major is assigned in devices.txt");
	st_note(r, "%u of %u dynamic majors assigned in devices.txt", count,
		ctx->cap_count);
}

/* Register and release an explicit major; 0 or -errno. */
static int try_explicit(int fd, int major)
{
	int ret = helper_register(fd, major, "bslimit", NULL, NULL);

	if (!ret)
		helper_unregister(fd, major, "bslimit", NULL);
	return ret;
}

void t_explicit_limit(struct st_ctx *ctx, struct st_result *r)
{
	static const int probes[] = { 511, 512, 1000, 4095 };
	int fd, ret, want;
	char what[64];
	size_t i;

	if (ctx->expect == EXPECT_NONE) {
		st_skip(r, "needs --expect stock|patched");
		return;
	}
	fd = st_open(r);
	if (fd < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (st_free_major(probes[i], probes[i]) < 0)
			continue;	/* somebody has it */
		want = (ctx->expect == EXPECT_STOCK && probes[i] >= 512) ?
		       -EINVAL : 0;
		ret = try_explicit(fd, probes[i]);
		snprintf(what, sizeof(what), "explicit major %d", probes[i]);
		st_expect_err(r, what, ret, want);
	}
	st_expect_err(r, "explicit major 4096", try_explicit(fd, 4096),
		      -EINVAL);
	close(fd);
}

void t_char_probe(struct st_ctx *ctx, struct st_result *r)
{
	struct helper_char res;
	int32_t *majors;
	size_t dups;
	int fd;

	(void)ctx;
	majors = calloc(BLKSCALE_BATCH_MAX, sizeof(*majors));
	if (!majors) {
		st_fail(r, "out of memory");
		return;
	}
	fd = st_open(r);
	if (fd < 0)
		goto out_free;
	if (!st_expect_err(r, "char probe",
			   helper_char_probe(fd, BLKSCALE_BATCH_MAX, NULL,
					     majors, &res), 0))
		goto out_close;
	if (!res.count)
		st_fail(r, "no dynamic char major at all");
	if (!capacity_error(res.stop_error))
		st_fail(r, "char majors ended with %s",
			errno_name(res.stop_error));
	dups = ranges_duplicates(majors, res.count);
	if (dups)
		st_fail(r, "%zu char majors handed out twice", dups);
	if (res.count && res.min_major > res.max_major)
		st_fail(r, "min %u > max %u", res.min_major, res.max_major);
	st_note(r, "%u dynamic char majors (%u..%u)", res.count, res.min_major,
		res.max_major);
out_close:
	close(fd);
out_free:
	free(majors);
}
