// SPDX-License-Identifier: GPL-2.0
/*
 * --churn N: after the measured rounds, register the majors of the first
 * round again and unregister them, N times, keeping no sample.  One round
 * at a few dozen majors lasts microseconds, far below what a sampling
 * profiler on the host sees (blkscale run --profile reads the vCPUs a few
 * times a second); N rounds give it seconds of the allocator at the same
 * held counts the curves measure, so that it can name the functions.
 */
#include "clock.h"
#include "helper.h"
#include "majorbench.h"

void mb_block_churn(struct mb *mb, uint64_t *samples, int32_t *majors)
{
	struct mb_block *blk = &mb->blk;
	unsigned int want = blk->capacity;
	struct helper_batch res, back;
	unsigned long i;
	uint64_t start;
	int ret;

	if (!mb->cfg.churn || !want)
		return;
	start = now_ns();
	for (i = 0; i < mb->cfg.churn; i++) {
		ret = helper_batch_register(mb->fd, want, MB_PREFIX, 0, samples,
					    majors, &res);
		if (ret) {
			report_error(&mb->rep, "churn round %lu: register: %s",
				     i + 1, errno_name(ret));
			break;
		}
		ret = helper_batch_unregister(mb->fd, res.done, samples,
					      majors, &back);
		if (ret || back.done != res.done) {
			report_error(&mb->rep,
				     "churn round %lu: unregister: %s", i + 1,
				     errno_name(ret ? ret : back.stop_error));
			break;
		}
		if (res.done != want) {
			report_error(&mb->rep,
				     "churn round %lu: %u of %u majors (%s)",
				     i + 1, res.done, want,
				     errno_name(res.stop_error));
			break;
		}
		blk->churn_rounds++;
	}
	blk->churn_ns = now_ns() - start;
}
