// SPDX-License-Identifier: GPL-2.0
/*
 * procdevbench: the cost of generating /proc/devices with a given number
 * of block majors registered (through the helper module).  The headline
 * figure is what a reader pays: open, read to EOF with stdio's buffer
 * (1 KiB on procfs), close.  Two more series, labelled: one open file
 * read again after lseek to 0, and open/read/close with a large buffer.
 * At every point the text must parse and list exactly what was there
 * before plus the majors we registered, under their names.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestof.h"
#include "helper.h"
#include "options.h"
#include "procdevbench.h"
#include "procdevices.h"
#include "report.h"
#include "version.h"

#define PDB_PREFIX "bsp"	/* names of our majors: bsp0, bsp1, ... */
#define PROC_DEVICES "/proc/devices"

static struct {
	bool json;
	const char *points;
	unsigned long iters;
	const char *method;
	unsigned long bufsize;
	const char *reference;
	unsigned long processes;
	unsigned long ref_steps;
} cfg = {
	.points = "0,100,200,max",
	.iters = 200,
	.method = "all",
	.bufsize = 65536,
	.reference = "/proc/version",
	.processes = 10,
	.ref_steps = REFLOOP_STEPS,
};

static const char *const methods[] = { "all", "reader", "lseek", "reopen",
				       NULL };

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json,
		 "print one JSON document instead of a summary"),
	OPT_STR("points", 'p', &cfg.points, "LIST",
		"registered counts to measure at; max = until the kernel refuses"),
	OPT_NUM("iters", 'n', &cfg.iters, "N", "full reads per point and method",
		1, 1000000),
	OPT_ONE_OF("method", 'm', &cfg.method, "M",
		   "reader: open, stdio's buffer, close; lseek: one open file, lseek to 0; reopen: open, --buffer, close",
		   methods),
	OPT_NUM("buffer", 0, &cfg.bufsize, "BYTES",
		"read() buffer of lseek and reopen", 1, 1 << 24),
	OPT_STR("reference", 0, &cfg.reference, "FILE",
		"small proc file timed the same way, for scale"),
	OPT_NUM("processes", 0, &cfg.processes, "N",
		"measure in N processes one after another, the fastest prints (bestof.h)",
		1, BESTOF_MAX),
	OPT_NUM("ref-steps", 0, &cfg.ref_steps, "N",
		"steps of the reference timed between blocks of reads (refloop.h)",
		1, 100000000),
	OPT_END,
};

static struct report rep;
static struct procdevices baseline;
static struct pdb_point points[PDB_MAX_POINTS];
static size_t npoints;
static struct fullread_timing reference[FULLREAD_METHODS];
static int fd = -1;
static unsigned int held;	/* our majors registered now */
static int32_t majors[BLKSCALE_MAJOR_LIMIT];	/* majors[i]: PDB_PREFIX "i" */
static bool exhausted;		/* the kernel refused one of ours */
static int stop_error;
static struct bestof bo;	/* the measuring processes */
static struct refloop refl;	/* timed between blocks of reads */

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static bool method_on(enum fullread_method m)
{
	return !strcmp(cfg.method, "all") ||
	       !strcmp(cfg.method, fullread_method_names[m]);
}

/* Register more dynamic majors until target are held or the kernel says no. */
static int register_to(unsigned long target)
{
	struct helper_batch res;
	unsigned long count;
	int ret;

	while (held < target && !exhausted) {
		count = target - held;
		if (count > BLKSCALE_MAJOR_LIMIT - held)
			count = BLKSCALE_MAJOR_LIMIT - held;
		if (count > BLKSCALE_BATCH_MAX)
			count = BLKSCALE_BATCH_MAX;
		if (!count)
			break;	/* every major a dev_t can hold */
		ret = helper_batch_register(fd, count, PDB_PREFIX, held, NULL,
					    &majors[held], &res);
		if (ret) {
			report_error(&rep, "register batch: %s",
				     errno_name(ret));
			return -1;
		}
		held += res.done;
		if (res.stop_error) {
			exhausted = true;
			stop_error = res.stop_error;
			if (res.stop_error != -EBUSY &&
			    res.stop_error != -ENOSPC) {
				report_error(&rep,
					     "dynamic majors ended with %s, not EBUSY or ENOSPC",
					     errno_name(res.stop_error));
				return -1;
			}
		}
	}
	return 0;
}

