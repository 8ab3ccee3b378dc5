// SPDX-License-Identifier: GPL-2.0
/*
 * blkscale-fuzz: randomized ioctls against the helper module from several
 * threads on private and shared files, with files closed and reopened
 * while they hold majors.  Every answer is checked where it is knowable;
 * between epochs /proc/devices and the module must agree with the model,
 * and at the end /proc/devices, the slab and kmemleak must be as before.
 * Exit status: 0 clean, 1 violations or a failed run, 2 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "options.h"
#include "reload.h"
#include "report.h"
#include "version.h"

static struct {
	bool json;
	unsigned long calls;
	unsigned long duration_s;
	unsigned long seed;
	unsigned long threads;
	unsigned long shared;
	unsigned long check_every;
	unsigned long wrong_name;
	unsigned long slab_tolerance;
	const char *node_dir;
	const char *progress;
	bool inject_enomem;
	const char *module;
} cfg = {
	.calls = 100000,
	.threads = 4,
	.shared = 2,
	.check_every = 5000,
	.wrong_name = 4,
	.slab_tolerance = 2048,
	.node_dir = "/tmp",
	.module = "/lib/modules/blkscale/blkscale_majors.ko",
};

#define FAIL_REREGISTER "/sys/module/blkscale_majors/parameters/fail_reregister"

static const struct opt options[] = {
	OPT_BOOL("json", 'j', &cfg.json, "one JSON document on stdout"),
	OPT_NUM("calls", 'n', &cfg.calls, "N",
		"stop after N fuzzed ioctls (0: no limit)", 0, 1000000000),
	OPT_NUM("duration-s", 'd', &cfg.duration_s, "S",
		"stop after S seconds (0: no limit); both limits are checked between epochs of --check-every operations",
		0, 7 * 86400),
	OPT_NUM("seed", 's', &cfg.seed, "N",
		"random seed (0: from the clock; the one used is reported)",
		0, ~0ul),
	OPT_NUM("threads", 't', &cfg.threads, "N",
		"threads, each with a file of its own", 1, 32),
	OPT_NUM("shared", 0, &cfg.shared, "N",
		"further files that all threads share", 0, 16),
	OPT_NUM("check-every", 0, &cfg.check_every, "N",
		"operations between two checks of the model", 16, 10000000),
	OPT_NUM("wrong-name", 0, &cfg.wrong_name, "N",
		"unregisters with a wrong name at most (each makes the kernel WARN)",
		0, 1000),
	OPT_NUM("slab-tolerance", 0, &cfg.slab_tolerance, "KB",
		"Slab growth over the run that is accepted", 0, 1 << 20),
	OPT_STR("node-dir", 0, &cfg.node_dir, "DIR",
		"where device nodes are made for lookups (a tmpfs)"),
	OPT_STR("progress", 0, &cfg.progress, "FILE",
		"a progress line every 10 s (e.g. /dev/console)"),
	OPT_BOOL("inject-enomem", 0, &cfg.inject_enomem,
		 "make the module fail every re-registration after a wrong-name unregister (ENOMEM)"),
	OPT_STR("module", 0, &cfg.module, "FILE",
		"the helper module, loaded again after the run"),
	OPT_END,
};

static const char *const cmd_keys[CMD_COUNT] = {
	"version", "register", "unregister", "batch", "char_probe",
	"probe_hits", "mangled", "random",
};

struct outcome {
	struct fuzz_counts st;
	double duration_s;
	unsigned long checkpoints;
	bool restored;
	long slab_before, slab_after, sunreclaim_before, sunreclaim_after;
	uint64_t duplicates, strays;
	struct kmemleak leak;
	struct kmsg_watch kmsg;
	bool kmsg_ok;
	struct reload reload;
};

/* The module's test-only fault injection, on or off. */
static int set_fail_reregister(bool on)
{
	FILE *f = fopen(FAIL_REREGISTER, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(on ? "1\n" : "0\n", f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *run = w->run;
	unsigned long i;

	for (;;) {
		pthread_barrier_wait(&run->go);
		if (run->stop)
			break;
		for (i = 0; i < run->per_epoch; i++)
			fuzz_one(w);
		pthread_barrier_wait(&run->done);
	}
	return NULL;
}

/* The largest explicit major the kernel takes: 511 (stock) or 4095. */
static int detect_major_limit(struct run *run, struct report *rep)
{
	int fd = helper_open(NULL), ret;

	if (fd < 0) {
		report_error(rep, "%s: %s", HELPER_DEV, errno_name(fd));
		return -1;
	}
	ret = helper_register(fd, BLKSCALE_MAJOR_LIMIT - 1, "fzlimit", NULL,
			      NULL);
	close(fd);
	if (ret == 0 || ret == -EBUSY) {
		run->major_limit = BLKSCALE_MAJOR_LIMIT;
	} else if (ret == -EINVAL) {
		run->major_limit = 512;
	} else {
		report_error(rep, "register of major %d: %s",
			     BLKSCALE_MAJOR_LIMIT - 1, errno_name(ret));
		return -1;
	}
	return 0;
}

static int read_baseline(struct run *run, struct report *rep)
{
	char err[160], *text;
	long len;

	len = procdev_read_file("/proc/devices", &text);
	if (len < 0) {
		report_error(rep, "/proc/devices: %s", errno_name((int)len));
		return -1;
	}
	if (procdev_parse(text, (size_t)len, &run->baseline, err,
			  sizeof(err))) {
		report_error(rep, "/proc/devices: %s", err);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* So that the first allocations of the run are not taken for growth. */
static void warm_up(int fd)
{
	struct helper_batch res;
	int i;

	for (i = 0; i < 4; i++) {
		if (helper_batch_register(fd, 64, "warm", 0, NULL, NULL, &res) ||
		    helper_batch_unregister(fd, res.done ? res.done : 1, NULL,
					    NULL, &res))
			return;
	}
}

static int setup_slots(struct run *run, struct report *rep)
{
	pthread_rwlockattr_t attr;
	struct slot *s;
	unsigned int i;

	pthread_rwlockattr_init(&attr);
	/* closing a shared file must not wait for a pause that never comes */
	pthread_rwlockattr_setkind_np(&attr,
				      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	run->nslots = run->threads + run->shared_slots;
	for (i = 0; i < run->nslots; i++) {
		s = &run->slots[i];
		s->id = i;
		s->shared = i >= run->threads;
		pthread_rwlock_init(&s->life, &attr);
		pthread_mutex_init(&s->op, NULL);
		s->held = calloc(BLKSCALE_MAJOR_LIMIT, sizeof(*s->held));
		s->fd = helper_open(NULL);
		if (!s->held || s->fd < 0) {
			report_error(rep, "file %u: %s", i,
				     s->fd < 0 ? errno_name(s->fd) : "no memory");
			return -1;
		}
	}
	pthread_rwlockattr_destroy(&attr);
	return 0;
}

static void progress(struct run *run, FILE *out, double elapsed)
{
	if (!out)
		return;
	fprintf(out, "blkscale: fuzz: %llu calls, %zu violations, %.0f s\n",
		(unsigned long long)__atomic_load_n(&run->calls, __ATOMIC_RELAXED),
		run->nviolations, elapsed);
	fflush(out);
}

static void sum_stats(struct fuzz_counts *to, const struct fuzz_counts *from)
{
	const uint64_t *f = (const uint64_t *)from;
	uint64_t *t = (uint64_t *)to;
	size_t i;

	/* struct fuzz_counts is nothing but uint64_t counters */
	for (i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		t[i] += f[i];
}

/* Epochs until the limits are reached; returns the seconds fuzzed. */
static double fuzz(struct run *run, struct worker *w, struct outcome *o,
		   int probe_fd)
{
	FILE *out = cfg.progress ? fopen(cfg.progress, "w") : NULL;
	uint64_t t0 = now_ns(), last = t0, calls, shown = 0;
	double elapsed;
	unsigned int i;

	for (;;) {
		calls = __atomic_load_n(&run->calls, __ATOMIC_RELAXED);
		elapsed = (double)(now_ns() - t0) / 1e9;
		run->stop = (run->calls_target && calls >= run->calls_target) ||
			    (run->duration_s && elapsed >= (double)run->duration_s);
		pthread_barrier_wait(&run->go);
		if (run->stop)
			break;
		pthread_barrier_wait(&run->done);
		checkpoint(run, probe_fd);
		o->checkpoints++;
		if (now_ns() - last >= 10000000000ull) {
			last = now_ns();
			shown = run->calls;
			progress(run, out, (double)(last - t0) / 1e9);
		}
	}
	for (i = 0; i < run->threads; i++)
		pthread_join(w[i].thread, NULL);
	elapsed = (double)(now_ns() - t0) / 1e9;
	if (run->calls != shown || !shown)	/* not the same line twice */
		progress(run, out, elapsed);
	if (out)
		fclose(out);
	return elapsed;
}

/* Everything closed: back to the baseline, no leaks, no splats. */
static void final_checks(struct run *run, struct outcome *o, int probe_fd)
{
	struct procdev_list added, removed;
	struct blkscale_probe_hits h;
	struct procdevices now;
	char err[160], *text;
	long len;

	len = procdev_read_file("/proc/devices", &text);
	if (len >= 0 && !procdev_parse(text, (size_t)len, &now, err,
				       sizeof(err))) {
		o->restored = procdev_diff(&run->baseline, &now, &added,
					   &removed) == 0 &&
			      !added.n && !removed.n;
		if (!o->restored)
			violation(run, "/proc/devices is not back to the baseline: %zu block majors added (first %d %s), %zu removed",
				  added.n, added.n ? added.v[0].major : 0,
				  added.n ? added.v[0].name : "", removed.n);
		procdev_list_free(&added);
		procdev_list_free(&removed);
		procdev_free(&now);
	} else {
		violation(run, "/proc/devices cannot be read or parsed");
	}
	if (len >= 0)
		free(text);
	if (!probe_hits(probe_fd, 1, &h, &o->st)) {
		o->duplicates = h.duplicates;
		o->strays = h.strays;
		if (h.duplicates || h.strays)
			violation(run, "the module counted %llu duplicates and %llu stray probes",
				  (unsigned long long)h.duplicates,
				  (unsigned long long)h.strays);
	}
}

static void judge_leaks(struct run *run, struct outcome *o)
{
	if (o->leak.available && o->leak.leaks > 0)
		violation(run, "kmemleak: %ld suspected leaks, first: %.120s",
			  o->leak.leaks, o->leak.first);
	if (o->slab_before >= 0 && o->slab_after >= 0 &&
	    o->slab_after - o->slab_before > (long)cfg.slab_tolerance)
		violation(run, "Slab grew from %ld to %ld kB (tolerance %lu kB)",
			  o->slab_before, o->slab_after, cfg.slab_tolerance);
	if (!o->kmsg_ok)
		return;
	if (o->kmsg.problems)
		violation(run, "the kernel logged %llu problem reports, first: %.160s",
			  (unsigned long long)o->kmsg.problems,
			  o->kmsg.first_problem);
	if (o->kmsg.unregister_warns > o->st.warns_expected)
		violation(run, "unregister_blkdev warned %llu times, %llu wrong-name unregisters asked for it",
			  (unsigned long long)o->kmsg.unregister_warns,
			  (unsigned long long)o->st.warns_expected);
}

static void json_counts(struct json *j, const struct outcome *o)
{
	size_t i;

	json_object_begin(j, "by_command");
	for (i = 0; i < CMD_COUNT; i++)
		json_uint(j, cmd_keys[i], o->st.by_cmd[i]);
	json_object_end(j);
	json_object_begin(j, "by_errno");
	for (i = 0; i < FUZZ_ERRNO_MAX; i++)
		if (o->st.by_errno[i])
			json_uint(j, i ? errno_name((int)i) : "0",
				  o->st.by_errno[i]);
	if (o->st.by_errno[FUZZ_ERRNO_MAX])
		json_uint(j, "other", o->st.by_errno[FUZZ_ERRNO_MAX]);
	json_object_end(j);
	json_object_begin(j, "fd_ops");
	json_uint(j, "opens", o->st.opens);
	json_uint(j, "closes", o->st.closes);
	json_uint(j, "lookups", o->st.lookups);
	json_object_end(j);
}

static void json_checks(struct json *j, const struct run *run,
			const struct outcome *o)
{
	json_uint(j, "checkpoints", o->checkpoints);
	json_uint(j, "model_queries", o->st.checks);
	json_uint(j, "exact_busy_predictions", o->st.exact);
	json_uint(j, "majors_registered", o->st.registered);
	json_uint(j, "majors_unregistered", o->st.unregistered);
	json_uint(j, "max_held", run->held_max);
	json_int(j, "explicit_major_max", run->major_limit - 1);
	json_object_begin(j, "wrong_name");
	json_uint(j, "budget", run->wrong_name_budget);
	json_uint(j, "expected_warnings", o->st.warns_expected);
	json_object_end(j);
	/* a fault is found before anything is let go: the majors stay */
	json_object_begin(j, "efault_unregister_kept");
	json_uint(j, "unregister", o->st.unreg_efault_kept);
	json_uint(j, "batch", o->st.batch_efault_kept);
	json_object_end(j);
	json_object_begin(j, "module");
	json_uint(j, "duplicates", o->duplicates);
	json_uint(j, "strays", o->strays);
	json_object_end(j);
	json_bool(j, "proc_devices_restored", o->restored);
	json_bool(j, "inject_enomem", run->inject_enomem);
	json_object_begin(j, "reload");
	json_bool(j, "done", o->reload.done);
	json_string(j, "rmmod", errno_name(o->reload.rmmod));
	json_string(j, "insmod", errno_name(o->reload.insmod));
	json_uint(j, "majors_ever_held", o->reload.majors);
	json_uint(j, "nodes_opened", o->reload.opened);
	json_object_end(j);
	json_int(j, "slab_kib_before", o->slab_before);
	json_int(j, "slab_kib_after", o->slab_after);
	json_int(j, "sunreclaim_kib_before", o->sunreclaim_before);
	json_int(j, "sunreclaim_kib_after", o->sunreclaim_after);
	json_uint(j, "slab_tolerance_kib", cfg.slab_tolerance);
	json_object_begin(j, "kmemleak");
	json_bool(j, "available", o->leak.available);
	json_string(j, "verdict", !o->leak.available ? "unavailable" :
		    o->leak.leaks ? "leaks" : "clean");
	json_int(j, "suspected_leaks", o->leak.leaks);
	json_string(j, "first", o->leak.first);
	json_object_end(j);
	json_object_begin(j, "kmsg");
	json_bool(j, "available", o->kmsg_ok);
	json_uint(j, "records", o->kmsg.records);
	json_uint(j, "lost", o->kmsg.lost);
	json_uint(j, "unregister_blkdev_warnings", o->kmsg.unregister_warns);
	json_uint(j, "problems", o->kmsg.problems);
	json_string(j, "first_problem", o->kmsg.first_problem);
	json_object_end(j);
}

static int print_json(struct report *rep, const struct run *run,
		      const struct outcome *o)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	report_json_begin(rep, &j);
	json_uint(&j, "seed", run->seed);
	json_uint(&j, "threads", run->threads);
	json_uint(&j, "shared_files", run->shared_slots);
	json_uint(&j, "calls", run->calls);
	json_uint(&j, "calls_target", run->calls_target);
	json_double(&j, "duration_s", o->duration_s);
	json_counts(&j, o);
	json_checks(&j, run, o);
	json_uint(&j, "violation_count", run->nviolations);
	json_array_begin(&j, "violations");
	for (i = 0; i < run->nviolations && i < FUZZ_MAX_VIOLATIONS; i++)
		json_string(&j, NULL, run->violations[i]);
	json_array_end(&j);
	return report_json_end(rep, &j);
}

static void print_summary(const struct run *run, const struct outcome *o)
{
	size_t i;

	printf("%llu calls in %.1f s (seed %lu, %u threads, %u shared files)\n",
	       (unsigned long long)run->calls, o->duration_s, run->seed,
	       run->threads, run->shared_slots);
	for (i = 0; i < CMD_COUNT; i++)
		printf("  %-12s %llu\n", cmd_keys[i],
		       (unsigned long long)o->st.by_cmd[i]);
	printf("/proc/devices restored: %s; Slab %ld -> %ld kB; kmemleak: %s\n",
	       o->restored ? "yes" : "no", o->slab_before, o->slab_after,
	       !o->leak.available ? "unavailable" :
	       o->leak.leaks ? "leaks" : "clean");
	printf("%zu violations\n", run->nviolations);
	for (i = 0; i < run->nviolations && i < FUZZ_MAX_VIOLATIONS; i++)
		printf("  %s\n", run->violations[i]);
}

static int start_workers(struct run *run, struct worker *w,
			 struct report *rep)
{
	unsigned int i;

	for (i = 0; i < run->threads; i++) {
		w[i].run = run;
		w[i].id = i;
		rng_seed(&w[i].rng, run->seed, i);
		snprintf(w[i].node, sizeof(w[i].node), "%s/bsfuzz-%d-%u",
			 cfg.node_dir, (int)getpid(), i);
		if (arena_init(&w[i].arena)) {
			report_error(rep, "thread %u: no memory for its arena", i);
			return -1;
		}
	}
	pthread_barrier_init(&run->go, NULL, run->threads + 1);
	pthread_barrier_init(&run->done, NULL, run->threads + 1);
	for (i = 0; i < run->threads; i++) {
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			/* the barriers need every thread: stop here */
			fprintf(stderr, "blkscale-fuzz: cannot start thread %u\n", i);
			exit(1);
		}
	}
	return 0;
}

static int run_all(struct run *run, struct outcome *o, struct report *rep)
{
	struct worker *w;
	unsigned int i;
	int probe_fd, ret;

	probe_fd = helper_open(NULL);
	if (probe_fd < 0) {
		report_error(rep, "%s: %s", HELPER_DEV, errno_name(probe_fd));
		return -1;
	}
	if (detect_major_limit(run, rep) || read_baseline(run, rep)) {
		close(probe_fd);
		return -1;
	}
	warm_up(probe_fd);
	if (run->inject_enomem && (ret = set_fail_reregister(true))) {
		report_error(rep, "%s: %s", FAIL_REREGISTER, errno_name(ret));
		close(probe_fd);
		return -1;
	}
	kmemleak_prepare(&o->leak);
	slab_settle(&o->slab_before, &o->sunreclaim_before);
	o->kmsg_ok = kmsg_start(&o->kmsg) == 0;
	model_init(run);
	w = calloc(run->threads, sizeof(*w));
	if (!w || setup_slots(run, rep) || start_workers(run, w, rep)) {
		if (!w)
			report_error(rep, "no memory");
		close(probe_fd);
		return -1;
	}
	o->duration_s = fuzz(run, w, o, probe_fd);
	for (i = 0; i < run->threads; i++)
		sum_stats(&o->st, &w[i].st);
	for (i = 0; i < run->nslots; i++)
		slot_close(run, &run->slots[i], &o->st);
	checkpoint(run, probe_fd);
	final_checks(run, o, probe_fd);
	close(probe_fd);
	if (run->inject_enomem)
		set_fail_reregister(false);
	reload_phase(run, &o->reload);
	kmemleak_check(&o->leak);
	slab_settle(&o->slab_after, &o->sunreclaim_after);
	if (o->kmsg_ok)
		kmsg_stop(&o->kmsg);
	judge_leaks(run, o);
	for (i = 0; i < run->threads; i++)
		arena_free(&w[i].arena);
	free(w);
	return 0;
}

int main(int argc, char **argv)
{
	static struct outcome o = { .slab_before = -1, .slab_after = -1 };
	struct report rep;
	struct run *run;
	int ret, first;

	report_init(&rep, "blkscale-fuzz", BLKSCALE_TOOLS_VERSION);
	ret = opt_parse("blkscale-fuzz", options, argc, argv, &first, stderr);
	if (ret == OPT_HELP) {
		opt_usage(stdout, "blkscale-fuzz",
			  "Fuzz the helper module's ioctls from several threads and check every answer.",
			  options);
		return 0;
	}
	if (ret != OPT_OK)
		return 2;
	if (first < argc) {
		fprintf(stderr, "blkscale-fuzz: unexpected argument '%s'\n",
			argv[first]);
		return 2;
	}
	if (!cfg.calls && !cfg.duration_s) {
		fprintf(stderr, "blkscale-fuzz: --calls and --duration-s are both 0: the run would never end\n");
		return 2;
	}

	run = calloc(1, sizeof(*run));
	if (!run) {
		fprintf(stderr, "blkscale-fuzz: no memory\n");
		return 1;
	}
	run->calls_target = cfg.calls;
	run->duration_s = cfg.duration_s;
	run->seed = cfg.seed ? cfg.seed : (unsigned long)(now_ns() ^ (uint64_t)getpid());
	run->threads = (unsigned int)cfg.threads;
	run->shared_slots = (unsigned int)cfg.shared;
	run->check_every = cfg.check_every;
	run->per_epoch = (cfg.check_every + cfg.threads - 1) / cfg.threads;
	run->wrong_name_budget = cfg.wrong_name;
	run->inject_enomem = cfg.inject_enomem;
	run->module_path = cfg.module;
	run->node_dir = cfg.node_dir;
	o.leak.leaks = -1;
	o.slab_before = o.slab_after = -1;
	o.sunreclaim_before = o.sunreclaim_after = -1;

	run_all(run, &o, &rep);
	if (run->nviolations)
		report_error(&rep, "%zu violations, first: %s", run->nviolations,
			     run->violations[0]);
	if (cfg.json) {
		if (print_json(&rep, run, &o))
			return 1;
	} else {
		print_summary(run, &o);
	}
	return rep.nerrors ? 1 : 0;
}
