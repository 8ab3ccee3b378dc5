// SPDX-License-Identifier: GPL-2.0
/* A yardstick timed beside each measured block (see refloop.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "refloop.h"
#include "stats.h"

/* Filled once at run time, so the compiler cannot fold the loads. */
static uint8_t table[REFLOOP_TABLE_SIZE];
static bool table_filled;

static void table_fill(void)
{
	size_t i;

	for (i = 0; i < sizeof(table); i++)
		table[i] = (uint8_t)(i * 131 + 7);
	table_filled = true;
}

uint64_t refloop_work(uint64_t state, unsigned long steps)
{
	unsigned long i;

	if (!table_filled)
		table_fill();
	for (i = 0; i < steps; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		state ^= table[(state >> 33) & (REFLOOP_TABLE_SIZE - 1)];
		if (i % REFLOOP_SYSCALL_EVERY == REFLOOP_SYSCALL_EVERY - 1)
			(void)getppid();
	}
	return state;
}

int refloop_init(struct refloop *rl, unsigned long steps)
{
	memset(rl, 0, sizeof(*rl));
	if (!steps)
		return -1;
	rl->steps = steps;
	rl->state = 1;
	rl->state = refloop_work(rl->state, steps);
	return 0;
}

void refloop_free(struct refloop *rl)
{
	free(rl->ns);
	rl->ns = NULL;
	rl->n = rl->cap = 0;
}

uint64_t refloop_time(struct refloop *rl)
{
	uint64_t t0, t, ns = UINT64_MAX, *v;
	size_t cap;
	int i;

	for (i = 0; i < REFLOOP_RUNS; i++) {
		t0 = now_ns();
		rl->state = refloop_work(rl->state, rl->steps);
		t = now_ns() - t0;
		ns = t < ns ? t : ns;
	}
	if (rl->n == rl->cap) {
		cap = rl->cap ? rl->cap * 2 : 256;
		v = realloc(rl->ns, cap * sizeof(*v));
		if (!v) {
			rl->oom = true;
			return ns;
		}
		rl->ns = v;
		rl->cap = cap;
	}
	rl->ns[rl->n++] = ns;
	return ns;
}

double refloop_units(uint64_t cost_ns, uint64_t before_ns, uint64_t after_ns,
		     unsigned long steps)
{
	double ref = ((double)before_ns + (double)after_ns) / 2;

	if (ref <= 0 || !steps)
		return NAN;
	return (double)cost_ns * (double)steps / ref;
}

uint64_t refloop_block_end(struct refloop *rl, uint64_t before_ns,
			   uint64_t cost_ns, struct refcost *c)
{
	uint64_t after = refloop_time(rl);

	refcost_add(c, refloop_units(cost_ns, before_ns, after, rl->steps));
	return after;
}

int refcost_add(struct refcost *c, double units)
{
	double *v;
	size_t cap;

	if (isnan(units))
		return 0;
	if (c->n == c->cap) {
		cap = c->cap ? c->cap * 2 : 64;
		v = realloc(c->v, cap * sizeof(*v));
		if (!v) {
			c->oom = true;
			return -1;
		}
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = units;
	return 0;
}

void refcost_free(struct refcost *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void refcost_summarise(struct refcost *c, struct refcost_summary *s)
{
	s->blocks = c->n;
	s->median = s->min = s->max = NAN;
	if (!c->n)
		return;
	qsort(c->v, c->n, sizeof(*c->v), cmp_double);
	s->min = c->v[0];
	s->max = c->v[c->n - 1];
	s->median = c->n % 2 ? c->v[c->n / 2] :
		    (c->v[c->n / 2 - 1] + c->v[c->n / 2]) / 2;
}

void refloop_json(struct json *j, const char *key, const struct refloop *rl)
{
	struct stats st;
	uint64_t *ns;

	ns = malloc((rl->n ? rl->n : 1) * sizeof(*ns));
	if (!ns) {
		json_null(j, key);
		return;
	}
	if (rl->n)
		memcpy(ns, rl->ns, rl->n * sizeof(*ns));
	stats_compute(ns, rl->n, &st);
	free(ns);
	json_object_begin(j, key);
	json_uint(j, "steps", rl->steps);
	json_uint(j, "syscall_every", REFLOOP_SYSCALL_EVERY);
	json_uint(j, "runs", REFLOOP_RUNS);
	json_stats(j, "ns", &st);
	json_object_end(j);
}

void refcost_summary_json(struct json *j, const char *key,
			  const struct refcost_summary *s)
{
	if (!s->blocks) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	json_uint(j, "blocks", s->blocks);
	json_double(j, "median", s->median);
	json_double(j, "min", s->min);
	json_double(j, "max", s->max);
	json_object_end(j);
}

void refcost_json(struct json *j, const char *key, struct refcost *c)
{
	struct refcost_summary s;

	refcost_summarise(c, &s);
	refcost_summary_json(j, key, &s);
}
