// SPDX-License-Identifier: GPL-2.0
/*
 * Checks around the fuzzing (see fuzz.h): /proc/devices and the module
 * against the model while every thread waits, the kernel log while they
 * run, kmemleak and the slab after everything is closed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static int cmp_held(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	return (x->major > y->major) - (x->major < y->major);
}

/* Block majors added to the baseline must be exactly the model's. */
static void check_procdevices(struct run *run)
{
	struct procdev_list added, removed;
	struct procdevices now;
	struct held *want;
	char err[160], *text;
	size_t n = 0, i;
	long len;
	int ret;

	len = procdev_read_file("/proc/devices", &text);
	if (len < 0) {
		violation(run, "/proc/devices: %s", errno_name((int)len));
		return;
	}
	ret = procdev_parse(text, (size_t)len, &now, err, sizeof(err));
	free(text);
	if (ret) {
		violation(run, "/proc/devices: %s", err);
		return;
	}
	ret = procdev_diff(&run->baseline, &now, &added, &removed);
	procdev_free(&now);
	if (ret < 0) {
		violation(run, "out of memory comparing /proc/devices");
		return;
	}
	if (ret)
		violation(run, "/proc/devices: the character section is not the baseline's");
	if (removed.n)
		violation(run, "/proc/devices: %zu block majors of the baseline gone (%d %s)",
			  removed.n, removed.v[0].major, removed.v[0].name);

	for (i = 0; i < run->nslots; i++)
		n += run->slots[i].nheld;
	want = calloc(n + 1, sizeof(*want));
	if (!want) {
		violation(run, "out of memory");
		goto out_free;
	}
	n = 0;
	for (i = 0; i < run->nslots; i++) {
		memcpy(want + n, run->slots[i].held,
		       run->slots[i].nheld * sizeof(*want));
		n += run->slots[i].nheld;
	}
	qsort(want, n, sizeof(*want), cmp_held);
	for (i = 0; i < n && i < added.n; i++) {
		if (want[i].major != added.v[i].major ||
		    strcmp(want[i].name, added.v[i].name)) {
			violation(run, "/proc/devices lists %d %s where the files hold %d %s",
				  added.v[i].major, added.v[i].name,
				  want[i].major, want[i].name);
			break;
		}
	}
	if (i == n && n != added.n)
		violation(run, "/proc/devices lists %zu block majors more than the baseline, the files hold %zu (first extra: %d %s)",
			  added.n, n, added.v[n].major, added.v[n].name);
	else if (i == added.n && n != added.n)
		violation(run, "/proc/devices lists %zu block majors more than the baseline, the files hold %zu (first missing: %d %s)",
			  added.n, n, want[i].major, want[i].name);
	free(want);
out_free:
	procdev_list_free(&added);
	procdev_list_free(&removed);
}

/* A few of each file's majors, asked of the module. */
static void check_held(struct run *run, struct fuzz_counts *st)
{
	struct blkscale_probe_hits h;
	struct slot *s;
	size_t i, k, step;
	int ret;

	for (i = 0; i < run->nslots; i++) {
		s = &run->slots[i];
		if (s->fd < 0 || !s->nheld)
			continue;
		step = s->nheld / 8 + 1;
		for (k = 0; k < s->nheld; k += step) {
			ret = probe_hits(s->fd, s->held[k].major, &h, st);
			if (ret)
				violation(run, "PROBE_HITS of %d: %s",
					  s->held[k].major, errno_name(ret));
			else if (!h.held)
				violation(run, "slot %zu does not hold major %d, the model says it does",
					  i, s->held[k].major);
		}
	}
}

void checkpoint(struct run *run, int probe_fd)
{
	struct blkscale_probe_hits h;
	struct fuzz_counts st = { 0 };
	int ret;

	check_procdevices(run);
	check_held(run, &st);
	ret = probe_hits(probe_fd, 1, &h, &st);
	if (ret)
		violation(run, "PROBE_HITS: %s", errno_name(ret));
	else if (h.duplicates || h.strays)
		violation(run, "the module counted %llu duplicate majors and %llu stray probe calls",
			  (unsigned long long)h.duplicates,
			  (unsigned long long)h.strays);
}

