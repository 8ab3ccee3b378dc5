/* SPDX-License-Identifier: GPL-2.0 */
/* The unload/reload phase at the end of a fuzz run (reload.c). */
#ifndef BLKSCALE_FUZZ_RELOAD_H
#define BLKSCALE_FUZZ_RELOAD_H

#include <stdbool.h>

struct run;

struct reload {
	bool done;		/* unloaded, loaded again, nodes opened */
	int rmmod;		/* 0 or -errno */
	int insmod;		/* 0 or -errno */
	unsigned int majors;	/* majors the run ever held */
	unsigned int opened;	/* open() calls on their nodes */
};

/* Every file must be closed; violations go to the run. */
void reload_phase(struct run *run, struct reload *rl);

#endif
