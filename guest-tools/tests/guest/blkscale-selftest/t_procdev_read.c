// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/devices read in small pieces while majors come and go.
 *
 * seq_file fills its buffer with whole lines and calls ->start() again at
 * the position it stopped at once the buffer is drained.  A reader must
 * see every major that stays registered for the whole read exactly once,
 * in ascending order, and a major registered behind the last line read
 * but before the position of the next one (as stock does, position by
 * position) rather than skip it because the iterator had looked ahead.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selftest.h"

#define TEXT_MAX (1 << 20)

/* Three free explicit majors m, m + 1, m + 2 below 512, or -1. */
static int free_triple(void)
{
	int m;

	for (m = 380; m >= 260; m--)
		if (st_free_major(m, m) == m && st_free_major(m + 1, m + 1) == m + 1 &&
		    st_free_major(m + 2, m + 2) == m + 2)
			return m;
	return -1;
}

/* Append up to @n bytes read from @fd to @buf (length *len); bytes read. */
static ssize_t read_some(int fd, char *buf, size_t *len, size_t n)
{
	ssize_t got;

	if (*len + n >= TEXT_MAX)
		return -EFBIG;
	got = read(fd, buf + *len, n);
	if (got < 0)
		return -errno;
	*len += (size_t)got;
	buf[*len] = '\0';
	return got;
}

/*
 * Whether the text so far is the block line of @major but its newline.
 * seq_file has the newline in its buffer still, and looks for the next
 * line only when the read after the one that drains the buffer comes.
 */
static bool before_end_of_line(const char *buf, size_t len, int major,
			       const char *name)
{
	char line[64];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%3d %s", major, name);
	return len >= n && !memcmp(buf + len - n, line, n) &&
	       strstr(buf, "Block devices:");
}

/* Indices of @major in the block section of @pd: count and order. */
static int block_count(const struct procdevices *pd, int major)
{
	size_t i;
	int n = 0;

	for (i = 0; i < pd->blk.n; i++)
		n += pd->blk.v[i].major == major;
	return n;
}

static bool block_ascending(const struct procdevices *pd)
{
	size_t i;

	for (i = 1; i < pd->blk.n; i++)
		if (pd->blk.v[i].major <= pd->blk.v[i - 1].major)
			return false;
	return true;
}

/*
 * Deterministic: majors m and m + 2 are registered; the file is read a
 * byte at a time, and when all of the line of m but its newline has been
 * read, m + 1 is registered.  The rest of the read must list m + 1, then
 * m + 2: the next line is looked up only after the newline is read.
 */
void t_procdev_resume(struct st_ctx *ctx, struct st_result *r)
{
	struct procdevices pd;
	char err[160], *buf;
	size_t len = 0;
	bool added = false;
	int fd, pfd, m, ret;
	ssize_t got;

	(void)ctx;
	m = free_triple();
	if (m < 0) {
		st_fail(r, "no three free majors in 260..382");
		return;
	}
	buf = malloc(TEXT_MAX);
	fd = st_open(r);
	if (!buf || fd < 0)
		goto out_free;
	if (!st_expect_err(r, "register m", helper_register(fd, m, "bsresA",
							     NULL, NULL), 0) ||
	    !st_expect_err(r, "register m + 2",
			   helper_register(fd, m + 2, "bsresC", NULL, NULL), 0))
		goto out_close;
	pfd = open("/proc/devices", O_RDONLY | O_CLOEXEC);
	if (pfd < 0) {
		st_fail(r, "/proc/devices: %s", errno_name(-errno));
		goto out_close;
	}
	do {
		got = read_some(pfd, buf, &len, 1);
		if (!added && before_end_of_line(buf, len, m, "bsresA")) {
			ret = helper_register(fd, m + 1, "bsresB", NULL, NULL);
			if (!st_expect_err(r, "register m + 1 mid-read", ret, 0))
				break;
			added = true;
		}
	} while (got > 0);
	close(pfd);
	if (got < 0) {
		st_fail(r, "reading /proc/devices: %s", errno_name((int)got));
		goto out_close;
	}
	if (!added) {
		st_fail(r, "the line of major %d never came", m);
		goto out_close;
	}
	if (procdev_parse(buf, len, &pd, err, sizeof(err))) {
		st_fail(r, "/proc/devices read bytewise: %s", err);
		goto out_close;
	}
	if (block_count(&pd, m) != 1 || block_count(&pd, m + 2) != 1)
		st_fail(r, "majors %d and %d listed %d and %d times", m, m + 2,
			block_count(&pd, m), block_count(&pd, m + 2));
	else if (block_count(&pd, m + 1) != 1)
		st_fail(r, "major %d, registered while the line of %d was read, listed %d times (the iterator looked ahead)",
			m + 1, m, block_count(&pd, m + 1));
	else if (!block_ascending(&pd))
		st_fail(r, "block majors not in ascending order");
	else
		st_note(r, "%d registered while the line of %d was read: listed",
			m + 1, m);
	procdev_free(&pd);
out_close:
	close(fd);		/* releases all three */
out_free:
	free(buf);
}

