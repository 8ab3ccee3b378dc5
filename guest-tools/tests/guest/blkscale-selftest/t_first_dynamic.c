// SPDX-License-Identifier: GPL-2.0
/*
 * The first dynamic majors a system hands out.  A major of 256 or more
 * fails old_valid_dev(): 16-bit st_dev interfaces, old mknod paths and
 * nfsd's file handles break on it, so the patched kernel hands out the 52
 * majors of 203..254, which devices.txt assigns to no block driver, before
 * any above 255.  Stock also stays below 256, but walks on into majors
 * that devices.txt assigns to drivers (202 Xen, 199 Veritas, ...).
 */
#include <stdio.h>
#include <unistd.h>

#include "selftest.h"
#include "static_majors.h"

#define FIRST_COUNT		60
#define LEGACY_TOP		254
#define LEGACY_BOTTOM		203

void t_first_dynamic(struct st_ctx *ctx, struct st_result *r)
{
	struct helper_batch res;
	int32_t majors[FIRST_COUNT];
	unsigned int i, below = 0, statics = 0, taken = 0, legacy_free;
	int fd, m, first_static = 0;

	if (ctx->expect == EXPECT_NONE) {
		st_skip(r, "needs --expect stock|patched");
		return;
	}
	/* what other drivers already hold of the legacy range */
	for (m = LEGACY_BOTTOM; m <= LEGACY_TOP; m++)
		taken += st_free_major(m, m) != m;
	legacy_free = LEGACY_TOP - LEGACY_BOTTOM + 1 - taken;
	fd = st_open(r);
	if (fd < 0)
		return;
	if (!st_expect_err(r, "register 60 dynamic majors",
			   helper_batch_register(fd, FIRST_COUNT, "first", 0,
						 NULL, majors, &res), 0))
		goto out;
	if (res.done != FIRST_COUNT) {
		st_fail(r, "%u of %d dynamic majors (%s)", res.done,
			FIRST_COUNT, errno_name(res.stop_error));
		goto out;
	}
	for (i = 0; i < FIRST_COUNT; i++) {
		below += majors[i] < 256;
		if (static_block_major(majors[i]) && !statics++)
			first_static = majors[i];
	}
	if (ctx->expect == EXPECT_PATCHED) {
		if (below != legacy_free)
			st_fail(r, "patched: %u of the first 60 below 256, want %u (203-254 less %u held by drivers)",
				below, legacy_free, taken);
		else if (statics)
			st_fail(r, "patched: %u assigned in devices.txt, first %d (%s)",
				statics, first_static,
				static_block_major(first_static));
		else if (legacy_free &&
			 (majors[legacy_free - 1] < LEGACY_BOTTOM ||
			  majors[legacy_free] < 256))
			st_fail(r, "patched: majors #%u, #%u are %d, %d",
				legacy_free - 1, legacy_free,
				majors[legacy_free - 1], majors[legacy_free]);
	} else if (!statics) {
		/* stock goes below 203 into assigned majors */
		st_fail(r, "stock: none of 60 assigned in devices.txt (lowest %d)",
			majors[FIRST_COUNT - 1]);
	}
	st_note(r, "%u of 60 below 256 (%u of 203-254 held before), %u assigned in devices.txt (first %d), last %d",
		below, taken, statics, first_static, majors[FIRST_COUNT - 1]);
out:
	close(fd);
}
