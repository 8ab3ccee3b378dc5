/* SPDX-License-Identifier: GPL-2.0 */
/* majorbench: what dynamic block majors cost on the running kernel. */
#ifndef MAJORBENCH_H
#define MAJORBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "bestof.h"
#include "clock.h"
#include "procdevices.h"
#include "ranges.h"
#include "refloop.h"
#include "report.h"
#include "stats.h"

#define MB_PREFIX "bsm"		/* names of our majors: bsm0, bsm1, ... */
#define MB_MAX_POINTS 64

struct mb_config {
	bool json;
	unsigned long bucket;
	unsigned long rounds;
	unsigned long limit;
	const char *lookup_points;
	unsigned long lookup_majors;
	unsigned long lookup_iters;
	const char *node_dir;
	bool no_char;
	unsigned long show;
	unsigned long clock_pairs;
	unsigned long processes;
	unsigned long ref_steps;
	bool rcu_barrier;
	unsigned long churn;
};

struct mb_collision {
	int32_t major;
	const char *assigned_to;
};

struct mb_block {
	bool measured;
	unsigned int baseline_registered;	/* block majors before we began */
	unsigned int capacity;			/* dynamic majors, first round */
	bool exhausted;				/* capacity ended in a refusal */
	int stop_error;
	unsigned int capacity_per_round[32];
	unsigned int rounds_done;
	unsigned int barriers_done;	/* --rcu-barrier: before warm rounds */
	uint32_t barrier_bits;		/* BLKSCALE_BARRIER_* of the last */
	unsigned long churn_rounds;	/* --churn: rounds made */
	uint64_t churn_ns;		/* --churn: their wall time */
	int32_t *majors;			/* first round, in order obtained */
	struct range *ranges;
	long nranges;
	size_t duplicates;			/* within one round */
	uint64_t module_duplicates;		/* the module's count */
	unsigned int collisions;
	struct mb_collision *collision;		/* the first cfg.show */
	int proc_devices_ok;			/* 1 ok, 0 mismatch, -1 unknown */

	/* register/unregister: rounds 2.. (warm); _cold: the first round */
	struct curve_samples reg, unreg, reg_cold, unreg_cold;
	struct curve_samples lookup, miss;
	/*
	 * The same costs over the reference timed beside them (refloop.h):
	 * a value per bucket of a warm register round and per major looked
	 * up, the median of its calls.
	 */
	struct refcost reg_ref, lookup_ref;

	/* lookup verification */
	bool node_dir_tmpfs;
	uint64_t opens, hits, open_errors, miss_opens, miss_hits;
	uint64_t strays;
	unsigned long points[MB_MAX_POINTS];
	long npoints;
};

struct mb_char {
	bool measured;
	unsigned int capacity;
	bool exhausted;
	int stop_error;
	unsigned int min_major, max_major;
	struct range *ranges;
	long nranges;
	struct stats alloc;
};

/* The cost of an empty timed region in the kernel. */
struct mb_clock {
	bool measured;
	struct clock_empty kernel;
};

struct mb {
	struct mb_config cfg;
	struct report rep;
	int fd;
	bool modprobe_disabled;		/* lookups fork no module loader */
	uint64_t strays_start;
	struct procdevices baseline;
	struct mb_block blk;
	struct mb_char chr;
	struct mb_clock clk;
	struct refloop ref;		/* the yardstick of reg_ref, lookup_ref */
	struct bestof bo;		/* the measuring processes */
};

/* block.c: capacity, register and unregister rounds, lookups on round 1 */
void mb_block_run(struct mb *mb);
/* churn.c: --churn, seconds of the allocator for a host-side profile */
void mb_block_churn(struct mb *mb, uint64_t *samples, int32_t *majors);
/* lookup.c */
int mb_nodes_create(struct mb *mb, char *dir, size_t size);
void mb_nodes_remove(struct mb *mb, const char *dir);
void mb_lookup_point(struct mb *mb, const char *dir, unsigned int held,
		     int32_t missing);
/* clock.c */
void mb_clock_run(struct mb *mb);
/* chr.c */
void mb_char_run(struct mb *mb);
/* output.c */
void mb_print_json(struct mb *mb);
void mb_print_human(struct mb *mb);
/* score.c: what decides which measuring process prints */
double mb_score(const struct mb *mb);

#endif
