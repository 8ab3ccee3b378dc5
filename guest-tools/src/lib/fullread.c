// SPDX-License-Identifier: GPL-2.0
/*
 * Timed full reads (see fullread.h).  Each read() of a seq_file returns
 * at most what its buffer holds (a page, more only for a single long
 * record), so a full read is a loop to EOF; the time of the whole loop,
 * with open and close where the method has them, is one sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "fullread.h"

const char *const fullread_method_names[FULLREAD_METHODS] = {
	[FULLREAD_READER] = "reader",
	[FULLREAD_LSEEK] = "lseek",
	[FULLREAD_REOPEN] = "reopen",
};

size_t fullread_stdio_buffer(long st_blksize)
{
	return st_blksize > 0 && st_blksize < BUFSIZ ? (size_t)st_blksize :
	       BUFSIZ;
}

/* Read fd to EOF; returns bytes read or -errno, *calls the read() calls. */
static long read_all(int fd, char *buf, size_t bufsize, uint64_t *calls)
{
	long total = 0;
	ssize_t r;

	*calls = 0;
	for (;;) {
		r = read(fd, buf, bufsize);
		(*calls)++;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return total;
		total += r;
	}
}

/*
 * One full read.  buf holds max(bufsize, BUFSIZ) bytes; the reader sizes
 * its reads from fstat() as stdio does (*used: the size it took).
 */
static long one_read(const char *path, enum fullread_method method, int fd,
		     char *buf, size_t bufsize, uint64_t *calls, size_t *used)
{
	struct stat st;
	long n;

	*used = bufsize;
	if (method == FULLREAD_LSEEK) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -errno;
		return read_all(fd, buf, bufsize, calls);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (method == FULLREAD_READER) {
		if (fstat(fd, &st)) {
			n = -errno;
			close(fd);
			return n;
		}
		*used = fullread_stdio_buffer((long)st.st_blksize);
	}
	n = read_all(fd, buf, *used, calls);
	close(fd);
	return n;
}

/* The median of ns[from..to) over the reference around them, into c. */
static uint64_t ref_block_end(struct refloop *rl, uint64_t before,
			      const uint64_t *ns, unsigned long from,
			      unsigned long to, struct refcost *c)
{
	uint64_t block[FULLREAD_REF_BLOCK];
	struct stats st;

	memcpy(block, ns + from, (to - from) * sizeof(*block));
	stats_compute(block, to - from, &st);
	return refloop_block_end(rl, before, st.p50, c);
}

int fullread_measure(const char *path, enum fullread_method method,
		     unsigned long iters, size_t bufsize,
		     struct fullread_timing *t)
{
	return fullread_measure_ref(path, method, iters, bufsize, NULL, t);
}

int fullread_measure_ref(const char *path, enum fullread_method method,
			 unsigned long iters, size_t bufsize,
			 struct refloop *rl, struct fullread_timing *t)
{
	size_t room = bufsize > BUFSIZ ? bufsize : BUFSIZ, used;
	uint64_t *ns, t0, calls, before = 0;
	struct refcost cost = { 0 };
	unsigned long i, from = 0;
	long n;
	char *buf;
	int fd = -1, ret = 0;

	t->measured = false;
	refcost_summarise(&cost, &t->ref);
	if (!iters || !bufsize || method >= FULLREAD_METHODS)
		return -EINVAL;
	ns = calloc(iters, sizeof(*ns));
	buf = malloc(room);
	if (!ns || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (method == FULLREAD_LSEEK) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			goto out_free;
		}
	}
	/* untimed: warms the caches and gives the size to compare with */
	t->bytes = one_read(path, method, fd, buf, bufsize, &t->read_calls,
			    &t->buffer);
	if (t->bytes < 0) {
		ret = (int)t->bytes;
		goto out_close;
	}
	t->size_stable = true;
	if (rl)
		before = refloop_time(rl);
	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		n = one_read(path, method, fd, buf, bufsize, &calls, &used);
		ns[i] = now_ns() - t0;
		if (n < 0) {
			ret = (int)n;
			goto out_close;
		}
		if (n != t->bytes)
			t->size_stable = false;
		if (rl && (i + 1 - from == FULLREAD_REF_BLOCK || i + 1 == iters)) {
			before = ref_block_end(rl, before, ns, from, i + 1, &cost);
			from = i + 1;
		}
	}
	if (cost.oom)
		ret = -ENOMEM;
	refcost_summarise(&cost, &t->ref);
	stats_compute(ns, iters, &t->st);
	t->measured = !ret;

out_close:
	if (fd >= 0)
		close(fd);
out_free:
	refcost_free(&cost);
	free(buf);
	free(ns);
	return ret;
}