static int read_parse(struct procdevices *pd, size_t *bytes)
{
	char err[REPORT_ERROR_LEN];

	if (procdev_load(PROC_DEVICES, pd, bytes, err, sizeof(err))) {
		report_error(&rep, "%s", err);
		return -1;
	}
	return 0;
}

/* Index i of a name PDB_PREFIX "i" (i < held, canonical decimal), or -1. */
static long our_index(const char *name)
{
	char canon[PROCDEV_NAME_SIZE];
	unsigned long i;
	char *end;

	if (strncmp(name, PDB_PREFIX, strlen(PDB_PREFIX)))
		return -1;
	name += strlen(PDB_PREFIX);
	i = strtoul(name, &end, 10);
	snprintf(canon, sizeof(canon), "%lu", i);
	if (*end || strcmp(canon, name) || i >= held)
		return -1;
	return (long)i;
}

/* Exactly the baseline plus our held majors, each under its own name. */
static void verify(struct pdb_point *pt)
{
	struct procdev_list added, removed;
	struct procdevices now;
	bool *seen;
	long idx;
	size_t i;
	int ret;

	pt->verified = false;
	if (read_parse(&now, &pt->bytes))
		return;
	pt->lines = now.lines;
	pt->block_majors = now.blk.n;
	seen = calloc(held + 1, sizeof(*seen));
	ret = procdev_diff(&baseline, &now, &added, &removed);
	if (!seen || ret < 0) {
		report_error(&rep, "out of memory");
		goto out_free;
	}
	if (ret)
		report_error(&rep, "%u registered: char section changed",
			     held);
	if (removed.n)
		report_error(&rep,
			     "%u registered: block major %d (%s) lost or renamed",
			     held, removed.v[0].major, removed.v[0].name);
	if (added.n != held)
		report_error(&rep,
			     "%u registered: %zu block majors added to " PROC_DEVICES,
			     held, added.n);
	for (i = 0; i < added.n; i++) {
		idx = our_index(added.v[i].name);
		if (idx < 0 || seen[idx] || majors[idx] != added.v[i].major) {
			report_error(&rep,
				     "%u registered: unexpected major %d '%s'",
				     held, added.v[i].major, added.v[i].name);
			ret = -1;
			break;
		}
		seen[idx] = true;
	}
	if (!ret && !removed.n && added.n == held)
		pt->verified = true;
out_free:
	free(seen);
	procdev_list_free(&added);
	procdev_list_free(&removed);
	procdev_free(&now);
}

static int parse_points(unsigned long *v, size_t *n)
{
	char msg[128];
	long k;

	k = opt_parse_count_list(cfg.points, "max", ULONG_MAX, v,
				 PDB_MAX_POINTS, msg, sizeof(msg));
	if (k < 0) {
		fprintf(stderr, "procdevbench: --points: %s\n", msg);
		return -1;
	}
	qsort(v, (size_t)k, sizeof(*v), cmp_ulong);
	*n = (size_t)k;
	return 0;
}

