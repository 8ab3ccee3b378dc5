// SPDX-License-Identifier: GPL-2.0
/*
 * clockcost: what an empty timed region costs in user space, two
 * back-to-back clock_gettime(CLOCK_MONOTONIC) reads, over many pairs: the
 * floor under every nanosecond figure the tools take with now_ns().
 * guest-info puts its --json object in the guest section, before the
 * census: 2000 pairs by default.  Under TCG with the hpet clocksource
 * every read is a system call, and 20,000 pairs held the census back by
 * about 0.15 s; 2000 still give a stable median and minimum.
 */
#include <stdio.h>

#include "clock.h"
#include "json.h"
#include "options.h"

static struct {
	bool json;
	unsigned long pairs;
} cfg = {
	.pairs = 2000,
};

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "print one JSON object: pairs, median, min, min_nonzero (ns)"),
	OPT_NUM("pairs", 'n', &cfg.pairs, "N", "empty regions timed", 1,
		10000000),
	OPT_END,
};

int main(int argc, char **argv)
{
	struct clock_empty ce;
	struct json j;
	int ret;

	ret = opt_parse_main("clockcost",
			     "Time empty regions: two back-to-back reads of CLOCK_MONOTONIC.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	if (clock_empty_region(cfg.pairs, &ce)) {
		fprintf(stderr, "clockcost: out of memory\n");
		return 1;
	}
	if (!cfg.json) {
		printf("clockcost: empty region %llu ns median, %llu ns min, smallest step %llu ns, %zu pairs\n",
		       (unsigned long long)ce.median_ns,
		       (unsigned long long)ce.min_ns,
		       (unsigned long long)ce.min_nonzero_ns, ce.pairs);
		return 0;
	}
	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_uint(&j, "pairs", ce.pairs);
	json_uint(&j, "median", ce.median_ns);
	json_uint(&j, "min", ce.min_ns);
	json_uint(&j, "min_nonzero", ce.min_nonzero_ns);
	json_object_end(&j);
	return json_finish(&j) ? 1 : 0;
}
