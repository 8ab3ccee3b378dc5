// SPDX-License-Identifier: GPL-2.0
/*
 * BLKSCALE_IOC_CLOCK_EMPTY: empty regions timed in the kernel come back
 * one sample each, exactly as many as asked, with the module's extremes;
 * a malformed request is refused with nothing written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "selftest.h"

#define POISON UINT64_MAX

static void poison(uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = POISON;
}

static size_t poisoned(const uint64_t *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i] == POISON;
	return k;
}

/* pairs samples written, no more, and min/max are theirs. */
static bool check_valid(int fd, struct st_result *r, uint64_t *v,
			unsigned int pairs, struct clock_empty *ce)
{
	uint64_t min = POISON, max = POISON, lo = POISON, hi = 0;
	unsigned int i;
	int ret;

	poison(v, pairs + 1);
	ret = helper_clock_empty(fd, pairs, v, &min, &max);
	if (!st_expect_err(r, "clock empty", ret, 0))
		return false;
	if (poisoned(v, pairs)) {
		st_fail(r, "%u pairs: %zu samples not written", pairs,
			poisoned(v, pairs));
		return false;
	}
	if (v[pairs] != POISON) {
		st_fail(r, "%u pairs: wrote a sample past the end", pairs);
		return false;
	}
	for (i = 0; i < pairs; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	if (min != lo || max != hi) {
		st_fail(r, "%u pairs: module says min %llu max %llu, samples %llu..%llu",
			pairs, (unsigned long long)min, (unsigned long long)max,
			(unsigned long long)lo, (unsigned long long)hi);
		return false;
	}
	if (ce)
		clock_empty_summarise(v, pairs, ce);
	return true;
}

static struct blkscale_clock_empty request(uint64_t *v, unsigned int pairs)
{
	struct blkscale_clock_empty c;

	memset(&c, 0, sizeof(c));
	c.version = BLKSCALE_UAPI_VERSION;
	c.pairs = pairs;
	c.samples = (uintptr_t)v;
	c.min = POISON;
	c.max = POISON;
	return c;
}

/* Refused with want, and neither the samples nor min/max written. */
static void expect_refused(int fd, struct st_result *r, const char *what,
			   struct blkscale_clock_empty *c, uint64_t *v,
			   int want)
{
	poison(v, 4);
	if (!st_expect_err(r, what, st_ioctl(fd, BLKSCALE_IOC_CLOCK_EMPTY, c),
			   want))
		return;
	if (poisoned(v, 4) != 4 || c->min != POISON || c->max != POISON)
		st_fail(r, "%s: refused but wrote results", what);
}

static void bad_input(int fd, struct st_result *r, uint64_t *v)
{
	struct blkscale_clock_empty c;
	void *ro;

	c = request(v, 4);
	c.flags = 1;
	expect_refused(fd, r, "flags set", &c, v, -EINVAL);
	c = request(v, 4);
	c.reserved = 1u << 31;
	expect_refused(fd, r, "reserved set", &c, v, -EINVAL);
	c = request(v, 4);
	c.version = BLKSCALE_UAPI_VERSION + 1;
	expect_refused(fd, r, "the next version", &c, v, -EINVAL);
	c = request(v, 0);
	expect_refused(fd, r, "0 pairs", &c, v, -EINVAL);
	c = request(v, BLKSCALE_CLOCK_PAIRS_MAX + 1);
	expect_refused(fd, r, "too many pairs", &c, v, -EINVAL);
	c = request(NULL, 4);
	expect_refused(fd, r, "no samples", &c, v, -EINVAL);
	c = request((uint64_t *)16, 4);	/* never mapped */
	expect_refused(fd, r, "unmapped samples", &c, v, -EFAULT);
	c = request(v, 4);
	c.samples = (uint64_t)-4096;	/* kernel half */
	expect_refused(fd, r, "samples at a kernel address", &c, v, -EFAULT);
	st_expect_err(r, "request at NULL",
		      st_ioctl(fd, BLKSCALE_IOC_CLOCK_EMPTY, NULL), -EFAULT);

	/* timed, but the samples cannot be written: the caller must know */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		st_fail(r, "mmap: %s", errno_name(-errno));
		return;
	}
	c = request(ro, 4);
	st_expect_err(r, "read-only samples",
		      st_ioctl(fd, BLKSCALE_IOC_CLOCK_EMPTY, &c), -EFAULT);
	munmap(ro, 4096);
}

void t_clock_empty(struct st_ctx *ctx, struct st_result *r)
{
	struct clock_empty ce;
	uint64_t *v;
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	v = malloc((BLKSCALE_CLOCK_PAIRS_MAX + 1) * sizeof(*v));
	if (!v) {
		st_fail(r, "out of memory");
		close(fd);
		return;
	}
	bad_input(fd, r, v);
	if (check_valid(fd, r, v, 1, NULL) &&
	    check_valid(fd, r, v, BLKSCALE_CLOCK_PAIRS_MAX, NULL) &&
	    check_valid(fd, r, v, 2000, &ce))
		st_note(r, "kernel empty region %llu ns median, %llu ns min, step %llu ns (%zu pairs)",
			(unsigned long long)ce.median_ns,
			(unsigned long long)ce.min_ns,
			(unsigned long long)ce.min_nonzero_ns, ce.pairs);
	free(v);
	close(fd);
}
