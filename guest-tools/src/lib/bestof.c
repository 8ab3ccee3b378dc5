// SPDX-License-Identifier: GPL-2.0
/* Measure in several processes and keep the fastest (bestof.h). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bestof.h"
#include "report.h"

struct bestof_score {
	double score;
	unsigned long errors;
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int bestof_choose(const struct bestof *bo)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < bo->processes && i < BESTOF_MAX; i++)
		if (!bo->lost[i] && bo->errors[i])
			return (int)i;
	for (i = 0; i < bo->processes && i < BESTOF_MAX; i++) {
		if (bo->lost[i])
			continue;
		if (best < 0 || (isnan(bo->score[best]) &&
				 !isnan(bo->score[i])) ||
		    (!isnan(bo->score[i]) && bo->score[i] < bo->score[best]))
			best = (int)i;
	}
	return best;
}

/* In the child: measure, report, wait for the choice, finish if chosen. */
static void child(unsigned int index, int up, int down,
		  bestof_measure_fn measure, bestof_finish_fn finish, void *ctx)
{
	struct bestof_score s = { .score = NAN };
	struct bestof bo;
	int status;

	s.errors = measure(ctx, &s.score);
	if (write_all(up, &s, sizeof(s)))
		_exit(1);
	close(up);
	if (read_all(down, &bo, sizeof(bo)) || bo.chosen != index)
		_exit(0);
	status = finish(ctx, &bo);
	fflush(stdout);
	_exit(status);
}

int bestof_run(unsigned int processes, bestof_measure_fn measure,
	       bestof_finish_fn finish, void *ctx)
{
	int down[BESTOF_MAX], status, chosen_status = 1;
	pid_t pid[BESTOF_MAX];
	struct bestof bo = { .processes = processes };
	struct bestof_score s;
	unsigned int i;
	int up[2], dn[2], best;
	void (*old_pipe)(int);

	if (processes < 1 || processes > BESTOF_MAX)
		return 2;
	if (processes == 1) {
		bo.score[0] = NAN;
		bo.errors[0] = measure(ctx, &bo.score[0]);
		bo.measured = 1;
		bo.failed_chosen = bo.errors[0] != 0;
		return finish(ctx, &bo);
	}
	/* nothing buffered may be printed again by the children */
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < processes; i++) {
		bo.score[i] = NAN;
		pid[i] = -1;
		down[i] = -1;
		if (pipe(up))
			goto lost;
		if (pipe(dn)) {
			close(up[0]);
			close(up[1]);
			goto lost;
		}
		pid[i] = fork();
		if (pid[i] == 0) {
			unsigned int k;

			close(up[0]);
			close(dn[1]);
			for (k = 0; k < i; k++)
				close(down[k]);
			child(i, up[1], dn[0], measure, finish, ctx);
		}
		close(up[1]);
		close(dn[0]);
		if (pid[i] < 0) {
			close(up[0]);
			close(dn[1]);
			goto lost;
		}
		down[i] = dn[1];
		/* one at a time: the next starts when this one has measured */
		if (read_all(up[0], &s, sizeof(s))) {
			close(up[0]);
			close(down[i]);
			down[i] = -1;
			goto lost;
		}
		close(up[0]);
		bo.score[i] = s.score;
		bo.errors[i] = s.errors;
		bo.measured++;
		continue;
lost:
		bo.lost[i] = true;
	}

	best = bestof_choose(&bo);
	if (best >= 0) {
		bo.chosen = (unsigned int)best;
		bo.failed_chosen = bo.errors[best] != 0;
	} else {
		bo.chosen = BESTOF_MAX;	/* nobody finishes */
	}
	/* a process that died after measuring must not take us with it */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < processes; i++) {
		if (down[i] < 0)
			continue;
		(void)write_all(down[i], &bo, sizeof(bo));
		close(down[i]);
	}
	signal(SIGPIPE, old_pipe);
	for (i = 0; i < processes; i++) {
		if (pid[i] <= 0)
			continue;
		while (waitpid(pid[i], &status, 0) < 0 && errno == EINTR)
			;
		if (i == bo.chosen)
			chosen_status = WIFEXITED(status) ?
					WEXITSTATUS(status) : 1;
	}
	if (bo.chosen == BESTOF_MAX)
		fprintf(stderr, "no process of %u measured\n", processes);
	return chosen_status;
}

void bestof_json(struct json *j, const char *key, const struct bestof *bo)
{
	unsigned int i;

	json_object_begin(j, key);
	json_uint(j, "count", bo->processes);
	json_uint(j, "measured", bo->measured);
	json_uint(j, "chosen", bo->chosen);
	json_bool(j, "failed_chosen", bo->failed_chosen);
	json_array_begin_inline(j, "scores");
	for (i = 0; i < bo->processes && i < BESTOF_MAX; i++) {
		if (bo->lost[i] || isnan(bo->score[i]))
			json_null(j, NULL);
		else
			json_double(j, NULL, bo->score[i]);
	}
	json_array_end(j);
	json_array_begin_inline(j, "lost");
	for (i = 0; i < bo->processes && i < BESTOF_MAX; i++)
		if (bo->lost[i])
			json_uint(j, NULL, i);
	json_array_end(j);
	json_object_end(j);
}

void bestof_report_lost(const struct bestof *bo, struct report *rep)
{
	unsigned int i;

	for (i = 0; i < bo->processes && i < BESTOF_MAX; i++)
		if (bo->lost[i])
			report_error(rep, "measuring process %u of %u ended without a result",
				     i + 1, bo->processes);
}
