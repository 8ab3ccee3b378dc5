/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gluecheck: the end state of a device add/remove stress (the gluestress
 * step).  Three verdicts, each a count of problems and the first few:
 * sysfs (every SCSI device's glue directories, and no glue directory
 * empty or left under a removed device), the kernel log (no splat) and
 * kmemleak's report (no suspected leak).
 */
#ifndef GLUECHECK_H
#define GLUECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "json.h"

#define FINDINGS_KEPT 8
#define FINDING_LEN 240

struct findings {
	const char *area;		/* "sysfs", "kernel log", "kmemleak" */
	size_t count;			/* all problems, also those not kept */
	char kept[FINDINGS_KEPT][FINDING_LEN];
};

void finding(struct findings *f, const char *fmt, ...) __printf(2, 3);
void findings_json(struct json *j, const char *key,
		   const struct findings *f);

/* What the sysfs walk saw. */
struct glue_stats {
	size_t scsi_devices;		/* live, in bus/scsi/devices */
	size_t classes;			/* of the five, those configured */
	char class_names[96];		/* them, space-separated */
	size_t glue_dirs;		/* under devices/, of any class */
	size_t glue_children;		/* devices in those */
};

/* sysfs rooted at root ("/sys", or a fixture). */
int glue_check(const char *root, struct glue_stats *st, struct findings *f);

struct klog_stats {
	size_t lines;
	bool has_start;			/* the boot's first line is there */
};

/* A kernel log as dmesg or the console prints it. */
int klog_check(const char *path, struct klog_stats *st, struct findings *f);
/* Whether one line (timestamp and level stripped) reports a problem. */
bool klog_is_problem(const char *msg);

/* The text of /sys/kernel/debug/kmemleak after a scan. */
int kmemleak_check(const char *path, size_t *leaks, struct findings *f);

#endif
