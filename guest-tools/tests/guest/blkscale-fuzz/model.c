// SPDX-License-Identifier: GPL-2.0
/*
 * What each file holds, in the module's order, and which file holds each
 * major (see fuzz.h).  A major that is being let go (unregister or close
 * in progress) may be handed to someone else before the model catches
 * up: that is no duplicate.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

void violation(struct run *run, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "blkscale-fuzz: expectation broken: %s\n", msg);
	pthread_mutex_lock(&run->lock);
	if (run->nviolations < FUZZ_MAX_VIOLATIONS)
		memcpy(run->violations[run->nviolations], msg, sizeof(msg));
	run->nviolations++;
	pthread_mutex_unlock(&run->lock);
}

void model_init(struct run *run)
{
	size_t i;

	pthread_mutex_init(&run->lock, NULL);
	for (i = 0; i < BLKSCALE_MAJOR_LIMIT; i++)
		run->owner[i].slot = -1;
	for (i = 0; i < run->baseline.blk.n; i++)
		if (run->baseline.blk.v[i].major >= 0 &&
		    run->baseline.blk.v[i].major < BLKSCALE_MAJOR_LIMIT)
			run->in_baseline[run->baseline.blk.v[i].major] = true;
}

bool model_held_by(struct run *run, struct slot *s, int32_t major,
		   size_t *index)
{
	size_t i;

	(void)run;
	/* newest first, as the module searches */
	for (i = s->nheld; i-- > 0;) {
		if (s->held[i].major == major) {
			if (index)
				*index = i;
			return true;
		}
	}
	return false;
}

void model_add(struct run *run, struct slot *s, int32_t major,
	       const char *name)
{
	struct owner *o;

	if (major <= 0 || major >= BLKSCALE_MAJOR_LIMIT) {
		violation(run, "slot %u was given major %d, outside 1..%d",
			  s->id, major, BLKSCALE_MAJOR_LIMIT - 1);
		return;
	}
	if (run->in_baseline[major])
		violation(run, "slot %u was given major %d, which %s already had",
			  s->id, major,
			  procdev_block_name(&run->baseline, major) ?: "a driver");
	if (s->nheld >= BLKSCALE_MAJOR_LIMIT) {
		violation(run, "slot %u holds more than %d majors", s->id,
			  BLKSCALE_MAJOR_LIMIT);
		return;
	}
	pthread_mutex_lock(&run->lock);
	o = &run->owner[major];
	if (o->slot >= 0 && !o->releasing) {
		pthread_mutex_unlock(&run->lock);
		violation(run, "major %d given to slot %u while slot %d holds it",
			  major, s->id, o->slot);
		pthread_mutex_lock(&run->lock);
	}
	o->slot = (int16_t)s->id;
	o->releasing = false;
	run->ever_held[major] = true;
	if (++run->held_now > run->held_max)
		run->held_max = run->held_now;
	pthread_mutex_unlock(&run->lock);
	s->held[s->nheld].major = major;
	snprintf(s->held[s->nheld].name, sizeof(s->held[0].name), "%s", name);
	s->nheld++;
}

void model_mark_releasing(struct run *run, struct slot *s, size_t from,
			  bool on)
{
	struct owner *o;
	size_t i;

	pthread_mutex_lock(&run->lock);
	for (i = from; i < s->nheld; i++) {
		o = &run->owner[s->held[i].major];
		if (o->slot == (int16_t)s->id)
			o->releasing = on;
	}
	pthread_mutex_unlock(&run->lock);
}

void model_mark_one(struct run *run, struct slot *s, size_t i, bool on)
{
	struct owner *o;

	pthread_mutex_lock(&run->lock);
	o = &run->owner[s->held[i].major];
	if (o->slot == (int16_t)s->id)
		o->releasing = on;
	pthread_mutex_unlock(&run->lock);
}

void model_remove(struct run *run, struct slot *s, size_t i)
{
	struct owner *o;

	pthread_mutex_lock(&run->lock);
	o = &run->owner[s->held[i].major];
	/* someone else may already have been given it */
	if (o->slot == (int16_t)s->id) {
		o->slot = -1;
		o->releasing = false;
	}
	run->held_now--;
	pthread_mutex_unlock(&run->lock);
	memmove(&s->held[i], &s->held[i + 1],
		(s->nheld - i - 1) * sizeof(s->held[0]));
	s->nheld--;
}

void model_resync(struct run *run, struct slot *s, size_t from,
		  struct fuzz_counts *st)
{
	struct blkscale_probe_hits h;
	size_t i = s->nheld;
	int ret;

	while (i-- > from) {
		ret = probe_hits(s->fd, s->held[i].major, &h, st);
		if (ret) {
			violation(run, "PROBE_HITS of held major %d: %s",
				  s->held[i].major, errno_name(ret));
			continue;
		}
		if (!h.held)
			model_remove(run, s, i);
	}
	model_mark_releasing(run, s, from, false);
}

bool model_begin(struct run *run, uint64_t *mark)
{
	bool alone;

	pthread_mutex_lock(&run->lock);
	alone = run->inflight == 0;
	run->inflight++;
	*mark = ++run->started;
	pthread_mutex_unlock(&run->lock);
	return alone;
}

void model_end(struct run *run)
{
	pthread_mutex_lock(&run->lock);
	run->inflight--;
	pthread_mutex_unlock(&run->lock);
}

int model_verdict(struct run *run, bool alone, uint64_t mark, int32_t major)
{
	int verdict = -1;

	if (major <= 0 || major >= BLKSCALE_MAJOR_LIMIT)
		return -1;
	pthread_mutex_lock(&run->lock);
	/* nobody else was busy when the call began, nor started since */
	if (alone && run->started == mark)
		verdict = run->owner[major].slot < 0 && !run->in_baseline[major];
	pthread_mutex_unlock(&run->lock);
	return verdict;
}
