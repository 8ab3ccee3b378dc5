// SPDX-License-Identifier: GPL-2.0
/*
 * gluecheck: the verdict at the end of the gluestress step.  Checks the
 * glue directories in sysfs (glue.c), a kernel log for splats (klog.c)
 * and kmemleak's report (kmemleak.c); prints one JSON document, and on
 * any problem exits 1 with a one-line reason, the last line on stderr,
 * naming how many problems there were and the first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gluecheck.h"
#include "options.h"
#include "report.h"
#include "version.h"

static struct {
	const char *sysfs;
	const char *log;
	const char *kmemleak;
	bool no_sysfs;
	bool json;
} cfg = {
	.sysfs = "/sys",
};

static const struct opt options[] = {
	OPT_STR("sysfs-root", 0, &cfg.sysfs, "DIR", "where sysfs is (/sys)"),
	OPT_BOOL("no-sysfs", 0, &cfg.no_sysfs, "leave sysfs unchecked"),
	OPT_STR("log", 'l', &cfg.log, "FILE",
		"a kernel log (dmesg) to search for splats"),
	OPT_STR("kmemleak", 'k', &cfg.kmemleak, "FILE",
		"kmemleak's report after a scan"),
	OPT_BOOL("json", 'j', &cfg.json, "print one JSON document"),
	OPT_END,
};

void finding(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	if (f->count < FINDINGS_KEPT) {
		va_start(ap, fmt);
		vsnprintf(f->kept[f->count], FINDING_LEN, fmt, ap);
		va_end(ap);
	}
	f->count++;
}

void findings_json(struct json *j, const char *key, const struct findings *f)
{
	size_t i;

	json_uint(j, "problems", f->count);
	json_array_begin(j, key);
	for (i = 0; i < f->count && i < FINDINGS_KEPT; i++)
		json_string(j, NULL, f->kept[i]);
	json_array_end(j);
}

int main(int argc, char **argv)
{
	struct findings sysfs = { .area = "sysfs" },
			klog = { .area = "kernel log" },
			leak = { .area = "kmemleak" };
	const struct findings *all[] = { &sysfs, &klog, &leak }, *first = NULL;
	struct glue_stats gs = { 0 };
	struct klog_stats ks = { 0 };
	size_t leaks = 0, problems = 0, i;
	struct report rep;
	struct json j;
	int ret;

	ret = opt_parse_main("gluecheck",
			     "Check glue directories, the kernel log and kmemleak after a device add/remove stress.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	report_init(&rep, "gluecheck", BLKSCALE_TOOLS_VERSION);
	if (!cfg.no_sysfs)
		glue_check(cfg.sysfs, &gs, &sysfs);
	if (cfg.log)
		klog_check(cfg.log, &ks, &klog);
	if (cfg.kmemleak)
		kmemleak_check(cfg.kmemleak, &leaks, &leak);
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		problems += all[i]->count;
		if (!first && all[i]->count)
			first = all[i];
	}
	if (first)
		report_error(&rep, "%zu problems, the first in the %s: %s",
			     problems, first->area, first->kept[0]);

	if (!cfg.json) {
		printf("gluecheck: %zu SCSI devices, %zu glue directories, %zu log lines, %zu kmemleak reports: %zu problems\n",
		       gs.scsi_devices, gs.glue_dirs, ks.lines, leaks, problems);
		for (i = 0; i < ARRAY_SIZE(all); i++)
			for (size_t k = 0; k < all[i]->count && k < FINDINGS_KEPT; k++)
				printf("  %s: %s\n", all[i]->area, all[i]->kept[k]);
		return first ? 1 : 0;
	}
	json_init(&j, stdout);
	report_json_begin(&rep, &j);
	json_object_begin(&j, "sysfs");
	json_bool(&j, "checked", !cfg.no_sysfs);
	json_uint(&j, "scsi_devices", gs.scsi_devices);
	json_string(&j, "classes", gs.class_names);
	json_uint(&j, "glue_dirs", gs.glue_dirs);
	json_uint(&j, "glue_children", gs.glue_children);
	findings_json(&j, "found", &sysfs);
	json_object_end(&j);
	json_object_begin(&j, "kernel_log");
	json_bool(&j, "checked", cfg.log != NULL);
	json_uint(&j, "lines", ks.lines);
	json_bool(&j, "has_start", ks.has_start);
	findings_json(&j, "found", &klog);
	json_object_end(&j);
	json_object_begin(&j, "kmemleak");
	json_bool(&j, "checked", cfg.kmemleak != NULL);
	json_uint(&j, "leaks", leaks);
	findings_json(&j, "found", &leak);
	json_object_end(&j);
	json_uint(&j, "problems", problems);
	if (report_json_end(&rep, &j))
		return 2;
	return first ? 1 : 0;
}
