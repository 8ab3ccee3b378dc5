// SPDX-License-Identifier: GPL-2.0
/*
 * diskwait: /init's wait for the disks of the plan.  Looks at /sys/block
 * every --interval-ms (50) until --expect disks are there or --timeout-s
 * has passed, printing progress to stderr once a second.  With --shell it
 * prints what /init records in the guest section: how it waited, at what
 * resolution, and what it found.  The kernel has no netlink (CONFIG_NET)
 * to deliver uevents, so polling is the method.
 */
#include <limits.h>
#include <stdio.h>

#include "diskwait.h"
#include "errname.h"
#include "options.h"

static struct {
	unsigned long expect;
	unsigned long timeout_s;
	unsigned long interval_ms;
	const char *sysfs;
	bool shell;
} cfg = {
	.timeout_s = 60,
	.interval_ms = 50,
	.sysfs = "/sys",
};

static const struct opt options[] = {
	OPT_NUM("expect", 'e', &cfg.expect, "N", "disks to wait for", 0,
		10000000),
	OPT_NUM("timeout-s", 't', &cfg.timeout_s, "S",
		"give up after S seconds", 0, 86400),
	OPT_NUM("interval-ms", 'i', &cfg.interval_ms, "MS",
		"time between the starts of two looks", 1, 1000),
	OPT_STR("sysfs-root", 0, &cfg.sysfs, "DIR", "where sysfs is (/sys)"),
	OPT_BOOL("shell", 0, &cfg.shell,
		 "print BLKSCALE_DISK_WAIT_* shell assignments"),
	OPT_END,
};

#define NS_PER_MS 1000000ull

int main(int argc, char **argv)
{
	char dir[PATH_MAX];
	struct disk_wait w = { 0 };
	int ret;

	ret = opt_parse_main("diskwait",
			     "Wait until the expected disks are in /sys/block.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	snprintf(dir, sizeof(dir), "%s/block", cfg.sysfs);
	w.dir = dir;
	w.expected = cfg.expect;
	w.interval_ms = cfg.interval_ms;
	w.timeout_ms = cfg.timeout_s * 1000;
	w.progress = stderr;
	ret = disk_wait(&w);
	if (w.error)
		fprintf(stderr, "diskwait: %s: %s\n", dir, errno_name(w.error));
	if (cfg.shell) {
		printf("BLKSCALE_DISK_WAIT_METHOD=poll\n");
		printf("BLKSCALE_DISK_WAIT_RESOLUTION_MS=%lu\n", cfg.interval_ms);
		printf("BLKSCALE_DISK_WAIT_FOUND=%lu\n", w.found);
		printf("BLKSCALE_DISK_WAIT_MS=%llu\n",
		       (unsigned long long)((w.waited_ns + NS_PER_MS / 2) /
					    NS_PER_MS));
		/* rounded up: the resolution is never understated */
		printf("BLKSCALE_DISK_WAIT_MAX_GAP_MS=%llu\n",
		       (unsigned long long)((w.max_gap_ns + NS_PER_MS - 1) /
					    NS_PER_MS));
	}
	/* for people: on the console when /init runs it with --shell */
	fprintf(cfg.shell ? stderr : stdout,
		"diskwait: %lu/%lu disks after %.3f s (%lu looks every %lu ms, longest %.1f ms, longest gap %.1f ms)%s\n",
		w.found, w.expected, (double)w.waited_ns / 1e9, w.looks,
		cfg.interval_ms, (double)w.max_look_ns / 1e6,
		(double)w.max_gap_ns / 1e6, w.timed_out ? ": timed out" : "");
	return ret ? 1 : 0;
}
