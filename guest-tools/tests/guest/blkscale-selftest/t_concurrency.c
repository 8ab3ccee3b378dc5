// SPDX-License-Identifier: GPL-2.0
/*
 * Several threads register and unregister at once, some with a file of
 * their own and some sharing one: the kernel must never hand out a major
 * twice, and every call must succeed while there is room.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ranges.h"
#include "selftest.h"

#define CHURN 300

struct worker {
	pthread_t thread;
	pthread_barrier_t *barrier;
	unsigned int id;
	int fd;
	unsigned int k;		/* majors held through the run */
	int32_t *majors;	/* k held, then a ring while churning */
	unsigned int failures;
	char failure[160];
};

static void worker_fail(struct worker *w, const char *what, int major,
			int err)
{
	if (!w->failures++)
		snprintf(w->failure, sizeof(w->failure),
			 "thread %u: %s %d: %s", w->id, what, major,
			 errno_name(err));
}

static void name_of(char *buf, size_t size, unsigned int id, unsigned int seq)
{
	snprintf(buf, size, "cc%u_%u", id, seq);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char name[BLKSCALE_NAME_SIZE];
	unsigned int i, seq = 0, slot;
	int ret, major;

	/* phase 1: fill up side by side */
	pthread_barrier_wait(w->barrier);
	for (i = 0; i < w->k; i++) {
		name_of(name, sizeof(name), w->id, seq++);
		ret = helper_register(w->fd, 0, name, &major, NULL);
		if (ret) {
			worker_fail(w, "register", 0, ret);
			w->majors[i] = -1;
			continue;
		}
		w->majors[i] = major;
	}
	pthread_barrier_wait(w->barrier);	/* main checks the union */
	pthread_barrier_wait(w->barrier);

	/* phase 2: churn, the oldest out and a new one in */
	for (i = 0; i < CHURN && w->k; i++) {
		slot = i % w->k;
		if (w->majors[slot] > 0) {
			name_of(name, sizeof(name), w->id, seq - w->k);
			ret = helper_unregister(w->fd, w->majors[slot], name,
						NULL);
			if (ret)
				worker_fail(w, "unregister", w->majors[slot],
					    ret);
		}
		name_of(name, sizeof(name), w->id, seq++);
		ret = helper_register(w->fd, 0, name, &major, NULL);
		if (ret) {
			worker_fail(w, "register", 0, ret);
			w->majors[slot] = -1;
			continue;
		}
		w->majors[slot] = major;
	}
	return NULL;
}

/* Every major held by some thread right now, checked for duplicates. */
static size_t held_duplicates(struct worker *w, unsigned int n, size_t *held)
{
	int32_t *all;
	size_t total = 0, dups;
	unsigned int i, k;

	for (i = 0; i < n; i++)
		total += w[i].k;
	all = calloc(total + 1, sizeof(*all));
	if (!all)
		return 0;
	total = 0;
	for (i = 0; i < n; i++)
		for (k = 0; k < w[i].k; k++)
			if (w[i].majors[k] > 0)
				all[total++] = w[i].majors[k];
	dups = ranges_duplicates(all, total);
	free(all);
	*held = total;
	return dups;
}

void t_concurrency(struct st_ctx *ctx, struct st_result *r)
{
	unsigned int i, n = ctx->threads, failures = 0;
	struct blkscale_probe_hits h0, h1;
	pthread_barrier_t barrier;
	struct procdev_list added, removed;
	struct worker *w;
	int shared, probe_fd;
	size_t dups, held = 0;

	st_capacity(ctx);
	if (ctx->cap_error || ctx->cap_count < 2 * n) {
		st_skip(r, "dynamic capacity unknown or too small");
		return;
	}
	w = calloc(n, sizeof(*w));
	probe_fd = st_open(r);
	shared = st_open(r);
	if (!w || probe_fd < 0 || shared < 0 ||
	    pthread_barrier_init(&barrier, NULL, n + 1)) {
		st_fail(r, "setup failed");
		if (w)
			for (i = 0; i < n; i++)
				w[i].fd = -1;
		goto out_free;
	}
	for (i = 0; i < n; i++)
		w[i].fd = -1;
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].barrier = &barrier;
		/* leave room so that churning never runs out */
		w[i].k = ctx->cap_count / (n + 1);
		w[i].majors = calloc(w[i].k + 1, sizeof(int32_t));
		/* the first half each have a file, the rest share one */
		w[i].fd = i < n / 2 ? helper_open(NULL) : shared;
		if (!w[i].majors || w[i].fd < 0) {
			st_fail(r, "setup of thread %u failed", i);
			goto out_barrier;
		}
	}
	helper_probe_hits(probe_fd, 1, &h0);
	for (i = 0; i < n; i++) {
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			/* the barrier needs everybody: the others would hang */
			fprintf(stderr, "blkscale-selftest: cannot start a thread\n");
			exit(1);
		}
	}
	pthread_barrier_wait(&barrier);		/* go */
	pthread_barrier_wait(&barrier);		/* phase 1 done */
	dups = held_duplicates(w, n, &held);
	if (dups)
		st_fail(r, "after filling: %zu majors held by two threads",
			dups);
	if (st_procdev_changes(ctx, &added, &removed, r) == 0) {
		if (added.n != held)
			st_fail(r, "%zu majors listed, %zu held", added.n,
				held);
		procdev_list_free(&added);
		procdev_list_free(&removed);
	}
	pthread_barrier_wait(&barrier);		/* churn */
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		failures += w[i].failures;
	}
	dups = held_duplicates(w, n, &held);
	if (dups)
		st_fail(r, "after churning: %zu majors held by two threads",
			dups);
	for (i = 0; i < n; i++)
		if (w[i].failures)
			st_fail(r, "%u failed calls, first: %s", failures,
				w[i].failure);
	helper_probe_hits(probe_fd, 1, &h1);
	if (h1.duplicates != h0.duplicates)
		st_fail(r, "the module saw %llu majors handed out twice",
			(unsigned long long)(h1.duplicates - h0.duplicates));
	st_note(r, "%u threads (%u sharing a file), %u majors each, %d churn calls each",
		n, n - n / 2, w[0].k, 2 * CHURN);
out_barrier:
	pthread_barrier_destroy(&barrier);
out_free:
	for (i = 0; w && i < n; i++) {
		if (w[i].fd >= 0 && w[i].fd != shared)
			close(w[i].fd);
		free(w[i].majors);
	}
	if (shared >= 0)
		close(shared);
	if (probe_fd >= 0)
		close(probe_fd);
	free(w);
}
