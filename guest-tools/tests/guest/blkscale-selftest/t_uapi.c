// SPDX-License-Identifier: GPL-2.0
/*
 * The fields kept for later versions: every structure's flags (beyond
 * the defined bits) and reserved fields must be zero, else -EINVAL and
 * nothing done, so that a tool written for a later version is refused
 * rather than misread.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "selftest.h"

static void expect_einval(struct st_result *r, int fd, const char *what,
			  unsigned long cmd, void *arg)
{
	st_expect_err(r, what, st_ioctl(fd, cmd, arg), -EINVAL);
}

static void register_fields(int fd, struct st_result *r)
{
	struct blkscale_register reg;

	memset(&reg, 0, sizeof(reg));
	reg.version = BLKSCALE_UAPI_VERSION;
	strcpy(reg.name, "bsresv");
	reg.flags = 1;
	expect_einval(r, fd, "register with flags", BLKSCALE_IOC_REGISTER,
		      &reg);
	reg.flags = 0;
	reg.reserved = 0x80000000u;
	expect_einval(r, fd, "register with reserved", BLKSCALE_IOC_REGISTER,
		      &reg);
}

static void unregister_fields(int fd, struct st_result *r)
{
	struct blkscale_unregister u;
	int major;

	if (!st_expect_err(r, "register", helper_register(fd, 0, "bsresv",
							  &major, NULL), 0))
		return;
	memset(&u, 0, sizeof(u));
	u.version = BLKSCALE_UAPI_VERSION;
	u.major = major;
	strcpy(u.name, "bsresv");
	u.reserved = 1ull << 63;
	expect_einval(r, fd, "unregister with reserved",
		      BLKSCALE_IOC_UNREGISTER, &u);
	u.reserved = 0;
	u.flags = 1u << 31;
	expect_einval(r, fd, "unregister with an undefined flag",
		      BLKSCALE_IOC_UNREGISTER, &u);
	/* refused, so still held: a plain unregister works */
	st_expect_err(r, "unregister", helper_unregister(fd, major, "bsresv",
							 NULL), 0);
}

static void batch_fields(int fd, struct st_result *r)
{
	struct blkscale_batch b;

	memset(&b, 0, sizeof(b));
	b.version = BLKSCALE_UAPI_VERSION;
	b.op = BLKSCALE_BATCH_REGISTER;
	b.count = 1;
	strcpy(b.prefix, "bsrv");
	b.flags = 4;
	expect_einval(r, fd, "batch with flags", BLKSCALE_IOC_BATCH, &b);
	b.flags = 0;
	b.reserved = 1;
	expect_einval(r, fd, "batch with reserved", BLKSCALE_IOC_BATCH, &b);
	if (b.done)
		st_fail(r, "refused batch reports %u done", b.done);
}

static void char_probe_fields(int fd, struct st_result *r)
{
	struct blkscale_char_probe c;

	memset(&c, 0, sizeof(c));
	c.version = BLKSCALE_UAPI_VERSION;
	c.limit = 1;
	c.flags = 1;
	expect_einval(r, fd, "char probe with flags", BLKSCALE_IOC_CHAR_PROBE,
		      &c);
	c.flags = 0;
	c.reserved = 2;
	expect_einval(r, fd, "char probe with reserved",
		      BLKSCALE_IOC_CHAR_PROBE, &c);
}

static void probe_hits_fields(int fd, struct st_result *r)
{
	struct blkscale_probe_hits h;

	memset(&h, 0, sizeof(h));
	h.version = BLKSCALE_UAPI_VERSION;
	h.major = 1;
	h.flags = 1;
	expect_einval(r, fd, "probe hits with flags", BLKSCALE_IOC_PROBE_HITS,
		      &h);
	h.flags = 0;
	h.reserved = 1ull << 40;
	expect_einval(r, fd, "probe hits with reserved",
		      BLKSCALE_IOC_PROBE_HITS, &h);
	h.reserved = 0;
	st_expect_err(r, "probe hits, all zero",
		      st_ioctl(fd, BLKSCALE_IOC_PROBE_HITS, &h), 0);
}

void t_reserved_fields(struct st_ctx *ctx, struct st_result *r)
{
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	register_fields(fd, r);
	unregister_fields(fd, r);
	batch_fields(fd, r);
	char_probe_fields(fd, r);
	probe_hits_fields(fd, r);
	st_note(r, "flags and reserved of %d-bit structures checked",
		(int)sizeof(void *) * 8);
	close(fd);
}