static void measure_point(unsigned long requested)
{
	struct pdb_point *pt;
	enum fullread_method m;
	int ret;

	if (register_to(requested))
		return;
	/* past the capacity every larger point is the same point */
	if (npoints && points[npoints - 1].registered == held)
		return;
	pt = &points[npoints++];
	pt->requested = requested;
	pt->registered = held;
	verify(pt);
	for (m = 0; m < FULLREAD_METHODS; m++) {
		if (!method_on(m))
			continue;
		ret = fullread_measure_ref(PROC_DEVICES, m, cfg.iters,
					   cfg.bufsize, &refl, &pt->t[m]);
		if (ret)
			report_error(&rep, "%u registered: %s read: %s", held,
				     fullread_method_names[m], errno_name(ret));
		else if (!pt->t[m].size_stable)
			report_error(&rep, "%u registered: %s reads differ in size",
				     held, fullread_method_names[m]);
	}
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

static const struct fullread_timing *headline(const struct pdb_point *pt)
{
	return &pt->t[headline_method()];
}

static double per_line(const struct fullread_timing *t, size_t lines)
{
	return lines ? (double)t->st.p50 / (double)lines : 0;
}

static void json_timing(struct json *j, const char *key,
			const struct fullread_timing *t, size_t lines)
{
	json_object_begin(j, key);
	json_uint(j, "ns_per_read", t->st.p50);
	refcost_summary_json(j, "ref_per_read", &t->ref);
	json_double(j, "ns_per_line", per_line(t, lines));
	json_uint(j, "buffer", t->buffer);
	json_uint(j, "read_calls", t->read_calls);
	json_stats(j, "read_ns", &t->st);
	json_object_end(j);
}

static void print_json(void)
{
	const struct fullread_timing *h;
	struct json j;
	enum fullread_method m;
	size_t i;

	json_init(&j, stdout);
	report_json_begin(&rep, &j);
	json_object_begin(&j, "config");
	json_string(&j, "points", cfg.points);
	json_uint(&j, "iters", cfg.iters);
	json_string(&j, "method", cfg.method);
	json_uint(&j, "buffer", cfg.bufsize);
	json_uint(&j, "processes", cfg.processes);
	json_uint(&j, "ref_steps", cfg.ref_steps);
	json_object_end(&j);
	bestof_json(&j, "processes", &bo);
	refloop_json(&j, "refloop", &refl);
	json_string(&j, "headline", fullread_method_names[headline_method()]);
	json_uint(&j, "baseline_block_majors", baseline.blk.n);
	json_uint(&j, "baseline_char_entries", baseline.chr.n);
	json_bool(&j, "capacity_reached", exhausted);
	json_array_begin(&j, "points");
	for (i = 0; i < npoints; i++) {
		h = headline(&points[i]);
		json_object_begin(&j, NULL);
		json_uint(&j, "registered", points[i].registered);
		json_uint(&j, "ns_per_read", h->st.p50);
		if (h->ref.blocks)
			json_double(&j, "ref_per_read", h->ref.median);
		else
			json_null(&j, "ref_per_read");
		json_double(&j, "ns_per_line", per_line(h, points[i].lines));
		json_uint(&j, "lines", points[i].lines);
		json_uint(&j, "bytes", points[i].bytes);
		json_uint(&j, "block_majors", points[i].block_majors);
		json_bool(&j, "verified", points[i].verified);
		json_string(&j, "requested",
			    points[i].requested == ULONG_MAX ? "max" : NULL);
		for (m = 0; m < FULLREAD_METHODS; m++)
			if (points[i].t[m].measured)
				json_timing(&j, fullread_method_names[m],
					    &points[i].t[m], points[i].lines);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_begin(&j, "reference");
	json_string(&j, "path", cfg.reference);
	for (m = 0; m < FULLREAD_METHODS; m++)
		if (reference[m].measured)
			json_uint(&j, fullread_method_names[m],
				  reference[m].st.p50);
	json_object_end(&j);
	if (report_json_end(&rep, &j))
		fprintf(stderr, "procdevbench: internal error: bad JSON\n");
}

static void print_human(void)
{
	const struct fullread_timing *h;
	enum fullread_method m;
	size_t i;

	printf("%10s %8s %8s %12s %12s %12s %12s %9s\n", "registered",
	       "lines", "bytes", "ns/read", "ns/line", "lseek ns", "reopen ns",
	       "verified");
	for (i = 0; i < npoints; i++) {
		h = headline(&points[i]);
		printf("%10u %8zu %8zu %12llu %12.1f %12llu %12llu %9s\n",
		       points[i].registered, points[i].lines, points[i].bytes,
		       (unsigned long long)h->st.p50,
		       per_line(h, points[i].lines),
		       (unsigned long long)points[i].t[FULLREAD_LSEEK].st.p50,
		       (unsigned long long)points[i].t[FULLREAD_REOPEN].st.p50,
		       points[i].verified ? "yes" : "NO");
	}
	printf("ns/read, ns/line: %s (lseek, reopen: --buffer %lu)\n",
	       fullread_method_names[headline_method()], cfg.bufsize);
	for (i = 0; i < npoints; i++) {
		h = headline(&points[i]);
		if (h->ref.blocks)
			printf("%10u registered: %.0f reference steps per read, median of %zu blocks (%.0f-%.0f)\n",
			       points[i].registered, h->ref.median,
			       h->ref.blocks, h->ref.min, h->ref.max);
	}
	for (m = 0; m < FULLREAD_METHODS; m++)
		if (reference[m].measured)
			printf("%s (%s): %llu ns per read\n", cfg.reference,
			       fullread_method_names[m],
			       (unsigned long long)reference[m].st.p50);
	printf("processes: %u measured of %u, process %u printed (%s)\n",
	       bo.measured, bo.processes, bo.chosen + 1,
	       bo.failed_chosen ? "its measurement failed" : "the fastest");
	printf("procdevbench: %s\n", rep.nerrors ? "FAILED" : "ok");
}

static void run(void)
{
	unsigned long want[PDB_MAX_POINTS];
	struct helper_batch res;
	struct procdevices after;
	enum fullread_method m;
	size_t i, n, bytes;

	if (parse_points(want, &n))
		return;
	if (read_parse(&baseline, &bytes))
		return;
	for (i = 0; i < n; i++)
		measure_point(want[i]);

	for (m = 0; m < FULLREAD_METHODS; m++)
		if (method_on(m) &&
		    fullread_measure(cfg.reference, m, cfg.iters, cfg.bufsize,
				     &reference[m]))
			report_error(&rep, "%s: cannot be read", cfg.reference);

	while (held) {
		if (helper_batch_unregister(fd, held > BLKSCALE_BATCH_MAX ?
					    BLKSCALE_BATCH_MAX : held,
					    NULL, NULL, &res) || !res.done) {
			report_error(&rep, "unregister batch failed");
			return;
		}
		held -= res.done;
	}
	if (read_parse(&after, &bytes))
		return;
	if (after.blk.n != baseline.blk.n)
		report_error(&rep, "%s: %zu block majors at the end, %zu before",
			     PROC_DEVICES, after.blk.n, baseline.blk.n);
	procdev_free(&after);
}

/*
 * Which measuring process prints: the lowest geometric mean of the
 * headline read cost over the points (the per-process mode moves every
 * point alike).
 */
static double score(void)
{
	const struct fullread_timing *h;
	double logs = 0;
	size_t i, n = 0;

	for (i = 0; i < npoints; i++) {
		h = headline(&points[i]);
		if (h->measured && h->st.p50) {
			logs += log((double)h->st.p50);
			n++;
		}
	}
	return n ? logs / (double)n : NAN;
}

/* In each measuring process: everything that is timed or checked. */
static unsigned long measure(void *ctx, double *result)
{
	uint32_t version;

	(void)ctx;
	refloop_init(&refl, cfg.ref_steps);
	fd = helper_open(&version);
	if (fd == -EPROTO)
		report_error(&rep,
			     HELPER_DEV ": module speaks version %u, tools %u",
			     version, BLKSCALE_UAPI_VERSION);
	else if (fd < 0)
		report_error(&rep, HELPER_DEV ": %s (module loaded?)",
			     strerror(-fd));
	else
		run();
	if (fd >= 0)
		close(fd);
	fd = -1;
	if (refl.oom)
		report_error(&rep, "out of memory for the reference timings");
	*result = score();
	return rep.nerrors;
}

/* In the process chosen to print. */
static int finish(void *ctx, const struct bestof *chosen)
{
	(void)ctx;
	bo = *chosen;
	bestof_report_lost(&bo, &rep);
	if (cfg.json)
		print_json();
	else
		print_human();
	return rep.nerrors ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long want[PDB_MAX_POINTS];
	int ret;
	size_t n;

	report_init(&rep, "procdevbench", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse_main("procdevbench",
			     "Time full reads of /proc/devices at several counts of registered\n"
			     "block majors (through /dev/" BLKSCALE_DEV_NAME
			     ") and check what it lists.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	/* bad points are a usage error, found before anything is measured */
	if (parse_points(want, &n))
		return 2;
	return bestof_run((unsigned int)cfg.processes, measure, finish, NULL);
}
