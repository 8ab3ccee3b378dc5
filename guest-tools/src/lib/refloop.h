/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A yardstick timed beside each measured block: per-call costs in units
 * the host's speed cannot move.
 *
 * The host of these guests is itself a virtual machine whose CPU runs in
 * spells about 1.35-1.5x apart, from seconds to a whole boot long, and
 * every CPU-bound figure timed in a guest under TCG follows them.  A fixed
 * piece of work timed in the same process right before and right after a
 * measured block is slowed by the same spell: the block's cost over the
 * adjacent reference (cost in reference steps) moves with the kernel's
 * code only.
 *
 * The work, REFLOOP_STEPS steps by default: a multiply-add hash whose
 * result indexes a small table (loads and stores go through TCG's
 * software TLB, as the kernel's do), with one getppid() every
 * REFLOOP_SYSCALL_EVERY steps, so that a kernel entry and exit, which
 * every measured call makes, is part of the yardstick too.  Nothing in it
 * depends on the kernel under test: getppid() is the same code in every
 * variant, and each step's result feeds the next, so the compiler cannot
 * drop the loop.
 */
#ifndef BLKSCALE_REFLOOP_H
#define BLKSCALE_REFLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

/* About 50 us a run under TCG on this host kind: a block's length. */
#define REFLOOP_STEPS 8192
#define REFLOOP_SYSCALL_EVERY 1024
#define REFLOOP_TABLE_SIZE 16384
/*
 * Runs per timing, the fastest counts: an interrupt or a preemption
 * inside one run (several ms under TCG) only ever lengthens it, and a
 * block has a single timing on each side.
 */
#define REFLOOP_RUNS 3

struct refloop {
	unsigned long steps;	/* work of one run */
	uint64_t state;		/* the hash, carried from timing to timing */
	uint64_t *ns;		/* every timing, in order */
	size_t n, cap;
	bool oom;		/* a timing could not be recorded */
};

/* Per-call costs in reference steps, one value per measured block. */
struct refcost {
	double *v;
	size_t n, cap;
	bool oom;
};

struct refcost_summary {
	size_t blocks;
	double median, min, max;	/* NAN without blocks */
};

/*
 * steps 1.. (0 is -1).  Runs the work once untimed: the table's pages
 * are faulted in before anything counts.
 */
int refloop_init(struct refloop *rl, unsigned long steps);
void refloop_free(struct refloop *rl);

/* The work itself: steps steps from state, the state after them. */
uint64_t refloop_work(uint64_t state, unsigned long steps);

/* Run the work REFLOOP_RUNS times; the fastest's ns (recorded in rl->ns). */
uint64_t refloop_time(struct refloop *rl);

/*
 * The cost of one call of a block, cost_ns, in reference steps: over the
 * mean of the reference timed before and after the block.  NAN when both
 * timings are 0 or steps is 0.
 */
double refloop_units(uint64_t cost_ns, uint64_t before_ns, uint64_t after_ns,
		     unsigned long steps);

/*
 * Close a block begun after a reference timing of before_ns: time the
 * reference again and add the block's per-call cost_ns in steps to c.
 * Returns the new timing (the next block may begin from it).
 */
uint64_t refloop_block_end(struct refloop *rl, uint64_t before_ns,
			   uint64_t cost_ns, struct refcost *c);

/* 0, or -1 without memory (c->oom set); NAN is not added. */
int refcost_add(struct refcost *c, double units);
void refcost_free(struct refcost *c);
/* Median, min and max of the blocks; c's values are sorted in place. */
void refcost_summarise(struct refcost *c, struct refcost_summary *s);

/* {steps, syscall_every, runs, ns: {n, min_ns, p50_ns, ...}} of the timings */
void refloop_json(struct json *j, const char *key, const struct refloop *rl);
/* {blocks, median, min, max}: per-call cost in steps; null without blocks */
void refcost_json(struct json *j, const char *key, struct refcost *c);
void refcost_summary_json(struct json *j, const char *key,
			  const struct refcost_summary *s);

#endif
