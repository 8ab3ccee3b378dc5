// SPDX-License-Identifier: GPL-2.0
/*
 * Many register/unregister calls leave the slab where it was: neither the
 * kernel nor the module may keep anything per call.
 */
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "selftest.h"

#define LEAK_BATCH 100
#define RCU_SETTLE_US 200000

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
	unsigned long ops = 0;
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
	if (after - before > (long)ctx->slab_tolerance_kb)
		st_fail(r, "Slab grew from %ld to %ld kB over %lu calls (tolerance %lu kB)",
			before, after, ops, ctx->slab_tolerance_kb);
	st_note(r, "%lu calls in %.2f s; Slab %ld -> %ld kB", ops,
		(double)ns / 1e9, before, after);
out_close:
	close(fd);
}