/* ---- kernel log ---- */

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The first line of each report of a kernel problem. */
static bool is_problem(const char *msg)
{
	static const char *const marks[] = {
		"BUG:", "BUG ", "Oops", "general protection", "kernel BUG",
		"UBSAN:", "KASAN:", "list_add corruption", "list_del corruption",
		"INFO: task", "INFO: possible", "INFO: trying to register",
		"Kernel panic", "unreferenced object",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (starts(msg, marks[i]))
			return true;
	return strstr(msg, "Poison overwritten") ||
	       strstr(msg, "inconsistent lock state") ||
	       strstr(msg, "possible circular locking") ||
	       strstr(msg, "new suspected memory leak");
}

static void kmsg_record(struct kmsg_watch *k, char *rec)
{
	char *msg = strchr(rec, ';'), *nl;

	/* "prio,seq,time,flags;message\n continuation lines" */
	if (!msg)
		return;
	msg++;
	nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	k->records++;
	if (starts(msg, "WARNING:") && strstr(msg, " unregister_blkdev+")) {
		k->unregister_warns++;
		return;
	}
	if (!starts(msg, "WARNING:") && !is_problem(msg))
		return;
	if (!k->problems++)
		snprintf(k->first_problem, sizeof(k->first_problem), "%s", msg);
}

static void kmsg_drain(struct kmsg_watch *k)
{
	char rec[8192];
	ssize_t len;

	for (;;) {
		len = read(k->fd, rec, sizeof(rec) - 1);
		if (len < 0) {
			if (errno == EPIPE) {	/* overwritten before read */
				k->lost++;
				continue;
			}
			if (errno == EINTR)
				continue;
			return;			/* EAGAIN: all read */
		}
		rec[len] = '\0';
		pthread_mutex_lock(&k->lock);
		kmsg_record(k, rec);
		pthread_mutex_unlock(&k->lock);
	}
}

static void *kmsg_main(void *arg)
{
	struct kmsg_watch *k = arg;
	struct pollfd pfd = { .fd = k->fd, .events = POLLIN };

	while (!__atomic_load_n(&k->stop, __ATOMIC_ACQUIRE)) {
		if (poll(&pfd, 1, 200) > 0)
			kmsg_drain(k);
	}
	kmsg_drain(k);
	return NULL;
}

int kmsg_start(struct kmsg_watch *k)
{
	memset(k, 0, sizeof(*k));
	pthread_mutex_init(&k->lock, NULL);
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	/* only what happens from now on */
	lseek(k->fd, 0, SEEK_END);
	if (pthread_create(&k->thread, NULL, kmsg_main, k)) {
		close(k->fd);
		k->fd = -1;
		return -EAGAIN;
	}
	return 0;
}

void kmsg_stop(struct kmsg_watch *k)
{
	if (k->fd < 0)
		return;
	__atomic_store_n(&k->stop, 1, __ATOMIC_RELEASE);
	pthread_join(k->thread, NULL);
	close(k->fd);
	k->fd = -1;
}

/* ---- kmemleak ---- */

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
/* kmemleak reports an object only once it is this old (MSECS_MIN_AGE) */
#define KMEMLEAK_MIN_AGE_S 5

static int kmemleak_cmd(const char *cmd)
{
	int fd = open(KMEMLEAK, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

void kmemleak_prepare(struct kmemleak *k)
{
	memset(k, 0, sizeof(*k));
	k->leaks = -1;
	/* what was suspected before the run is not the run's doing */
	k->available = !kmemleak_cmd("scan") && !kmemleak_cmd("clear");
}

void kmemleak_check(struct kmemleak *k)
{
	char *text = NULL, *p;
	long len;

	if (!k->available)
		return;
	sleep(KMEMLEAK_MIN_AGE_S + 1);
	/* twice: what the first scan suspects and the second still does */
	if (kmemleak_cmd("scan") || kmemleak_cmd("scan")) {
		k->available = false;
		return;
	}
	len = procdev_read_file(KMEMLEAK, &text);
	if (len < 0) {
		k->available = false;
		return;
	}
	k->leaks = 0;
	for (p = text; (p = strstr(p, "unreferenced object")); p++)
		k->leaks++;
	/* the first report and the start of its backtrace */
	p = strstr(text, "unreferenced object");
	if (p)
		snprintf(k->first, sizeof(k->first), "%s", p);
	free(text);
}

/* ---- slab ---- */

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "blkscale-fuzz: %s: %s\n", path,
			strerror(errno));
	close(fd);
}

/* Empty slabs stay cached per CPU: give them back to the page allocator. */
static void shrink_caches(void)
{
	char path[512];
	struct dirent *de;
	DIR *d = opendir("/sys/kernel/slab");

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 de->d_name);
		write_file(path, "1");
	}
	closedir(d);
}

static long meminfo_kb(const char *key)
{
	char buf[256], fmt[64];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	snprintf(fmt, sizeof(fmt), "%s: %%ld kB", key);
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, fmt, &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void slab_settle(long *slab_kb, long *sunreclaim_kb)
{
	/* objects freed through RCU go after a grace period */
	sleep(1);
	write_file("/proc/sys/vm/drop_caches", "2");
	shrink_caches();
	usleep(200000);
	*slab_kb = meminfo_kb("Slab");
	*sunreclaim_kb = meminfo_kb("SUnreclaim");
}
