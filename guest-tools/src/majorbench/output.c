// SPDX-License-Identifier: GPL-2.0
/* majorbench results: one JSON document, or a summary for people. */
#include <stdio.h>
#include <stdlib.h>

#include "helper.h"
#include "majorbench.h"

/* Lookups are taken at a few exact points, so they are not bucketed. */
static void json_curve_of(struct json *j, const char *key,
			  const struct curve_samples *s, uint64_t width)
{
	struct curve_point *pts;
	long n;

	n = curve_build(s->v, s->n, width, &pts);
	if (n < 0) {
		json_null(j, key);
		return;
	}
	json_curve(j, key, pts, (size_t)n);
	free(pts);
}

static void json_block(struct mb *mb, struct json *j)
{
	struct mb_block *blk = &mb->blk;
	unsigned int i, shown;

	if (!blk->measured) {
		json_null(j, "block");
		return;
	}
	json_object_begin(j, "block");
	json_uint(j, "baseline_registered", blk->baseline_registered);
	json_uint(j, "dynamic_capacity", blk->capacity);
	json_bool(j, "capacity_exhausted", blk->exhausted);
	json_string(j, "stop_error",
		    blk->exhausted ? errno_name(blk->stop_error) : NULL);
	json_array_begin(j, "capacity_per_round");
	for (i = 0; i < blk->rounds_done; i++)
		json_uint(j, NULL, blk->capacity_per_round[i]);
	json_array_end(j);
	if (mb->cfg.rcu_barrier) {
		json_object_begin(j, "rcu_barrier");
		json_uint(j, "done", blk->barriers_done);
		json_bool(j, "rcu",
			  blk->barrier_bits & BLKSCALE_BARRIER_RCU);
		json_bool(j, "kvfree_rcu",
			  blk->barrier_bits & BLKSCALE_BARRIER_KVFREE_RCU);
		json_object_end(j);
	} else {
		json_null(j, "rcu_barrier");
	}
	if (mb->cfg.churn) {
		json_object_begin(j, "churn");
		json_uint(j, "requested", mb->cfg.churn);
		json_uint(j, "rounds", blk->churn_rounds);
		json_uint(j, "majors", blk->capacity);
		json_uint(j, "ns", blk->churn_ns);
		json_object_end(j);
	} else {
		json_null(j, "churn");
	}

	json_object_begin(j, "majors_obtained");
	json_uint(j, "count", blk->capacity);
	if (blk->capacity && blk->nranges > 0) {
		json_int(j, "min", blk->ranges[0].first);
		json_int(j, "max", blk->ranges[blk->nranges - 1].last);
		json_int(j, "first", blk->majors[0]);
		json_int(j, "last", blk->majors[blk->capacity - 1]);
		json_ranges(j, "ranges", blk->ranges, (size_t)blk->nranges);
	}
	json_uint(j, "duplicates", blk->duplicates);
	json_uint(j, "module_duplicates", blk->module_duplicates);
	json_object_end(j);

	json_object_begin(j, "static_collisions");
	json_uint(j, "count", blk->collisions);
	json_array_begin(j, "first");
	shown = blk->collisions < mb->cfg.show ? blk->collisions :
		mb->cfg.show;
	for (i = 0; i < shown; i++) {
		json_object_begin(j, NULL);
		json_int(j, "major", blk->collision[i].major);
		json_string(j, "assigned_to", blk->collision[i].assigned_to);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);

	if (blk->proc_devices_ok < 0)
		json_null(j, "proc_devices_verified");
	else
		json_bool(j, "proc_devices_verified", blk->proc_devices_ok);

	json_curve_of(j, "register", &blk->reg, mb->cfg.bucket);
	json_curve_of(j, "unregister", &blk->unreg, mb->cfg.bucket);
	json_curve_of(j, "register_cold", &blk->reg_cold, mb->cfg.bucket);
	json_curve_of(j, "unregister_cold", &blk->unreg_cold, mb->cfg.bucket);
	json_curve_of(j, "lookup", &blk->lookup, 1);
	json_curve_of(j, "lookup_miss", &blk->miss, 1);
	refcost_json(j, "register_ref", &blk->reg_ref);
	refcost_json(j, "lookup_ref", &blk->lookup_ref);

	json_object_begin(j, "lookup_check");
	json_bool(j, "node_dir_tmpfs", blk->node_dir_tmpfs);
	json_uint(j, "opens", blk->opens);
	json_uint(j, "probe_hits", blk->hits);
	json_uint(j, "stray_probes", blk->strays);
	json_uint(j, "open_errors", blk->open_errors);
	json_uint(j, "miss_opens", blk->miss_opens);
	json_uint(j, "miss_probe_hits", blk->miss_hits);
	json_array_begin(j, "points");
	for (i = 0; i < blk->npoints; i++)
		json_uint(j, NULL, blk->points[i]);
	json_array_end(j);
	json_object_end(j);
	json_object_end(j);
}

