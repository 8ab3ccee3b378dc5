// SPDX-License-Identifier: GPL-2.0
/*
 * Block majors: register dynamic majors until the kernel refuses (the
 * capacity), then unregister them newest first.  Every kernel call is
 * timed by the module; a sample's "registered" is how many of our majors
 * were registered when the call began.  In the first round the lookups
 * are measured on the way down (lookup.c).  The first round meets cold
 * caches and allocates what later rounds reuse: its samples are kept
 * apart from the register/unregister curves of the rounds after it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "helper.h"
#include "majorbench.h"
#include "options.h"
#include "static_majors.h"

static int cmp_desc(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x > y ? -1 : x < y;
}

/* Registered counts to measure lookups at, descending, within 1..cap. */
static void lookup_points(struct mb *mb, unsigned int cap)
{
	struct mb_block *blk = &mb->blk;
	unsigned long v[MB_MAX_POINTS], p;
	char msg[128];
	long n, i, k = 0;

	blk->npoints = 0;
	if (!cap)
		return;
	if (!strcmp(mb->cfg.lookup_points, "auto")) {
		n = 0;
		for (p = 1; p < cap && n < MB_MAX_POINTS - 1; p *= 2)
			v[n++] = p;
		v[n++] = cap;
	} else {
		n = opt_parse_count_list(mb->cfg.lookup_points, "max", cap, v,
					 MB_MAX_POINTS, msg, sizeof(msg));
		if (n < 0) {
			report_error(&mb->rep, "--lookup-points: %s", msg);
			return;
		}
	}
	for (i = 0; i < n; i++)
		if (v[i] > cap)
			v[i] = cap;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_desc);
	for (i = 0; i < n; i++)
		if (v[i] && (!k || v[i] != blk->points[k - 1]))
			blk->points[k++] = v[i];
	blk->npoints = k;
}

/*
 * A warm round, registered a bucket at a time: each bucket is one block
 * between two timings of the reference (refloop.h), and its median call
 * over them goes to reg_ref.  The module times every call as it does in
 * one batch, and the names and order are the same.
 */
static int register_in_blocks(struct mb *mb, uint64_t *samples,
			      int32_t *majors, struct helper_batch *res)
{
	unsigned int done = 0, n, limit = (unsigned int)mb->cfg.limit;
	unsigned int width = (unsigned int)mb->cfg.bucket;
	struct helper_batch part;
	uint64_t before, *scratch;
	struct stats st;
	int ret = 0;

	res->done = 0;
	res->stop_error = 0;
	scratch = malloc(width * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	before = refloop_time(&mb->ref);
	while (done < limit) {
		n = limit - done < width ? limit - done : width;
		ret = helper_batch_register(mb->fd, n, MB_PREFIX, done,
					    samples + done, majors + done,
					    &part);
		if (ret)
			break;
		if (part.done) {
			memcpy(scratch, samples + done,
			       part.done * sizeof(*scratch));
			stats_compute(scratch, part.done, &st);
			before = refloop_block_end(&mb->ref, before, st.p50,
						   &mb->blk.reg_ref);
		}
		done += part.done;
		if (part.stop_error || part.done < n) {
			res->stop_error = part.stop_error;
			break;
		}
	}
	res->done = done;
	free(scratch);
	return ret;
}

/* Unregister newest first from held down to target; returns the new held. */
static unsigned int unregister_to(struct mb *mb, unsigned int held,
				  unsigned int target, uint64_t *samples,
				  int32_t *majors, struct curve_samples *curve)
{
	struct helper_batch res;
	unsigned int i;
	int ret;

	if (held <= target)
		return held;
	ret = helper_batch_unregister(mb->fd, held - target, samples, majors,
				      &res);
	if (ret) {
		report_error(&mb->rep, "unregister batch: %s", errno_name(ret));
		return held;
	}
	for (i = 0; i < res.done; i++)
		curve_samples_add(curve, held - i, samples[i]);
	if (res.done != held - target)
		report_error(&mb->rep,
			     "unregister batch: %u of %u done (%s)", res.done,
			     held - target, errno_name(res.stop_error));
	return held - res.done;
}

/* Our majors must appear under their names and nothing else may change. */
static void verify_proc_devices(struct mb *mb, const int32_t *majors,
				unsigned int n)
{
	struct procdev_list added, removed;
	struct procdevices now;
	char err[REPORT_ERROR_LEN], want[16];
	const char *name;
	unsigned int i;
	int ret;

	ret = procdev_load("/proc/devices", &now, NULL, err, sizeof(err));
	/* unreadable is unknown, unparsable is wrong */
	mb->blk.proc_devices_ok = ret && ret != -EBADMSG ? -1 : 0;
	if (ret) {
		report_error(&mb->rep, "%s", err);
		return;
	}
	ret = procdev_diff(&mb->baseline, &now, &added, &removed);
	if (ret)
		report_error(&mb->rep, "/proc/devices: char section changed");
	if (removed.n)
		report_error(&mb->rep,
			     "/proc/devices: block major %d (%s) lost or renamed",
			     removed.v[0].major, removed.v[0].name);
	if (added.n != n)
		report_error(&mb->rep,
			     "/proc/devices: %zu block majors added, %u registered",
			     added.n, n);
	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), MB_PREFIX "%u", i);
		name = procdev_block_name(&now, majors[i]);
		if (!name || strcmp(name, want)) {
			report_error(&mb->rep,
				     "/proc/devices: major %d listed as '%s', not '%s'",
				     majors[i], name ? name : "(missing)",
				     want);
			ret = -1;
			break;
		}
	}
	if (!ret && !removed.n && added.n == n)
		mb->blk.proc_devices_ok = 1;
	procdev_list_free(&added);
	procdev_list_free(&removed);
	procdev_free(&now);
}

