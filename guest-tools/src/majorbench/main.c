// SPDX-License-Identifier: GPL-2.0
/*
 * majorbench: how many dynamic block majors the running kernel hands out,
 * which ones, and what registering, looking up and unregistering them
 * costs as more are registered; char majors for comparison.  Nothing is
 * assumed about the kernel: the capacity is whatever it gives before it
 * refuses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper.h"
#include "majorbench.h"
#include "options.h"
#include "version.h"

#define SUMMARY \
	"Measure dynamic block majors through /dev/" BLKSCALE_DEV_NAME ":\n" \
	"capacity, static collisions, register/lookup/unregister cost."

static const char *const summary = SUMMARY;

static struct mb mb = {
	.cfg = {
		.bucket = 16,
		.rounds = 3,
		.limit = BLKSCALE_BATCH_MAX,
		.lookup_points = "auto",
		.lookup_majors = 32,
		.lookup_iters = 10,
		.node_dir = "/tmp",
		.show = 8,
		.clock_pairs = 2000,
		.processes = 10,
		.ref_steps = REFLOOP_STEPS,
	},
	.fd = -1,
};

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &mb.cfg.json,
		 "print one JSON document instead of a summary"),
	OPT_NUM("bucket", 'b', &mb.cfg.bucket, "N",
		"curve points group N registered counts", 1, 4096),
	OPT_NUM("rounds", 'r', &mb.cfg.rounds, "N",
		"register/unregister rounds pooled into the curves", 1, 32),
	OPT_NUM("limit", 'l', &mb.cfg.limit, "N",
		"stop after N dynamic majors even if the kernel has more", 1,
		BLKSCALE_BATCH_MAX),
	OPT_STR("lookup-points", 'p', &mb.cfg.lookup_points, "LIST",
		"registered counts to time lookups at: auto (powers of 2 and the capacity) or a list such as 1,100,max"),
	OPT_NUM("lookup-majors", 0, &mb.cfg.lookup_majors, "N",
		"majors looked up at each point", 1, 4096),
	OPT_NUM("lookup-iters", 0, &mb.cfg.lookup_iters, "N",
		"opens of each major's node", 1, 100000),
	OPT_STR("node-dir", 0, &mb.cfg.node_dir, "DIR",
		"where the device nodes are made (a tmpfs)"),
	OPT_BOOL("no-char", 0, &mb.cfg.no_char,
		 "skip the char major comparison"),
	OPT_NUM("show", 0, &mb.cfg.show, "N",
		"static collisions listed by major", 0, 4096),
	OPT_NUM("clock-pairs", 0, &mb.cfg.clock_pairs, "N",
		"empty regions timed in the kernel (the floor under its figures)",
		1, BLKSCALE_CLOCK_PAIRS_MAX),
	OPT_NUM("processes", 0, &mb.cfg.processes, "N",
		"measure in N processes one after another, the fastest prints (bestof.h)",
		1, BESTOF_MAX),
	OPT_NUM("ref-steps", 0, &mb.cfg.ref_steps, "N",
		"steps of the reference timed beside each block (refloop.h)",
		1, 100000000),
	OPT_BOOL("rcu-barrier", 0, &mb.cfg.rcu_barrier,
		 "wait for RCU callbacks and kfree_rcu() batches before each warm round"),
	OPT_NUM("churn", 0, &mb.cfg.churn, "N",
		"then register and unregister the first round's majors N times more, keeping no sample: seconds of the allocator for a host-side profile (use with --processes 1)",
		0, 100000000),
	OPT_END,
};

static int read_procdevices(struct procdevices *pd)
{
	char err[REPORT_ERROR_LEN];
	int ret;

	ret = procdev_load("/proc/devices", pd, NULL, err, sizeof(err));
	if (ret)
		report_error(&mb.rep, "%s", err);
	return ret;
}

/* Everything we registered must be gone again. */
static void check_released(void)
{
	struct procdev_list added, removed;
	struct procdevices now;
	int ret;

	if (read_procdevices(&now))
		return;
	ret = procdev_diff(&mb.baseline, &now, &added, &removed);
	if (ret || added.n || removed.n)
		report_error(&mb.rep,
			     "/proc/devices differs from before the run: %zu block added, %zu removed%s",
			     added.n, removed.n,
			     ret ? ", char section changed" : "");
	procdev_list_free(&added);
	procdev_list_free(&removed);
	procdev_free(&now);
}

static bool modprobe_disabled(void)
{
	char buf[256] = "";
	FILE *f = fopen("/proc/sys/kernel/modprobe", "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '\n' || buf[0] == '\0';
}

/* In each measuring process: everything that is timed or checked. */
static unsigned long measure(void *ctx, double *score)
{
	struct blkscale_probe_hits h;
	uint32_t version;

	(void)ctx;
	refloop_init(&mb.ref, mb.cfg.ref_steps);
	mb.modprobe_disabled = modprobe_disabled();
	mb.fd = helper_open(&version);
	if (mb.fd < 0) {
		if (mb.fd == -EPROTO)
			report_error(&mb.rep,
				     HELPER_DEV ": module speaks version %u, tools %u",
				     version, BLKSCALE_UAPI_VERSION);
		else
			report_error(&mb.rep, HELPER_DEV ": %s (module loaded?)",
				     strerror(-mb.fd));
	} else if (read_procdevices(&mb.baseline) == 0) {
		if (helper_probe_hits(mb.fd, 1, &h) == 0)
			mb.strays_start = h.strays;
		mb_clock_run(&mb);
		if (!mb.cfg.no_char)
			mb_char_run(&mb);
		mb_block_run(&mb);
		check_released();
		if (helper_probe_hits(mb.fd, 1, &h) == 0 &&
		    h.strays != mb.strays_start)
			report_error(&mb.rep,
				     "%llu probe calls for majors nobody held",
				     (unsigned long long)(h.strays -
							  mb.strays_start));
	}
	if (mb.fd >= 0)
		close(mb.fd);
	mb.fd = -1;
	if (mb.ref.oom || mb.blk.reg_ref.oom || mb.blk.lookup_ref.oom)
		report_error(&mb.rep, "out of memory for the reference timings");
	*score = mb_score(&mb);
	return mb.rep.nerrors;
}

/* In the process chosen to print. */
static int finish(void *ctx, const struct bestof *bo)
{
	(void)ctx;
	mb.bo = *bo;
	bestof_report_lost(bo, &mb.rep);
	if (mb.cfg.json)
		mb_print_json(&mb);
	else
		mb_print_human(&mb);
	return mb.rep.nerrors ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	report_init(&mb.rep, "majorbench", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("majorbench", summary, options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	return bestof_run((unsigned int)mb.cfg.processes, measure, finish,
			  NULL);
}