static void json_char(struct mb *mb, struct json *j)
{
	struct mb_char *chr = &mb->chr;

	if (!chr->measured) {
		json_null(j, "char");
		return;
	}
	json_object_begin(j, "char");
	json_uint(j, "dynamic_capacity", chr->capacity);
	json_bool(j, "capacity_exhausted", chr->exhausted);
	json_string(j, "stop_error",
		    chr->exhausted ? errno_name(chr->stop_error) : NULL);
	if (chr->capacity && chr->nranges > 0) {
		json_uint(j, "min", chr->min_major);
		json_uint(j, "max", chr->max_major);
		json_ranges(j, "ranges", chr->ranges, (size_t)chr->nranges);
	}
	json_stats(j, "alloc", &chr->alloc);
	json_object_end(j);
}

static void json_clock(struct mb *mb, struct json *j)
{
	const struct clock_empty *ce = &mb->clk.kernel;

	if (!mb->clk.measured) {
		json_null(j, "clock_empty_kernel_ns");
		return;
	}
	json_object_begin(j, "clock_empty_kernel_ns");
	json_uint(j, "pairs", ce->pairs);
	json_uint(j, "median", ce->median_ns);
	json_uint(j, "min", ce->min_ns);
	json_uint(j, "min_nonzero", ce->min_nonzero_ns);
	json_object_end(j);
}

void mb_print_json(struct mb *mb)
{
	struct json j;

	json_init(&j, stdout);
	report_json_begin(&mb->rep, &j);
	json_object_begin(&j, "config");
	json_uint(&j, "bucket", mb->cfg.bucket);
	json_uint(&j, "rounds", mb->cfg.rounds);
	json_bool(&j, "rcu_barrier", mb->cfg.rcu_barrier);
	json_uint(&j, "churn", mb->cfg.churn);
	json_uint(&j, "limit", mb->cfg.limit);
	json_string(&j, "lookup_points", mb->cfg.lookup_points);
	json_uint(&j, "lookup_majors", mb->cfg.lookup_majors);
	json_uint(&j, "lookup_iters", mb->cfg.lookup_iters);
	json_bool(&j, "modprobe_disabled", mb->modprobe_disabled);
	json_uint(&j, "clock_pairs", mb->cfg.clock_pairs);
	json_uint(&j, "processes", mb->cfg.processes);
	json_uint(&j, "ref_steps", mb->cfg.ref_steps);
	json_object_end(&j);
	bestof_json(&j, "processes", &mb->bo);
	json_clock(mb, &j);
	refloop_json(&j, "refloop", &mb->ref);
	json_block(mb, &j);
	json_char(mb, &j);
	if (report_json_end(&mb->rep, &j))
		fprintf(stderr, "majorbench: internal error: bad JSON\n");
}

static void print_curve(const char *what, const struct curve_samples *s,
			uint64_t width)
{
	struct curve_point *pts;
	char p99[24];
	long n, i;

	n = curve_build(s->v, s->n, width, &pts);
	if (n <= 0)
		return;
	printf("%s (ns per call):\n  %10s %10s %10s %10s %10s %8s\n", what,
	       "registered", "p50", "p90", "p99", "max", "samples");
	for (i = 0; i < n; i++) {
		if (stats_has_p99(&pts[i].st))
			snprintf(p99, sizeof(p99), "%llu",
				 (unsigned long long)pts[i].st.p99);
		else
			snprintf(p99, sizeof(p99), "-");
		printf("  %10llu %10llu %10llu %10s %10llu %8zu\n",
		       (unsigned long long)pts[i].registered,
		       (unsigned long long)pts[i].st.p50,
		       (unsigned long long)pts[i].st.p90, p99,
		       (unsigned long long)pts[i].st.max, pts[i].st.n);
	}
	free(pts);
}