#define CHURN_STABLE	24	/* majors held through every read */
#define CHURN_READS	300
#define CHURN_BASE	260

struct churn {
	int fd;
	int stop;		/* __atomic */
	unsigned long ops;
	int error;
};

/* Register and unregister the majors between the stable ones. */
static void *churn_main(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 1;
	int major, ret;

	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		major = CHURN_BASE + (int)(rand_r(&seed) % (CHURN_STABLE * 4));
		if (major % 4 == 0)
			continue;	/* a stable one */
		ret = helper_register(c->fd, major, "bschurn", NULL, NULL);
		if (ret == 0)
			ret = helper_unregister(c->fd, major, "bschurn", NULL);
		else if (ret == -EBUSY)
			ret = 0;	/* somebody else's major */
		if (ret) {
			c->error = ret;
			break;
		}
		c->ops++;
	}
	return NULL;
}

/* One read in pieces of 1..64 bytes, checked; false on a failure. */
static bool churn_read(const int *stable, char *buf, unsigned int *seed,
		       struct st_result *r)
{
	struct procdevices pd;
	char err[160];
	size_t len = 0;
	ssize_t got;
	int pfd, i, n;
	bool ok = true;

	pfd = open("/proc/devices", O_RDONLY | O_CLOEXEC);
	if (pfd < 0) {
		st_fail(r, "/proc/devices: %s", errno_name(-errno));
		return false;
	}
	do
		got = read_some(pfd, buf, &len, 1 + rand_r(seed) % 64);
	while (got > 0);
	close(pfd);
	if (got < 0) {
		st_fail(r, "reading /proc/devices: %s", errno_name((int)got));
		return false;
	}
	if (procdev_parse(buf, len, &pd, err, sizeof(err))) {
		st_fail(r, "/proc/devices read in pieces: %s", err);
		return false;
	}
	if (!block_ascending(&pd)) {
		st_fail(r, "block majors not in ascending order");
		ok = false;
	}
	for (i = 0; ok && i < CHURN_STABLE; i++) {
		n = block_count(&pd, stable[i]);
		if (n != 1) {
			st_fail(r, "major %d, held throughout, listed %d times",
				stable[i], n);
			ok = false;
		}
	}
	procdev_free(&pd);
	return ok;
}

void t_procdev_churn(struct st_ctx *ctx, struct st_result *r)
{
	struct churn c = { .fd = -1 };
	int stable[CHURN_STABLE];
	unsigned int seed = 7;
	pthread_t thread;
	char name[16], *buf;
	int fd, i, reads = 0;

	(void)ctx;
	buf = malloc(TEXT_MAX);
	fd = st_open(r);
	c.fd = helper_open(NULL);
	if (!buf || fd < 0 || c.fd < 0) {
		st_fail(r, "setup: out of memory or no helper");
		goto out;
	}
	for (i = 0; i < CHURN_STABLE; i++) {
		stable[i] = CHURN_BASE + 4 * i;
		snprintf(name, sizeof(name), "bsstable%d", i);
		if (st_free_major(stable[i], stable[i]) != stable[i]) {
			st_fail(r, "major %d is taken", stable[i]);
			goto out;
		}
		if (!st_expect_err(r, "register a stable major",
				   helper_register(fd, stable[i], name, NULL,
						   NULL), 0))
			goto out;
	}
	if (pthread_create(&thread, NULL, churn_main, &c)) {
		st_fail(r, "cannot start the churn thread");
		goto out;
	}
	for (reads = 0; reads < CHURN_READS; reads++)
		if (!churn_read(stable, buf, &seed, r))
			break;
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	if (c.error)
		st_fail(r, "churn: %s", errno_name(c.error));
	else if (!c.ops)
		st_fail(r, "the churn thread made no change during the reads");
	st_note(r, "%d reads in pieces of 1-64 bytes, %lu register+unregister pairs meanwhile",
		reads, c.ops);
out:
	if (c.fd >= 0)
		close(c.fd);
	if (fd >= 0)
		close(fd);
	free(buf);
}
