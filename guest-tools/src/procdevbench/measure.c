// SPDX-License-Identifier: GPL-2.0
/*
 * Timed full reads of a proc file.  Each read() of a seq_file returns at
 * most a page (more only for a single long record), so a full read is a
 * loop to EOF; the time of the whole loop is one sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "procdevbench.h"
#include "clock.h"

const char *const pdb_method_names[PDB_METHODS] = {
	[PDB_LSEEK] = "lseek",
	[PDB_REOPEN] = "reopen",
};

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

static long one_read(const char *path, enum pdb_method method, int fd,
		     char *buf, size_t bufsize, uint64_t *calls)
{
	long n;

	if (method == PDB_LSEEK) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -errno;
		return read_all(fd, buf, bufsize, calls);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read_all(fd, buf, bufsize, calls);
	close(fd);
	return n;
}

int pdb_measure(const char *path, enum pdb_method method, unsigned long iters,
		char *buf, size_t bufsize, struct pdb_timing *t)
{
	uint64_t *ns, t0, calls;
	unsigned long i;
	long first, n;
	int fd = -1, ret = 0;

	t->measured = false;
	ns = calloc(iters, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	if (method == PDB_LSEEK) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			goto out_free;
		}
	}
	/* untimed: warms the caches and gives the size to compare with */
	first = one_read(path, method, fd, buf, bufsize, &t->read_calls);
	if (first < 0) {
		ret = (int)first;
		goto out_close;
	}
	t->size_stable = true;
	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		n = one_read(path, method, fd, buf, bufsize, &calls);
		ns[i] = now_ns() - t0;
		if (n < 0) {
			ret = (int)n;
			goto out_close;
		}
		if (n != first)
			t->size_stable = false;
	}
	stats_compute(ns, iters, &t->st);
	t->measured = true;

out_close:
	if (fd >= 0)
		close(fd);
out_free:
	free(ns);
	return ret;
}
