// SPDX-License-Identifier: GPL-2.0
/*
 * diskcensus: count the disks of each kind against what the plan
 * expects, check that every dev_t is unique and that /dev, /sys/dev/block
 * and /proc/partitions agree on each disk, read each disk once, and time
 * it all.  Exit 0 only when everything matched.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "clock.h"
#include "options.h"
#include "sysfs.h"
#include "version.h"

#define NOT_GIVEN ULONG_MAX
#define EXPECT_MAX 1000000ul

static struct {
	bool json;
	bool no_read;
	unsigned long expect[DISK_OTHER];
	unsigned long max_failures;
	const char *sysfs, *proc, *dev;
	const char *groups, *nonce, *serial_map;
	const char *links, *no_by_id;
} cfg = {
	.expect = { NOT_GIVEN, NOT_GIVEN, NOT_GIVEN },
	.max_failures = 32,
	.sysfs = "/sys",
	.proc = "/proc",
	.dev = "/dev",
};

static const char *const expect_env[DISK_OTHER] = {
	[DISK_VIRTIO] = "BLKSCALE_EXPECT_VIRTIO",
	[DISK_SCSI] = "BLKSCALE_EXPECT_SCSI",
	[DISK_SIM] = "BLKSCALE_EXPECT_SIM",
};

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "print one JSON document instead of a summary"),
	OPT_NUM("expect-virtio", 0, &cfg.expect[DISK_VIRTIO], "N",
		"virtio-blk disks expected (default: $BLKSCALE_EXPECT_VIRTIO, else 0)",
		0, EXPECT_MAX),
	OPT_NUM("expect-scsi", 0, &cfg.expect[DISK_SCSI], "N",
		"virtio-scsi disks expected (default: $BLKSCALE_EXPECT_SCSI, else 0)",
		0, EXPECT_MAX),
	OPT_NUM("expect-sim", 0, &cfg.expect[DISK_SIM], "N",
		"scsi_debug and null_blk disks expected (default: $BLKSCALE_EXPECT_SIM, else 0)",
		0, EXPECT_MAX),
	OPT_BOOL("no-read", 0, &cfg.no_read, "do not read the disks"),
	OPT_NUM("max-failures", 0, &cfg.max_failures, "N",
		"failures listed one by one, 32 by default (all are counted)", 0, 100000),
	OPT_STR("groups", 0, &cfg.groups, "FILE",
		"the plan's disk groups, 'id kind disks sectors signed' a line: check every disk's serial, size and signature"),
	OPT_STR("nonce", 0, &cfg.nonce, "HEX",
		"the run's signature nonce (default: $BLKSCALE_SIGNATURE_NONCE)"),
	OPT_STR("serial-map", 0, &cfg.serial_map, "FILE",
		"write 'serial name' of every disk with a serial to FILE"),
	OPT_STR("links", 0, &cfg.links, "DIR",
		"udev's link directory (/dev/disk): every disk must have a by-id link there; by-path links are counted"),
	OPT_STR("no-by-id", 0, &cfg.no_by_id, "KINDS",
		"disk kinds excused from the by-id link, comma-separated: virtio_blk, virtio_scsi, scsi_debug, null_blk"),
	OPT_STR("sysfs-root", 0, &cfg.sysfs, "DIR", "where sysfs is (/sys)"),
	OPT_STR("proc-root", 0, &cfg.proc, "DIR", "where procfs is (/proc)"),
	OPT_STR("dev-root", 0, &cfg.dev, "DIR",
		"where the device nodes are (/dev)"),
	OPT_END,
};

/* Options win over the plan's environment; neither means 0. */
static int expectations(struct census *c)
{
	enum disk_kind k;
	const char *val;
	char *end;

	for (k = 0; k < DISK_OTHER; k++) {
		if (cfg.expect[k] != NOT_GIVEN) {
			c->expect[k].count = cfg.expect[k];
			c->expect[k].source = "option";
			continue;
		}
		val = getenv(expect_env[k]);
		if (!val || !val[0]) {
			c->expect[k].count = 0;
			c->expect[k].source = "default";
			continue;
		}
		errno = 0;
		c->expect[k].count = strtoul(val, &end, 10);
		if (val[0] < '0' || val[0] > '9' || *end || errno ||
		    c->expect[k].count > EXPECT_MAX) {
			fprintf(stderr,
				"diskcensus: %s: '%.40s' is not a number of disks (0..%lu)\n",
				expect_env[k], val, EXPECT_MAX);
			return -1;
		}
		c->expect[k].source = "environment";
	}
	return 0;
}

static int load_groups(struct census *c)
{
	char err[160], *text;
	long len;

	if (!cfg.groups)
		return 0;
	len = procdev_read_file(cfg.groups, &text);
	if (len < 0) {
		fprintf(stderr, "diskcensus: %s: %s\n", cfg.groups,
			strerror((int)-len));
		return -1;
	}
	if (diskplan_parse(text, &c->plan, err, sizeof(err))) {
		fprintf(stderr, "diskcensus: %s: %s\n", cfg.groups, err);
		free(text);
		return -1;
	}
	free(text);
	c->have_plan = true;
	c->nonce = cfg.nonce ? cfg.nonce : getenv("BLKSCALE_SIGNATURE_NONCE");
	if (c->nonce && !c->nonce[0])
		c->nonce = NULL;
	return 0;
}

static void read_uptime(struct census *c)
{
	char path[PATH_MAX], text[128];
	char *end;
	long ret;

	snprintf(path, sizeof(path), "%s/uptime", c->paths.proc);
	ret = sysfs_read(path, text, sizeof(text));
	if (ret < 0) {
		report_error(&c->rep, "%s: %s", path, strerror((int)-ret));
		return;
	}
	c->uptime_s = strtod(text, &end);
	if (end == text || *end != ' ')
		report_error(&c->rep, "%s: '%.40s' is not 'seconds idle'", path,
			     text);
}

int main(int argc, char **argv)
{
	static struct census c;
	uint64_t t0 = now_ns();
	int ret;

	report_init(&c.rep, "diskcensus", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("diskcensus",
			     "Count the disks of each kind against the plan, check every dev_t\n"
			     "and its /dev, /sys/dev/block and /proc/partitions views, read each disk.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	if (expectations(&c) || load_groups(&c))
		return 2;
	if (census_links_excuse(&c, cfg.no_by_id)) {
		fprintf(stderr, "diskcensus: --no-by-id: '%.60s': not a list of virtio_blk, virtio_scsi, scsi_debug, null_blk\n",
			cfg.no_by_id);
		return 2;
	}
	c.links.dir = cfg.links;
	c.paths.sysfs = cfg.sysfs;
	c.paths.proc = cfg.proc;
	c.paths.dev = cfg.dev;
	c.read_disks = !cfg.no_read;
	c.max_failures = cfg.max_failures;
	c.failures = calloc(cfg.max_failures ? cfg.max_failures : 1,
			    sizeof(*c.failures));
	if (!c.failures)
		report_error(&c.rep, "out of memory");
	else if (!census_scan(&c)) {
		census_verify(&c);
		if (cfg.serial_map && (ret = census_write_serial_map(&c, cfg.serial_map)))
			report_error(&c.rep, "%s: %s", cfg.serial_map,
				     strerror(-ret));
	}
	c.duration_s = (double)(now_ns() - t0) / 1e9;
	read_uptime(&c);

	if (cfg.json)
		census_print_json(&c);
	else
		census_print_human(&c);
	return c.rep.nerrors ? 1 : 0;
}
