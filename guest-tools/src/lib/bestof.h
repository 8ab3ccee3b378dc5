/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measure in several processes and keep the fastest.
 *
 * Under TCG the same code runs in one of two speeds about 1.35x apart,
 * chosen per process (where its pages fall in QEMU's software TLB is the
 * likeliest cause): two processes of one boot can differ by that much.
 * A tool that measures in N processes, one after another, and lets the
 * fastest finish reports the cost of the code rather than of one
 * process's luck.  What each process measures may be the whole
 * measurement or a short pilot whose speed stands for the process's;
 * the chosen one then finishes (measures the rest, prints).  Every
 * process stays alive until all have measured, so none inherits the
 * kernel stack a finished one freed.
 *
 * A process whose measurement failed is the one that finishes, whatever
 * its speed: a failure is never hidden behind a faster process.
 */
#ifndef BLKSCALE_BESTOF_H
#define BLKSCALE_BESTOF_H

#include <stdbool.h>

#include "json.h"
#include "report.h"

#define BESTOF_MAX 16

struct bestof {
	unsigned int processes;		/* asked for */
	unsigned int measured;		/* that reported a score */
	unsigned int chosen;		/* index of the one that finishes */
	bool failed_chosen;		/* chosen because its measurement failed */
	double score[BESTOF_MAX];	/* lower is faster; NAN: no score */
	unsigned long errors[BESTOF_MAX];	/* its report's error count */
	bool lost[BESTOF_MAX];		/* ended without reporting */
};

/*
 * measure: runs in each process; sets *score (lower is faster, NAN when
 * the process measured nothing to compare) and returns its error count.
 * finish: runs in the chosen process only, with every process's
 * outcome: the rest of the measurement and the output; returns the exit
 * status of the whole run.
 */
typedef unsigned long (*bestof_measure_fn)(void *ctx, double *score);
typedef int (*bestof_finish_fn)(void *ctx, const struct bestof *bo);

/*
 * Runs measure in `processes` processes (1 .. BESTOF_MAX; 1 runs it in
 * this process, no fork) and finish in the chosen one.  Returns the exit
 * status for main(): the chosen process's, or 1 when none could finish.
 */
int bestof_run(unsigned int processes, bestof_measure_fn measure,
	       bestof_finish_fn finish, void *ctx);

/*
 * The choice: the first process with errors, else the lowest score, else
 * the first that reported.  -1 when none reported.  Exposed for tests.
 */
int bestof_choose(const struct bestof *bo);

/* "processes": {count, measured, chosen, failed_chosen, scores, lost} */
void bestof_json(struct json *j, const char *key, const struct bestof *bo);

/* One error in rep for each process that ended without a result. */
void bestof_report_lost(const struct bestof *bo, struct report *rep);

#endif