static void print_refcost(const char *what, struct refcost *c,
			  const struct refloop *ref)
{
	struct refcost_summary s;

	refcost_summarise(c, &s);
	if (!s.blocks)
		return;
	printf("%s: %.1f reference steps per call, median of %zu blocks (%.1f-%.1f; %lu steps a reference)\n",
	       what, s.median, s.blocks, s.min, s.max, ref->steps);
}

/* About this many rows per table: wider buckets for people. */
#define HUMAN_ROWS 16

static uint64_t human_width(struct mb *mb)
{
	uint64_t width = mb->cfg.bucket;
	uint64_t span = mb->blk.capacity / HUMAN_ROWS + 1;

	while (width < span)
		width *= 2;
	return width;
}

void mb_print_human(struct mb *mb)
{
	struct mb_block *blk = &mb->blk;
	struct mb_char *chr = &mb->chr;
	char buf[512];
	unsigned int i;

	if (mb->clk.measured)
		printf("clock: empty region in the kernel %llu ns median, %llu ns min, smallest step %llu ns (%zu pairs)\n",
		       (unsigned long long)mb->clk.kernel.median_ns,
		       (unsigned long long)mb->clk.kernel.min_ns,
		       (unsigned long long)mb->clk.kernel.min_nonzero_ns,
		       mb->clk.kernel.pairs);
	if (chr->measured) {
		ranges_format(buf, sizeof(buf), chr->ranges,
			      chr->nranges > 0 ? (size_t)chr->nranges : 0);
		printf("char: %u dynamic majors (%s) %s\n", chr->capacity,
		       chr->exhausted ? errno_name(chr->stop_error) :
		       "limit reached", buf);
	}
	if (blk->measured) {
		ranges_format(buf, sizeof(buf), blk->ranges,
			      blk->nranges > 0 ? (size_t)blk->nranges : 0);
		printf("block: %u dynamic majors (%s) besides %u registered before: %s\n",
		       blk->capacity,
		       blk->exhausted ? errno_name(blk->stop_error) :
		       "limit reached", blk->baseline_registered, buf);
		printf("block: %u handed out are assigned in devices.txt",
		       blk->collisions);
		for (i = 0; i < blk->collisions && i < mb->cfg.show; i++)
			printf("%s %d (%s)", i ? "," : ":",
			       blk->collision[i].major,
			       blk->collision[i].assigned_to);
		printf("\n");
		printf("block: /proc/devices %s; lookups: %llu opens, %llu probe calls, %llu stray\n",
		       blk->proc_devices_ok > 0 ? "verified" : "NOT verified",
		       (unsigned long long)blk->opens,
		       (unsigned long long)blk->hits,
		       (unsigned long long)blk->strays);
		print_curve("register (rounds 2..)", &blk->reg, human_width(mb));
		print_curve("unregister (rounds 2..)", &blk->unreg,
			    human_width(mb));
		print_curve("register, cold first round", &blk->reg_cold,
			    human_width(mb));
		print_curve("unregister, cold first round", &blk->unreg_cold,
			    human_width(mb));
		print_curve("lookup (open of a registered major)",
			    &blk->lookup, 1);
		print_curve("lookup miss (open of a released major)",
			    &blk->miss, 1);
		print_refcost("register (rounds 2..)", &blk->reg_ref,
			      &mb->ref);
		print_refcost("lookup", &blk->lookup_ref, &mb->ref);
	}
	printf("processes: %u measured of %u, process %u printed (%s)\n",
	       mb->bo.measured, mb->bo.processes, mb->bo.chosen + 1,
	       mb->bo.failed_chosen ? "its measurement failed" : "the fastest");
	printf("%s: %s\n", mb->rep.tool,
	       mb->rep.nerrors ? "FAILED" : "ok");
}
