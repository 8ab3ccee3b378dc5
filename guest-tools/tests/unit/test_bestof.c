// SPDX-License-Identifier: GPL-2.0
/* Several measuring processes, the fastest prints (src/lib/bestof.c). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "bestof.h"

/* Shared with the forked processes: what each does, what happened. */
struct scene {
	unsigned int next;		/* index of the next process to measure */
	double score[BESTOF_MAX];
	unsigned long errors[BESTOF_MAX];
	bool dies[BESTOF_MAX];		/* ends inside measure */
	unsigned int prints;		/* print calls, all processes */
	struct bestof seen;		/* what print was given */
	unsigned int printed_by;	/* measuring index of the printer */
	bool measured_here;		/* measure ran in the caller's process */
};

static struct scene *scene_new(void)
{
	struct scene *sc = mmap(NULL, sizeof(*sc), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	assert_true(sc != MAP_FAILED);
	memset(sc, 0, sizeof(*sc));
	return sc;
}

static unsigned int me;	/* this process's measuring index */
static pid_t caller;

static unsigned long measure(void *ctx, double *score)
{
	struct scene *sc = ctx;
	unsigned int i = sc->next++;

	me = i;
	sc->measured_here = getpid() == caller;
	if (sc->dies[i])
		_exit(9);
	*score = sc->score[i];
	return sc->errors[i];
}

static int print(void *ctx, const struct bestof *bo)
{
	struct scene *sc = ctx;

	sc->prints++;
	sc->seen = *bo;
	sc->printed_by = me;
	return 40 + (int)bo->chosen;
}

static void fastest_prints(void **state)
{
	struct scene *sc = scene_new();
	double s[] = { 5, 3, 4, 9 };

	(void)state;
	caller = getpid();
	memcpy(sc->score, s, sizeof(s));
	assert_int_equal(bestof_run(4, measure, print, sc), 41);
	assert_int_equal(sc->next, 4);
	assert_int_equal(sc->prints, 1);
	assert_int_equal(sc->printed_by, 1);
	assert_int_equal(sc->seen.chosen, 1);
	assert_int_equal(sc->seen.measured, 4);
	assert_false(sc->measured_here);	/* in forked processes */
	assert_false(sc->seen.failed_chosen);
	assert_true(sc->seen.score[3] == 9);
	munmap(sc, sizeof(*sc));
}

/* A failed measurement prints, however fast the others were. */
static void failure_is_never_hidden(void **state)
{
	struct scene *sc = scene_new();
	double s[] = { 1, 2, 30 };

	(void)state;
	memcpy(sc->score, s, sizeof(s));
	sc->errors[2] = 2;
	assert_int_equal(bestof_run(3, measure, print, sc), 42);
	assert_int_equal(sc->prints, 1);
	assert_int_equal(sc->seen.chosen, 2);
	assert_true(sc->seen.failed_chosen);
	assert_int_equal(sc->seen.errors[2], 2);
	munmap(sc, sizeof(*sc));
}

/* A process that dies is recorded as lost; the rest still decide. */
static void a_lost_process_is_recorded(void **state)
{
	struct scene *sc = scene_new();
	double s[] = { 7, 1, 6 };
	struct report rep;

	(void)state;
	memcpy(sc->score, s, sizeof(s));
	sc->dies[1] = true;
	assert_int_equal(bestof_run(3, measure, print, sc), 42);
	assert_int_equal(sc->seen.measured, 2);
	assert_true(sc->seen.lost[1]);
	assert_true(isnan(sc->seen.score[1]));
	report_init(&rep, "test", "0");
	bestof_report_lost(&sc->seen, &rep);
	assert_int_equal(rep.nerrors, 1);
	assert_non_null(strstr(rep.errors[0], "process 2 of 3"));
	munmap(sc, sizeof(*sc));
}

/* One process: no fork, the caller's own process prints. */
static void one_process_runs_here(void **state)
{
	struct scene *sc = scene_new();

	(void)state;
	sc->score[0] = 8;
	caller = getpid();
	assert_int_equal(bestof_run(1, measure, print, sc), 40);
	assert_true(sc->measured_here);
	assert_int_equal(sc->prints, 1);
	assert_int_equal(sc->seen.processes, 1);
	munmap(sc, sizeof(*sc));
}

static void bad_counts(void **state)
{
	struct scene *sc = scene_new();

	(void)state;
	assert_int_equal(bestof_run(0, measure, print, sc), 2);
	assert_int_equal(bestof_run(BESTOF_MAX + 1, measure, print, sc), 2);
	assert_int_equal(sc->next, 0);
	munmap(sc, sizeof(*sc));
}

static void choose_rules(void **state)
{
	struct bestof bo = { .processes = 3 };

	(void)state;
	bo.score[0] = NAN;
	bo.score[1] = 5;
	bo.score[2] = 4;
	assert_int_equal(bestof_choose(&bo), 2);
	bo.lost[2] = true;
	assert_int_equal(bestof_choose(&bo), 1);
	bo.score[1] = NAN;
	assert_int_equal(bestof_choose(&bo), 0);	/* nothing to compare */
	bo.lost[0] = bo.lost[1] = true;
	assert_int_equal(bestof_choose(&bo), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fastest_prints),
		cmocka_unit_test(failure_is_never_hidden),
		cmocka_unit_test(a_lost_process_is_recorded),
		cmocka_unit_test(one_process_runs_here),
		cmocka_unit_test(bad_counts),
		cmocka_unit_test(choose_rules),
	};

	return cmocka_run_group_tests_name("bestof", tests, NULL, NULL);
}
