// SPDX-License-Identifier: GPL-2.0
/* Thin wrappers around the helper module's ioctls (see helper.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "helper.h"

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int helper_open(uint32_t *version)
{
	uint32_t v = 0;
	int fd, ret;

	fd = open(HELPER_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = xioctl(fd, BLKSCALE_IOC_VERSION, &v);
	if (version)
		*version = v;
	if (ret == -ENOTTY || (!ret && v != BLKSCALE_UAPI_VERSION))
		ret = -EPROTO;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static void set_name(char *dst, size_t size, const char *name)
{
	memset(dst, 0, size);
	/* longer names are passed cut but unterminated: the module refuses */
	memcpy(dst, name, strnlen(name, size));
}

int helper_register(int fd, int major, const char *name, int *got,
		    uint64_t *ns)
{
	struct blkscale_register r = {
		.version = BLKSCALE_UAPI_VERSION,
		.major = major,
	};
	int ret;

	set_name(r.name, sizeof(r.name), name);
	ret = xioctl(fd, BLKSCALE_IOC_REGISTER, &r);
	if (ret)
		return ret;
	if (got)
		*got = r.major;
	if (ns)
		*ns = r.ns;
	return 0;
}

int helper_unregister(int fd, int major, const char *name, uint64_t *ns)
{
	struct blkscale_unregister u = {
		.version = BLKSCALE_UAPI_VERSION,
		.major = major,
	};
	int ret;

	set_name(u.name, sizeof(u.name), name);
	ret = xioctl(fd, BLKSCALE_IOC_UNREGISTER, &u);
	if (!ret && ns)
		*ns = u.ns;
	return ret;
}

int helper_unregister_wrong(int fd, int major, const char *wrong_name,
			    bool *kept)
{
	struct blkscale_unregister u = {
		.version = BLKSCALE_UAPI_VERSION,
		.major = major,
		.flags = BLKSCALE_UNREG_WRONG_NAME,
	};
	int ret;

	set_name(u.name, sizeof(u.name), wrong_name);
	ret = xioctl(fd, BLKSCALE_IOC_UNREGISTER, &u);
	if (!ret && kept)
		*kept = u.kept;
	return ret;
}

static int batch(int fd, struct blkscale_batch *b, uint64_t *samples,
		 int32_t *majors, struct helper_batch *res)
{
	int ret;

	b->version = BLKSCALE_UAPI_VERSION;
	b->samples = (uintptr_t)samples;
	b->majors = (uintptr_t)majors;
	ret = xioctl(fd, BLKSCALE_IOC_BATCH, b);
	if (ret)
		return ret;
	res->done = b->done;
	res->stop_error = b->stop_error;
	return 0;
}

int helper_batch_register(int fd, unsigned int count, const char *prefix,
			  unsigned int base, uint64_t *samples,
			  int32_t *majors, struct helper_batch *res)
{
	struct blkscale_batch b = {
		.op = BLKSCALE_BATCH_REGISTER,
		.count = count,
		.name_base = base,
	};

	set_name(b.prefix, sizeof(b.prefix), prefix);
	return batch(fd, &b, samples, majors, res);
}

int helper_batch_unregister(int fd, unsigned int count, uint64_t *samples,
			    int32_t *majors, struct helper_batch *res)
{
	struct blkscale_batch b = {
		.op = BLKSCALE_BATCH_UNREGISTER,
		.count = count,
	};

	return batch(fd, &b, samples, majors, res);
}

int helper_char_probe(int fd, unsigned int limit, uint64_t *samples,
		      int32_t *majors, struct helper_char *res)
{
	struct blkscale_char_probe c = {
		.version = BLKSCALE_UAPI_VERSION,
		.limit = limit,
		.samples = (uintptr_t)samples,
		.majors = (uintptr_t)majors,
	};
	int ret;

	ret = xioctl(fd, BLKSCALE_IOC_CHAR_PROBE, &c);
	if (ret)
		return ret;
	res->count = c.count;
	res->stop_error = c.stop_error;
	res->min_major = c.min_major;
	res->max_major = c.max_major;
	return 0;
}

int helper_probe_hits(int fd, int major, struct blkscale_probe_hits *h)
{
	memset(h, 0, sizeof(*h));
	h->version = BLKSCALE_UAPI_VERSION;
	h->major = major;
	return xioctl(fd, BLKSCALE_IOC_PROBE_HITS, h);
}

int helper_clock_empty(int fd, unsigned int pairs, uint64_t *samples,
		       uint64_t *min, uint64_t *max)
{
	struct blkscale_clock_empty c = {
		.version = BLKSCALE_UAPI_VERSION,
		.pairs = pairs,
		.samples = (uintptr_t)samples,
	};
	int ret;

	ret = xioctl(fd, BLKSCALE_IOC_CLOCK_EMPTY, &c);
	if (ret)
		return ret;
	if (min)
		*min = c.min;
	if (max)
		*max = c.max;
	return 0;
}

int helper_rcu_barrier(int fd, uint32_t *done)
{
	*done = 0;
	return xioctl(fd, BLKSCALE_IOC_RCU_BARRIER, done);
}
