// SPDX-License-Identifier: GPL-2.0
/*
 * The floor under the module's figures: empty regions timed in the
 * kernel with the clock call that times register and unregister
 * (BLKSCALE_IOC_CLOCK_EMPTY).  The user-space floor, under the lookup
 * figures, is clockcost's, in the guest section.
 */
#include <stdlib.h>

#include "helper.h"
#include "majorbench.h"

void mb_clock_run(struct mb *mb)
{
	struct mb_clock *clk = &mb->clk;
	uint64_t *samples;
	int ret;

	samples = calloc(mb->cfg.clock_pairs, sizeof(*samples));
	if (!samples) {
		report_error(&mb->rep, "out of memory");
		return;
	}
	ret = helper_clock_empty(mb->fd, mb->cfg.clock_pairs, samples, NULL,
				 NULL);
	if (ret) {
		report_error(&mb->rep, "kernel empty region: %s",
			     errno_name(ret));
	} else {
		clock_empty_summarise(samples, mb->cfg.clock_pairs,
				      &clk->kernel);
		clk->measured = true;
	}
	free(samples);
}
