// SPDX-License-Identifier: GPL-2.0
/*
 * partbench: the cost of a full read of /proc/partitions and of
 * /proc/diskstats with the disks there are, and whether a read that
 * disks come and go during lists every other disk exactly once.
 *
 * Both files are seq_files over the block class whose start
 * (disk_seqf_start()) walks the class from its first disk on every
 * read() call, at the position where the last one stopped: a full read
 * costs O(disks^2 / disks per read()), and a disk removed between two
 * read() calls makes the walk land one disk too far.  The costs are
 * timed first, the interleaved reads (churn.c) come last.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "churn.h"
#include "diskstats.h"
#include "errname.h"
#include "options.h"
#include "partbench.h"
#include "procdevices.h"
#include "refloop.h"
#include "version.h"

#define PB_MIN_ITERS 3

static struct {
	bool json;
	unsigned long iters;
	unsigned long budget_ms;
	const char *method;
	unsigned long bufsize;
	unsigned long ref_steps;
	const char *check;
	unsigned long adds;
	bool expect_complete;
	unsigned long restore_s;
} cfg = {
	.iters = 50,
	.budget_ms = 3000,
	.method = "all",
	.bufsize = 65536,
	.ref_steps = REFLOOP_STEPS,
	.check = "partitions,diskstats",
	.adds = 2,
	.restore_s = 300,
};

static const char *const methods[] = { "all", "reader", "lseek", "reopen",
				       NULL };

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "print one JSON document instead of a summary"),
	OPT_NUM("iters", 'n', &cfg.iters, "N",
		"at most N timed full reads per file and method", 1, 1000000),
	OPT_NUM("budget-ms", 0, &cfg.budget_ms, "MS",
		"fewer reads where N would take longer than this (at least 3)",
		1, 3600000),
	OPT_ONE_OF("method", 'm', &cfg.method, "M",
		   "reader: open, stdio's buffer, close; lseek: one open file, lseek to 0; reopen: open, --buffer, close",
		   methods),
	OPT_NUM("buffer", 0, &cfg.bufsize, "BYTES",
		"read() buffer of lseek and reopen", 1, 1 << 24),
	OPT_NUM("ref-steps", 0, &cfg.ref_steps, "N",
		"steps of the reference timed between blocks of reads (refloop.h)",
		1, 100000000),
	OPT_STR("check", 0, &cfg.check, "LIST",
		"files read while disks are deleted and added: partitions,diskstats or none"),
	OPT_NUM("adds", 0, &cfg.adds, "N",
		"disks deleted before each interleaved read and scanned back during it",
		0, PB_MAX_ADDS),
	OPT_BOOL("expect-complete", 0, &cfg.expect_complete,
		 "fail when an interleaved read misses or repeats a disk, or cannot run"),
	OPT_NUM("restore-timeout", 0, &cfg.restore_s, "S",
		"seconds to wait for the deleted disks to come back", 1, 86400),
	OPT_END,
};

static struct pb_file files[] = {
	{ .name = "partitions", .path = "/proc/partitions",
	  .parse = partitions_parse },
	{ .name = "diskstats", .path = "/proc/diskstats",
	  .parse = diskstats_parse },
};

static struct report rep;
static struct refloop refl;
static size_t sys_block_disks;

static bool method_on(enum fullread_method m)
{
	return !strcmp(cfg.method, "all") ||
	       !strcmp(cfg.method, fullread_method_names[m]);
}

/* The headline: the first method measured, the reader unless left out. */
static enum fullread_method headline_method(void)
{
	enum fullread_method m;

	for (m = 0; m < FULLREAD_METHODS - 1; m++)
		if (method_on(m))
			break;
	return m;
}