static void analyse_first_round(struct mb *mb, const int32_t *majors,
				unsigned int n)
{
	struct mb_block *blk = &mb->blk;
	const char *what;
	unsigned int i;

	blk->majors = malloc((n ? n : 1) * sizeof(*majors));
	blk->ranges = malloc((n ? n : 1) * sizeof(*blk->ranges));
	blk->collision = calloc(mb->cfg.show ? mb->cfg.show : 1,
				sizeof(*blk->collision));
	if (!blk->majors || !blk->ranges || !blk->collision) {
		report_error(&mb->rep, "out of memory");
		return;
	}
	memcpy(blk->majors, majors, n * sizeof(*majors));
	blk->nranges = ranges_build(majors, n, blk->ranges);
	blk->duplicates = ranges_duplicates(majors, n);
	if (blk->duplicates)
		report_error(&mb->rep, "%zu majors handed out twice",
			     blk->duplicates);
	for (i = 0; i < n; i++) {
		what = static_block_major(majors[i]);
		if (!what)
			continue;
		if (blk->collisions < mb->cfg.show) {
			blk->collision[blk->collisions].major = majors[i];
			blk->collision[blk->collisions].assigned_to = what;
		}
		blk->collisions++;
	}
	verify_proc_devices(mb, majors, n);
}

/* Lookups at each point on the way down, then release the rest. */
static void lookups_first_round(struct mb *mb, unsigned int held,
				uint64_t *samples, int32_t *majors)
{
	struct mb_block *blk = &mb->blk;
	char dir[PATH_MAX];
	long i;

	lookup_points(mb, held);
	if (blk->npoints && mb_nodes_create(mb, dir, sizeof(dir)) == 0) {
		for (i = 0; i < blk->npoints; i++) {
			held = unregister_to(mb, held, blk->points[i], samples,
					     majors, &blk->unreg_cold);
			if (held != blk->points[i])
				break;
			mb_lookup_point(mb, dir, held,
					held < blk->capacity ?
					blk->majors[held] : -1);
		}
		mb_nodes_remove(mb, dir);
	}
	unregister_to(mb, held, 0, samples, majors, &blk->unreg_cold);
}

/*
 * What the last round's unregistering freed through RCU, freed before
 * the next is timed (--rcu-barrier).
 */
static int barrier(struct mb *mb)
{
	struct mb_block *blk = &mb->blk;
	int ret;

	ret = helper_rcu_barrier(mb->fd, &blk->barrier_bits);
	if (!ret)
		blk->barriers_done++;
	return ret;
}

void mb_block_run(struct mb *mb)
{
	struct mb_block *blk = &mb->blk;
	struct blkscale_probe_hits h;
	unsigned long round, rounds = mb->cfg.rounds;
	struct helper_batch res;
	uint64_t *samples;
	int32_t *majors;
	unsigned int i;
	int ret;

	blk->measured = true;
	blk->baseline_registered = mb->baseline.blk.n;
	samples = calloc(mb->cfg.limit, sizeof(*samples));
	majors = calloc(mb->cfg.limit, sizeof(*majors));
	if (!samples || !majors) {
		report_error(&mb->rep, "out of memory");
		goto out_free;
	}
	if (rounds > sizeof(blk->capacity_per_round) / sizeof(unsigned int))
		rounds = sizeof(blk->capacity_per_round) / sizeof(unsigned int);

	for (round = 0; round < rounds; round++) {
		if (round && mb->cfg.rcu_barrier) {
			ret = barrier(mb);
			if (ret) {
				report_error(&mb->rep,
					     "round %lu: rcu barrier: %s",
					     round + 1, errno_name(ret));
				break;
			}
		}
		/* the first round's cold caches are not what is compared */
		if (round)
			ret = register_in_blocks(mb, samples, majors, &res);
		else
			ret = helper_batch_register(mb->fd, mb->cfg.limit,
						    MB_PREFIX, 0, samples,
						    majors, &res);
		if (ret) {
			report_error(&mb->rep, "round %lu: register batch: %s",
				     round + 1, errno_name(ret));
			break;
		}
		for (i = 0; i < res.done; i++)
			curve_samples_add(round ? &blk->reg : &blk->reg_cold,
					  i, samples[i]);
		blk->capacity_per_round[round] = res.done;
		blk->rounds_done++;

		if (round == 0) {
			blk->capacity = res.done;
			blk->stop_error = res.stop_error;
			blk->exhausted = res.stop_error != 0;
			if (res.stop_error && res.stop_error != -EBUSY &&
			    res.stop_error != -ENOSPC)
				report_error(&mb->rep,
					     "dynamic majors ended with %s, not EBUSY or ENOSPC",
					     errno_name(res.stop_error));
			analyse_first_round(mb, majors, res.done);
			lookups_first_round(mb, res.done, samples, majors);
			continue;
		}
		if (res.done != blk->capacity)
			report_error(&mb->rep,
				     "round %lu: capacity %u, first round %u",
				     round + 1, res.done, blk->capacity);
		if (ranges_duplicates(majors, res.done))
			report_error(&mb->rep,
				     "round %lu: majors handed out twice",
				     round + 1);
		unregister_to(mb, res.done, 0, samples, majors, &blk->unreg);
	}
	if (!mb->rep.nerrors)
		mb_block_churn(mb, samples, majors);

	if (blk->capacity && helper_probe_hits(mb->fd, blk->majors[0], &h) == 0)
		blk->module_duplicates = h.duplicates;
	if (blk->module_duplicates)
		report_error(&mb->rep, "the module saw %llu duplicate majors",
			     (unsigned long long)blk->module_duplicates);
out_free:
	free(samples);
	free(majors);
}
