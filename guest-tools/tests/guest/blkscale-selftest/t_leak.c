// SPDX-License-Identifier: GPL-2.0
/*
 * Many register/unregister calls leave the slab where it was: neither the
 * kernel nor the module may keep anything per call.
 *
 * The tolerance follows the number of registrations: half of what a leak
 * of LEAK_UNIT bytes per registration (the smallest kmalloc object) would
 * add, so such a leak cannot hide in it; --slab-tolerance only lowers it.
 * --inject-leak makes the module leak on purpose, to show the test fails.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "selftest.h"

#define LEAK_BATCH 100
#define RCU_SETTLE_US 200000
#define LEAK_UNIT 16
#define LEAK_KNOB "/sys/module/blkscale_majors/parameters/leak_per_register"

/* Slab growth accepted over @registrations, in kB. */
static unsigned long tolerance_kb(unsigned long registrations,
				  unsigned long cap_kb)
{
	unsigned long kb = registrations * LEAK_UNIT / 2 / 1024;

	return kb < cap_kb ? kb : cap_kb;
}

static int set_leak(unsigned long bytes)
{
	FILE *f = fopen(LEAK_KNOB, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fprintf(f, "%lu\n", bytes) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* One register batch and the matching unregister; calls made, or -1. */
static long cycle(int fd, struct st_result *r)
{
	struct helper_batch reg, unreg;

	if (helper_batch_register(fd, LEAK_BATCH, "leak", 0, NULL, NULL,
				  &reg) ||
	    helper_batch_unregister(fd, reg.done ? reg.done : 1, NULL, NULL,
				    &unreg)) {
		st_fail(r, "batch failed");
		return -1;
	}
	if (!reg.done || unreg.done != reg.done) {
		st_fail(r, "registered %u (%s), unregistered %u", reg.done,
			errno_name(reg.stop_error), unreg.done);
		return -1;
	}
	return (long)(reg.done + unreg.done);
}

void t_leak(struct st_ctx *ctx, struct st_result *r)
{
	unsigned long ops = 0, tol;
	long before, after, n;
	uint64_t t0, ns;
	int fd, i;

	fd = st_open(r);
	if (fd < 0)
		return;
	/* warm the caches, so the first allocations are not counted */
	for (i = 0; i < 10; i++)
		if (cycle(fd, r) < 0)
			goto out_close;
	/* objects freed through RCU are only gone after a grace period */
	usleep(RCU_SETTLE_US);
	before = st_slab_kb();
	if (before < 0) {
		st_skip(r, "no Slab in /proc/meminfo");
		goto out_close;
	}
	if (ctx->inject_leak && set_leak(ctx->inject_leak)) {
		st_fail(r, "%s: cannot set", LEAK_KNOB);
		goto out_close;
	}
	t0 = now_ns();
	while (ops < ctx->ops) {
		n = cycle(fd, r);
		if (n < 0)
			goto out_close;
		ops += (unsigned long)n;
	}
	ns = now_ns() - t0;
	usleep(RCU_SETTLE_US);
	after = st_slab_kb();
	/* every other call is a registration */
	tol = tolerance_kb(ops / 2, ctx->slab_tolerance_kb);
	if (after - before > (long)tol)
		st_fail(r, "Slab grew from %ld to %ld kB over %lu calls (tolerance %lu kB%s)",
			before, after, ops, tol,
			ctx->inject_leak ? ", leak injected" : "");
	st_note(r, "%lu calls in %.2f s; Slab %ld -> %ld kB (tolerance %lu kB)",
		ops, (double)ns / 1e9, before, after, tol);
out_close:
	if (ctx->inject_leak)
		set_leak(0);
	close(fd);
}
