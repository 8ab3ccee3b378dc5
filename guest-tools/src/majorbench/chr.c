// SPDX-License-Identifier: GPL-2.0
/*
 * Char majors for comparison: the module allocates dynamic char majors
 * until the kernel refuses and releases them all in the same call.
 */
#include <errno.h>
#include <stdlib.h>

#include "helper.h"
#include "majorbench.h"

void mb_char_run(struct mb *mb)
{
	struct mb_char *chr = &mb->chr;
	struct helper_char res;
	uint64_t *samples;
	int32_t *majors;
	int ret;

	chr->measured = true;
	samples = calloc(BLKSCALE_BATCH_MAX, sizeof(*samples));
	majors = calloc(BLKSCALE_BATCH_MAX, sizeof(*majors));
	chr->ranges = calloc(BLKSCALE_BATCH_MAX, sizeof(*chr->ranges));
	if (!samples || !majors || !chr->ranges) {
		report_error(&mb->rep, "out of memory");
		goto out_free;
	}
	ret = helper_char_probe(mb->fd, BLKSCALE_BATCH_MAX, samples, majors,
				&res);
	if (ret) {
		report_error(&mb->rep, "char probe: %s", errno_name(ret));
		goto out_free;
	}
	chr->capacity = res.count;
	chr->stop_error = res.stop_error;
	chr->exhausted = res.stop_error != 0;
	chr->min_major = res.min_major;
	chr->max_major = res.max_major;
	chr->nranges = ranges_build(majors, res.count, chr->ranges);
	stats_compute(samples, res.count, &chr->alloc);
	if (res.stop_error && res.stop_error != -EBUSY &&
	    res.stop_error != -ENOSPC)
		report_error(&mb->rep,
			     "dynamic char majors ended with %s, not EBUSY or ENOSPC",
			     errno_name(res.stop_error));
out_free:
	free(samples);
	free(majors);
}
