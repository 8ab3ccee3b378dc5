// SPDX-License-Identifier: GPL-2.0
/*
 * blkscale-selftest: runs the tests in order and prints TAP (on stderr
 * with --json, which prints one JSON document on stdout instead).  After
 * every test /proc/devices must be as it was at the start and the kernel
 * must not have logged a warning the test did not ask for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "options.h"
#include "report.h"
#include "selftest.h"
#include "version.h"

static const struct st_test tests[] = {
	{ "version", "uapi version, refusal of other versions", t_version },
	{ "unknown-ioctl", "unknown commands are ENOTTY", t_unknown_ioctl },
	{ "bad-names", "empty, long, '/', control and other characters",
	  t_bad_names },
	{ "bad-counts", "batch and char probe counts out of range",
	  t_bad_counts },
	{ "bad-majors", "negative, 0 and 4096+ majors, unknown flags",
	  t_bad_majors },
	{ "bad-pointers", "faulting user pointers: EFAULT, nothing kept",
	  t_bad_pointers },
	{ "explicit-register", "explicit major, double register is EBUSY",
	  t_explicit_register },
	{ "unregister-unknown", "unregister what this file does not hold",
	  t_unregister_unknown },
	{ "close-releases", "close() releases every major of the file",
	  t_close_releases },
	{ "proc-devices", "/proc/devices lists exactly what is registered",
	  t_proc_devices },
	{ "probe-lookup", "open() of a node runs the major's probe",
	  t_probe_lookup },
	{ "wrong-name", "unregister with a wrong name keeps the entry, WARNs",
	  t_wrong_name },
	{ "non-root", "nobody cannot open or use the device", t_non_root },
	{ "capacity", "dynamic majors until EBUSY/ENOSPC, cleanly",
	  t_capacity },
	{ "dynamic-ranges", "where dynamic majors come from",
	  t_dynamic_ranges },
	{ "static-collisions", "dynamic majors assigned in devices.txt",
	  t_static_collisions },
	{ "explicit-limit", "largest explicit major (511 / 4095)",
	  t_explicit_limit },
	{ "char-probe", "dynamic char majors until refused, released",
	  t_char_probe },
	{ "concurrency", "threads registering at once, no duplicates",
	  t_concurrency },
	{ "leak", "register/unregister calls leave Slab where it was",
	  t_leak },
	{ "reserved-fields", "flags and reserved fields must be zero",
	  t_reserved_fields },
	{ "first-dynamic", "first 60 dynamic majors: below 256, unassigned",
	  t_first_dynamic },
	{ "procdev-resume", "a major added behind a small read is listed",
	  t_procdev_resume },
	{ "procdev-churn", "small reads while majors come and go",
	  t_procdev_churn },
	{ "clock-empty", "empty regions timed in the kernel, bad requests",
	  t_clock_empty },
	{ "rcu-barrier", "RCU callbacks and kfree_rcu() batches waited for",
	  t_rcu_barrier },
	{ "compat", "the i386 build through compat_ioctl", t_compat },
};
#define NTESTS (ARRAY_SIZE(tests))

static struct {
	bool json;
	bool list;
	const char *expect;
	const char *only;
	unsigned long ops;
	unsigned long slab_tolerance;
	unsigned long threads;
	const char *node_dir;
	unsigned long inject_leak;
	const char *compat_bin;
} cfg = {
	.expect = "none",
	.ops = 400000,
	.slab_tolerance = 4096,
	.threads = 4,
	.node_dir = "/tmp",
	.compat_bin = "/bin/blkscale-selftest32",
};

static const char *const expects[] = { "none", "stock", "patched", NULL };

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "JSON document on stdout, TAP on stderr"),
	OPT_ONE_OF("expect", 'e', &cfg.expect, "VARIANT",
		   "kernel variant whose behaviour to expect", expects),
	OPT_STR("only", 'o', &cfg.only, "NAMES",
		"run only these tests (comma-separated)"),
	OPT_BOOL("list", 'l', &cfg.list, "list the tests and exit"),
	OPT_NUM("ops", 0, &cfg.ops, "N",
		"register+unregister calls of the leak test", 1, 100000000),
	OPT_NUM("slab-tolerance", 0, &cfg.slab_tolerance, "KB",
		"Slab growth the leak test accepts at most (it takes less when 8 bytes per registration are less)",
		0, 1 << 20),
	OPT_NUM("threads", 't', &cfg.threads, "N",
		"threads of the concurrency test", 2, 64),
	OPT_STR("node-dir", 0, &cfg.node_dir, "DIR",
		"where device nodes are made (a tmpfs)"),
	OPT_NUM("inject-leak", 0, &cfg.inject_leak, "BYTES",
		"make the module leak BYTES per registration during the leak test (it must fail)",
		0, 4096),
	OPT_STR("compat-bin", 0, &cfg.compat_bin, "FILE",
		"the i386 build of this selftest, for the compat test"),
	OPT_END,
};

static bool selected(const char *name)
{
	return !cfg.only || opt_list_has(cfg.only, name);
}

/* Every name in --only must be a test. */
static int check_only(void)
{
	char bad[64];

	if (cfg.only && OPT_LIST_UNKNOWN(cfg.only, tests, NTESTS, bad,
					 sizeof(bad))) {
		fprintf(stderr, "blkscale-selftest: --only: no test '%s' (see --list)\n",
			bad);
		return -1;
	}
	return 0;
}