/* Every item of --check a file name, "none" alone, or an error. */
static int parse_check(void)
{
	char bad[64];
	size_t i;

	if (!strcmp(cfg.check, "none"))
		return 0;
	if (OPT_LIST_UNKNOWN(cfg.check, files, ARRAY_SIZE(files), bad,
			     sizeof(bad))) {
		fprintf(stderr,
			"partbench: --check: unknown file '%s' (partitions, diskstats or none)\n",
			bad);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		files[i].checked = opt_list_has(cfg.check, files[i].name);
	return 0;
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

/* What f lists now: lines, bytes, entries, whole disks among them. */
static int describe(struct pb_file *f)
{
	char err[REPORT_ERROR_LEN], path[PATH_MAX];
	struct partitions pt;
	char *text;
	long len;
	size_t i;

	len = procdev_read_file(f->path, &text);
	if (len < 0) {
		report_error(&rep, "%s: %s", f->path, errno_name((int)len));
		return -1;
	}
	f->bytes = (size_t)len;
	f->lines = count_lines(text, (size_t)len);
	if (f->parse(text, (size_t)len, &pt, err, sizeof(err))) {
		report_error(&rep, "%s: %s", f->path, err);
		free(text);
		return -1;
	}
	free(text);
	f->entries = pt.n;
	for (i = 0; i < pt.n; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s", pt.v[i].name);
		f->disks += !access(path, F_OK);
	}
	partitions_free(&pt);
	return 0;
}

/* Reads per method: cfg.iters, fewer where they would pass the budget. */
static unsigned long plan_iters(const struct pb_file *f,
				enum fullread_method m)
{
	struct fullread_timing probe;
	uint64_t budget = (uint64_t)cfg.budget_ms * 1000000ull;
	unsigned long n;
	int ret;

	ret = fullread_measure(f->path, m, 1, cfg.bufsize, &probe);
	if (ret || !probe.st.p50)
		return cfg.iters;
	n = (unsigned long)(budget / probe.st.p50);
	if (n < PB_MIN_ITERS)
		n = PB_MIN_ITERS;
	return n < cfg.iters ? n : cfg.iters;
}

static void measure_file(struct pb_file *f)
{
	enum fullread_method m;
	int ret;

	if (describe(f))
		return;
	for (m = 0; m < FULLREAD_METHODS; m++) {
		if (!method_on(m))
			continue;
		f->iters[m] = plan_iters(f, m);
		ret = fullread_measure_ref(f->path, m, f->iters[m], cfg.bufsize,
					   &refl, &f->t[m]);
		if (ret)
			report_error(&rep, "%s: %s read: %s", f->path,
				     fullread_method_names[m], errno_name(ret));
		else if (!f->t[m].size_stable)
			report_error(&rep, "%s: %s reads differ in size",
				     f->path, fullread_method_names[m]);
	}
}

static void check_file(struct pb_file *f)
{
	const struct pb_churn *c = &f->churn;

	if (!f->checked)
		return;
	if (pb_churn_run(f, (unsigned int)cfg.adds, cfg.restore_s, &rep))
		return;
	if (!cfg.expect_complete)
		return;
	if (!c->run)
		report_error(&rep, "%s: the interleaved read did not run: %s",
			     f->path, c->why);
	else if (c->lc.missed.n || c->lc.repeated.n)
		report_error(&rep,
			     "%s: read while %s was deleted: %zu disks missed (first %s), %zu repeated (first %s)",
			     f->path, c->deleted.name, c->lc.missed.n,
			     c->lc.missed.n ? c->lc.missed.v[0] : "none",
			     c->lc.repeated.n,
			     c->lc.repeated.n ? c->lc.repeated.v[0] : "none");
}

/* Whole disks there are: the entries of /sys/block. */
static size_t count_sys_block(void)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	d = opendir("/sys/block");
	if (!d) {
		report_error(&rep, "/sys/block: %s", errno_name(-errno));
		return 0;
	}
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static double per_line(const struct fullread_timing *t, size_t lines)
{
	return lines ? (double)t->st.p50 / (double)lines : 0;
}

static void json_timing(struct json *j, const char *key,
			const struct fullread_timing *t, size_t lines,
			unsigned long iters)
{
	json_object_begin(j, key);
	json_uint(j, "ns_per_read", t->st.p50);
	refcost_summary_json(j, "ref_per_read", &t->ref);
	json_double(j, "ns_per_line", per_line(t, lines));
	json_uint(j, "buffer", t->buffer);
	json_uint(j, "read_calls", t->read_calls);
	json_uint(j, "reads", iters);
	json_stats(j, "read_ns", &t->st);
	json_object_end(j);
}

static void json_file(struct json *j, const struct pb_file *f)
{
	const struct fullread_timing *h = &f->t[headline_method()];
	enum fullread_method m;

	json_object_begin(j, f->name);
	json_string(j, "path", f->path);
	if (h->measured) {
		json_uint(j, "ns_per_read", h->st.p50);
		json_uint(j, "min_ns", h->st.min);
		json_uint(j, "max_ns", h->st.max);
		json_uint(j, "read_calls", h->read_calls);
	} else {
		json_null(j, "ns_per_read");
		json_null(j, "min_ns");
		json_null(j, "max_ns");
		json_null(j, "read_calls");
	}
	if (h->ref.blocks)
		json_double(j, "ref_per_read", h->ref.median);
	else
		json_null(j, "ref_per_read");
	json_double(j, "ns_per_line", per_line(h, f->lines));
	json_uint(j, "lines", f->lines);
	json_uint(j, "bytes", f->bytes);
	json_uint(j, "entries", f->entries);
	json_uint(j, "disks", f->disks);
	for (m = 0; m < FULLREAD_METHODS; m++)
		if (f->t[m].measured)
			json_timing(j, fullread_method_names[m], &f->t[m],
				    f->lines, f->iters[m]);
	json_object_end(j);
}

static void print_json(void)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	report_json_begin(&rep, &j);
	json_object_begin(&j, "config");
	json_uint(&j, "iters", cfg.iters);
	json_uint(&j, "budget_ms", cfg.budget_ms);
	json_string(&j, "method", cfg.method);
	json_uint(&j, "buffer", cfg.bufsize);
	json_uint(&j, "ref_steps", cfg.ref_steps);
	json_string(&j, "check", cfg.check);
	json_uint(&j, "adds", cfg.adds);
	json_bool(&j, "expect_complete", cfg.expect_complete);
	json_uint(&j, "page", (uint64_t)sysconf(_SC_PAGESIZE));
	json_object_end(&j);
	refloop_json(&j, "refloop", &refl);
	json_string(&j, "headline", fullread_method_names[headline_method()]);
	json_uint(&j, "disks", sys_block_disks);
	json_object_begin(&j, "files");
	for (i = 0; i < ARRAY_SIZE(files); i++)
		json_file(&j, &files[i]);
	json_object_end(&j);
	json_object_begin(&j, "interleave");
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (files[i].checked)
			pb_churn_json(&j, &files[i]);
	json_object_end(&j);
	if (report_json_end(&rep, &j))
		fprintf(stderr, "partbench: internal error: bad JSON\n");
}

static void print_human(void)
{
	const struct fullread_timing *h;
	const struct pb_churn *c;
	size_t i;

	printf("%-11s %8s %9s %8s %12s %12s %12s %6s\n", "file", "entries",
	       "bytes", "reads", "ns/read", "min ns", "max ns", "calls");
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		h = &files[i].t[headline_method()];
		printf("%-11s %8zu %9zu %8zu %12llu %12llu %12llu %6llu\n",
		       files[i].name, files[i].entries, files[i].bytes,
		       h->st.n, (unsigned long long)h->st.p50,
		       (unsigned long long)h->st.min,
		       (unsigned long long)h->st.max,
		       (unsigned long long)h->read_calls);
	}
	printf("ns/read: %s, median of the reads\n",
	       fullread_method_names[headline_method()]);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		c = &files[i].churn;
		if (!files[i].checked)
			continue;
		if (!c->run)
			printf("%s interleaved: not run: %s\n", files[i].name,
			       c->why);
		else
			printf("%s interleaved: %s deleted after the first page, %zu added back: %zu of %zu missed%s%s, %zu repeated%s%s\n",
			       files[i].name, c->deleted.name, c->nreadded,
			       c->lc.missed.n, c->lc.expected,
			       c->lc.missed.n ? " (first " : "",
			       c->lc.missed.n ? c->lc.missed.v[0] : "",
			       c->lc.repeated.n,
			       c->lc.repeated.n ? " (first " : "",
			       c->lc.repeated.n ? c->lc.repeated.v[0] : "");
	}
	printf("partbench: %s\n", rep.nerrors ? "FAILED" : "ok");
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	report_init(&rep, "partbench", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("partbench",
			     "Time full reads of /proc/partitions and /proc/diskstats, then read\n"
			     "each while SCSI disks are deleted and added and check that it lists\n"
			     "every other disk once (the deleted disks are put back).",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	if (parse_check())
		return 2;
	if (refloop_init(&refl, cfg.ref_steps))
		report_error(&rep, "out of memory for the reference");
	for (i = 0; i < ARRAY_SIZE(files); i++)
		measure_file(&files[i]);
	sys_block_disks = count_sys_block();
	/* last: the disks come back, but maybe not under their names */
	for (i = 0; i < ARRAY_SIZE(files); i++)
		check_file(&files[i]);
	if (refl.oom)
		report_error(&rep, "out of memory for the reference timings");
	if (cfg.json)
		print_json();
	else
		print_human();
	return rep.nerrors ? 1 : 0;
}
