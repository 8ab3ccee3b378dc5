// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup cost: open() of a block node made with mknod for one of our
 * majors runs the kernel's lookup (blkdev_get_no_open -> blk_request_module
 * -> the module's probe) and fails with ENXIO, as no disk exists.  The
 * probe hit count proves the lookup found the major; a node of a major we
 * just released must find nothing (a miss).  The time includes the
 * syscall and the path walk in a tmpfs directory, the same at every point,
 * so the curve's shape is the kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clock.h"
#include "helper.h"
#include "majorbench.h"

static void node_path(char *buf, size_t size, const char *dir, int major)
{
	snprintf(buf, size, "%s/b%d", dir, major);
}

int mb_nodes_create(struct mb *mb, char *dir, size_t size)
{
	struct mb_block *blk = &mb->blk;
	char path[4200];
	struct statfs sfs;
	unsigned int i;

	snprintf(dir, size, "%s/majorbench.XXXXXX", mb->cfg.node_dir);
	if (!mkdtemp(dir)) {
		report_error(&mb->rep, "%s: cannot make a directory: %s",
			     mb->cfg.node_dir, strerror(errno));
		return -1;
	}
	blk->node_dir_tmpfs = statfs(dir, &sfs) == 0 &&
			      sfs.f_type == TMPFS_MAGIC;
	for (i = 0; i < blk->capacity; i++) {
		node_path(path, sizeof(path), dir, blk->majors[i]);
		if (mknod(path, S_IFBLK | 0600, makedev(blk->majors[i], 0))) {
			report_error(&mb->rep, "mknod %s: %s", path,
				     strerror(errno));
			mb_nodes_remove(mb, dir);
			return -1;
		}
	}
	return 0;
}

void mb_nodes_remove(struct mb *mb, const char *dir)
{
	char path[4200];
	unsigned int i;

	for (i = 0; i < mb->blk.capacity; i++) {
		node_path(path, sizeof(path), dir, mb->blk.majors[i]);
		unlink(path);
	}
	if (rmdir(dir))
		report_error(&mb->rep, "rmdir %s: %s", dir, strerror(errno));
}

/*
 * Time iters opens of major's node; returns the probe calls they caused.
 * With ref, the opens are one block between two reference timings and
 * their median over the reference goes to ref.
 */
static int64_t time_opens(struct mb *mb, const char *dir, int major,
			  unsigned int held, struct curve_samples *curve,
			  struct refcost *ref, uint64_t *strays_delta)
{
	struct blkscale_probe_hits before, after;
	unsigned long it, iters = mb->cfg.lookup_iters;
	uint64_t t0, t1, ref_before = 0, *ns;
	char path[4200];
	struct stats st;
	int fd;

	node_path(path, sizeof(path), dir, major);
	ns = calloc(iters, sizeof(*ns));
	if (!ns || helper_probe_hits(mb->fd, major, &before)) {
		free(ns);
		return -1;
	}
	if (ref)
		ref_before = refloop_time(&mb->ref);
	for (it = 0; it < iters; it++) {
		t0 = now_ns();
		fd = open(path, O_RDONLY | O_CLOEXEC);
		t1 = now_ns();
		if (fd >= 0) {
			close(fd);
			mb->blk.open_errors++;
		} else if (errno != ENXIO) {
			mb->blk.open_errors++;
		}
		ns[it] = t1 - t0;
		curve_samples_add(curve, held, ns[it]);
	}
	if (ref) {
		stats_compute(ns, iters, &st);
		refloop_block_end(&mb->ref, ref_before, st.p50, ref);
	}
	free(ns);
	if (helper_probe_hits(mb->fd, major, &after))
		return -1;
	*strays_delta = after.strays - before.strays;
	return (int64_t)(after.hits - before.hits);
}

void mb_lookup_point(struct mb *mb, const char *dir, unsigned int held,
		     int32_t missing)
{
	struct mb_block *blk = &mb->blk;
	unsigned long k, nk = mb->cfg.lookup_majors;
	uint64_t iters = mb->cfg.lookup_iters, strays;
	uint64_t errors_before = blk->open_errors;
	int64_t hits;
	int major;

	if (nk > held)
		nk = held;
	for (k = 0; k < nk; k++) {
		/* spread over the held majors: they sit in different places */
		major = blk->majors[k * held / nk];
		hits = time_opens(mb, dir, major, held, &blk->lookup,
				  &blk->lookup_ref, &strays);
		blk->opens += iters;
		if (hits < 0) {
			report_error(&mb->rep, "probe hits of %d unavailable",
				     major);
			return;
		}
		blk->hits += (uint64_t)hits;
		blk->strays += strays;
		if ((uint64_t)hits != iters || strays) {
			report_error(&mb->rep,
				     "%u registered: %llu opens of major %d made %lld probe calls (%llu stray)",
				     held, (unsigned long long)iters, major,
				     (long long)hits,
				     (unsigned long long)strays);
			return;
		}
	}
	if (missing > 0) {
		hits = time_opens(mb, dir, missing, held, &blk->miss, NULL,
				  &strays);
		blk->miss_opens += iters;
		if (hits < 0) {
			report_error(&mb->rep, "probe hits of %d unavailable",
				     missing);
			return;
		}
		blk->miss_hits += (uint64_t)hits + strays;
		if (hits || strays)
			report_error(&mb->rep,
				     "%u registered: released major %d still found by lookup",
				     held, missing);
	}
	if (blk->open_errors != errors_before)
		report_error(&mb->rep,
			     "%u registered: %llu opens did not fail with ENXIO",
			     held,
			     (unsigned long long)(blk->open_errors - errors_before));
}