/* What every test must leave behind. */
static void after_test(struct st_ctx *ctx, struct st_result *r)
{
	struct procdev_list added, removed;
	char line[256];

	if (st_kmsg_problems(ctx, line, sizeof(line))) {
		r->status = ST_PASS;	/* this outranks the test's verdict */
		st_fail(r, "kernel logged: %.200s", line);
	}
	if (st_procdev_changes(ctx, &added, &removed, r))
		return;
	if (added.n || removed.n)
		st_fail(r, "left /proc/devices changed: %zu block majors added (%d %s), %zu removed",
			added.n, added.n ? added.v[0].major : 0,
			added.n ? added.v[0].name : "", removed.n);
	procdev_list_free(&added);
	procdev_list_free(&removed);
}

static void tap_line(FILE *tap, size_t num, const struct st_test *t,
		     const struct st_result *r)
{
	fprintf(tap, "%sok %zu - %s", r->status == ST_FAIL ? "not " : "", num,
		t->name);
	if (r->status == ST_SKIP)
		fprintf(tap, " # SKIP %s", r->detail);
	else if (r->detail[0])
		fprintf(tap, " # %s", r->detail);
	fputc('\n', tap);
	fflush(tap);
}

int main(int argc, char **argv)
{
	static struct st_result results[NTESTS];
	unsigned int passed = 0, failed = 0, skipped = 0;
	struct st_ctx ctx = { .kmsg = -1 };
	struct report rep;
	struct json j;
	size_t i, num = 0, planned = 0;
	FILE *tap;
	int ret;

	report_init(&rep, "blkscale-selftest", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("blkscale-selftest",
			     "Test the helper module and the kernel's block majors; TAP output.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	if (check_only())
		return 2;
	if (cfg.list) {
		for (i = 0; i < NTESTS; i++)
			printf("%-20s %s\n", tests[i].name, tests[i].desc);
		return 0;
	}

	ctx.expect = !strcmp(cfg.expect, "stock") ? EXPECT_STOCK :
		     !strcmp(cfg.expect, "patched") ? EXPECT_PATCHED :
		     EXPECT_NONE;
	ctx.ops = cfg.ops;
	ctx.slab_tolerance_kb = cfg.slab_tolerance;
	ctx.threads = cfg.threads;
	ctx.node_dir = cfg.node_dir;
	ctx.inject_leak = cfg.inject_leak;
	ctx.compat_bin = cfg.compat_bin;
	ctx.kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ctx.kmsg >= 0)
		lseek(ctx.kmsg, 0, SEEK_END);

	tap = cfg.json ? stderr : stdout;
	for (i = 0; i < NTESTS; i++)
		planned += selected(tests[i].name);
	fprintf(tap, "TAP version 13\n1..%zu\n", planned);
	if (st_read_procdevices(&ctx.baseline, &results[0]))
		report_error(&rep, "%s", results[0].detail);

	for (i = 0; i < NTESTS && !rep.nerrors; i++) {
		if (!selected(tests[i].name))
			continue;
		st_kmsg_problems(&ctx, NULL, 0);
		tests[i].fn(&ctx, &results[i]);
		after_test(&ctx, &results[i]);
		tap_line(tap, ++num, &tests[i], &results[i]);
		passed += results[i].status == ST_PASS;
		failed += results[i].status == ST_FAIL;
		skipped += results[i].status == ST_SKIP;
	}
	fprintf(tap, "# passed %u, failed %u, skipped %u\n", passed, failed,
		skipped);

	if (cfg.json) {
		json_init(&j, stdout);
		report_json_begin(&rep, &j);
		json_string(&j, "expect", cfg.expect);
		json_array_begin(&j, "tests");
		for (i = 0; i < NTESTS; i++) {
			if (!selected(tests[i].name))
				continue;
			json_object_begin(&j, NULL);
			json_string(&j, "name", tests[i].name);
			json_string(&j, "status",
				    results[i].status == ST_PASS ? "pass" :
				    results[i].status == ST_FAIL ? "fail" :
				    "skip");
			json_string(&j, "detail", results[i].detail);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_uint(&j, "passed", passed);
		json_uint(&j, "failed", failed);
		json_uint(&j, "skipped", skipped);
		report_json_end(&rep, &j);
	}
	procdev_free(&ctx.baseline);
	free(ctx.cap_majors);
	return (failed || rep.nerrors || num != planned) ? 1 : 0;
}
