// SPDX-License-Identifier: GPL-2.0
/* Every malformed request is refused with the right error, nothing done. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compiler.h"
#include "selftest.h"

static int raw_register(int fd, int major, const char *name, size_t len)
{
	struct blkscale_register reg = {
		.version = BLKSCALE_UAPI_VERSION,
		.major = major,
	};

	memcpy(reg.name, name, len);
	return st_ioctl(fd, BLKSCALE_IOC_REGISTER, &reg);
}

void t_version(struct st_ctx *ctx, struct st_result *r)
{
	struct blkscale_register reg = { .version = BLKSCALE_UAPI_VERSION + 1,
					 .name = "bsv" };
	struct blkscale_unregister unreg = { .version = 0, .major = 1,
					     .name = "bsv" };
	struct blkscale_batch b = { .version = 99, .op = 1, .count = 1,
				    .prefix = "bsv" };
	struct blkscale_char_probe c = { .version = BLKSCALE_UAPI_VERSION + 1,
					  .limit = 1 };
	struct blkscale_probe_hits h = { .version = BLKSCALE_UAPI_VERSION + 1,
					  .major = 1 };
	uint32_t v = 0;
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	if (st_expect_err(r, "VERSION", st_ioctl(fd, BLKSCALE_IOC_VERSION, &v),
			  0) && v != BLKSCALE_UAPI_VERSION)
		st_fail(r, "module version %u, header %u", v,
			BLKSCALE_UAPI_VERSION);
	st_expect_err(r, "REGISTER of the next version",
		      st_ioctl(fd, BLKSCALE_IOC_REGISTER, &reg), -EINVAL);
	st_expect_err(r, "UNREGISTER v0",
		      st_ioctl(fd, BLKSCALE_IOC_UNREGISTER, &unreg), -EINVAL);
	st_expect_err(r, "BATCH v99", st_ioctl(fd, BLKSCALE_IOC_BATCH, &b),
		      -EINVAL);
	st_expect_err(r, "CHAR_PROBE of the next version",
		      st_ioctl(fd, BLKSCALE_IOC_CHAR_PROBE, &c), -EINVAL);
	st_expect_err(r, "PROBE_HITS of the next version",
		      st_ioctl(fd, BLKSCALE_IOC_PROBE_HITS, &h), -EINVAL);
	st_note(r, "uapi version %u", v);
	close(fd);
}

void t_unknown_ioctl(struct st_ctx *ctx, struct st_result *r)
{
	char buf[256] = { 0 };
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	st_expect_err(r, "unknown number",
		      st_ioctl(fd, _IO(BLKSCALE_IOC_MAGIC, 99), buf), -ENOTTY);
	/* a structure of another size is another command */
	st_expect_err(r, "REGISTER with another size",
		      st_ioctl(fd, _IOWR(BLKSCALE_IOC_MAGIC, 1, char[40]), buf),
		      -ENOTTY);
	st_expect_err(r, "another magic",
		      st_ioctl(fd, _IOR('B', 0, uint32_t), buf), -ENOTTY);
	close(fd);
}

void t_bad_names(struct st_ctx *ctx, struct st_result *r)
{
	static const struct {
		const char *what;
		const char *name;
	} bad[] = {
		{ "empty", "" },
		{ "16 characters", "abcdefghijklmnop" },
		{ "31 characters", "abcdefghijklmnopqrstuvwxyz01234" },
		{ "slash", "bs/x" },
		{ "tab", "bs\tx" },
		{ "newline", "bs\nx" },
		{ "control character", "bs\001x" },
		{ "space", "bs x" },
		{ "non-ASCII", "bs\xc3\xa9" },
		{ "DEL", "bs\177" },
	};
	char full[BLKSCALE_NAME_SIZE], what[64], listed[64];
	int fd, major;
	size_t i;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "register name %s", bad[i].what);
		st_expect_err(r, what, raw_register(fd, 0, bad[i].name,
						    strlen(bad[i].name)),
			      -EINVAL);
		snprintf(what, sizeof(what), "batch prefix %s", bad[i].what);
		st_expect_err(r, what,
			      helper_batch_register(fd, 1, bad[i].name, 0,
						    NULL, NULL,
						    &(struct helper_batch){ 0 }),
			      -EINVAL);
	}
	/* all 32 bytes used: no terminating NUL */
	memset(full, 'a', sizeof(full));
	st_expect_err(r, "register unterminated name",
		      raw_register(fd, 0, full, sizeof(full)), -EINVAL);
	st_expect_err(r, "batch prefix of 6",
		      helper_batch_register(fd, 1, "abcdef", 0, NULL, NULL,
					    &(struct helper_batch){ 0 }),
		      -EINVAL);

	/* the longest name is kept whole */
	if (!st_expect_err(r, "register 15 characters",
			   helper_register(fd, 0, "bs.name-15_long", &major,
					   NULL), 0)) {
		close(fd);
		return;
	}
	st_block_name(major, listed, sizeof(listed));
	if (strcmp(listed, "bs.name-15_long"))
		st_fail(r, "major %d listed as '%s'", major, listed);
	st_expect_err(r, "unregister it",
		      helper_unregister(fd, major, "bs.name-15_long", NULL), 0);
	close(fd);
}

void t_bad_counts(struct st_ctx *ctx, struct st_result *r)
{
	struct blkscale_batch b = {
		.version = BLKSCALE_UAPI_VERSION,
		.op = BLKSCALE_BATCH_REGISTER,
		.prefix = "bsc",
	};
	struct blkscale_char_probe c = { .version = BLKSCALE_UAPI_VERSION };
	struct helper_batch res;
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	b.count = 0;
	st_expect_err(r, "batch count 0", st_ioctl(fd, BLKSCALE_IOC_BATCH, &b),
		      -EINVAL);
	b.count = BLKSCALE_BATCH_MAX + 1;
	st_expect_err(r, "batch count max+1",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EINVAL);
	b.count = UINT32_MAX;
	st_expect_err(r, "batch count 2^32-1",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EINVAL);
	b.count = 1;
	b.op = 0;
	st_expect_err(r, "batch op 0", st_ioctl(fd, BLKSCALE_IOC_BATCH, &b),
		      -EINVAL);
	b.op = 3;
	st_expect_err(r, "batch op 3", st_ioctl(fd, BLKSCALE_IOC_BATCH, &b),
		      -EINVAL);
	c.limit = 0;
	st_expect_err(r, "char limit 0",
		      st_ioctl(fd, BLKSCALE_IOC_CHAR_PROBE, &c), -EINVAL);
	c.limit = BLKSCALE_BATCH_MAX + 1;
	st_expect_err(r, "char limit max+1",
		      st_ioctl(fd, BLKSCALE_IOC_CHAR_PROBE, &c), -EINVAL);
	/* nothing held: an unregister batch does nothing and says so */
	if (st_expect_err(r, "unregister batch with nothing held",
			  helper_batch_unregister(fd, 5, NULL, NULL, &res), 0) &&
	    (res.done || res.stop_error != -ENOENT))
		st_fail(r, "empty unregister batch: done %u, %s", res.done,
			errno_name(res.stop_error));
	close(fd);
}

void t_bad_majors(struct st_ctx *ctx, struct st_result *r)
{
	static const int bad[] = { -1, -4096, INT_MIN, 4096, 4097, 65536,
				   1 << 20, INT_MAX };
	struct blkscale_probe_hits h;
	char what[64];
	size_t i;
	int fd;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "register major %d", bad[i]);
		st_expect_err(r, what, helper_register(fd, bad[i], "bsm", NULL,
						       NULL), -EINVAL);
		snprintf(what, sizeof(what), "unregister major %d", bad[i]);
		st_expect_err(r, what, helper_unregister(fd, bad[i], "bsm",
							 NULL), -EINVAL);
		snprintf(what, sizeof(what), "probe hits of major %d", bad[i]);
		st_expect_err(r, what, helper_probe_hits(fd, bad[i], &h),
			      -EINVAL);
	}
	st_expect_err(r, "unregister major 0",
		      helper_unregister(fd, 0, "bsm", NULL), -EINVAL);
	st_expect_err(r, "probe hits of major 0",
		      helper_probe_hits(fd, 0, &h), -EINVAL);
	h.version = BLKSCALE_UAPI_VERSION;
	h.major = 1;
	h.reserved = 1;
	st_expect_err(r, "probe hits with reserved set",
		      st_ioctl(fd, BLKSCALE_IOC_PROBE_HITS, &h), -EINVAL);
	st_expect_err(r, "unregister with unknown flags",
		      st_ioctl(fd, BLKSCALE_IOC_UNREGISTER,
			       &(struct blkscale_unregister){
				       .version = BLKSCALE_UAPI_VERSION,
				       .major = 1, .flags = 2,
				       .name = "bsm" }),
		      -EINVAL);
	close(fd);
}

/* Whether the file still holds @major (PROBE_HITS asks the module). */
static bool still_held(int fd, int major)
{
	struct blkscale_probe_hits h;

	return !helper_probe_hits(fd, major, &h) && h.held;
}

/*
 * An unregister whose results cannot be written is refused before the
 * major is let go: EFAULT must mean that nothing changed.
 */
static void unregister_faults_keep(int fd, struct st_result *r)
{
	struct blkscale_unregister *u;
	struct blkscale_batch b = {
		.version = BLKSCALE_UAPI_VERSION,
		.op = BLKSCALE_BATCH_UNREGISTER,
		.count = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	char *ro;
	int major;

	ro = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		st_fail(r, "mmap: %s", strerror(errno));
		return;
	}
	if (!st_expect_err(r, "register bsfro",
			   helper_register(fd, 0, "bsfro", &major, NULL), 0))
		goto out_unmap;
	u = (struct blkscale_unregister *)ro;
	*u = (struct blkscale_unregister){
		.version = BLKSCALE_UAPI_VERSION,
		.major = major,
		.name = "bsfro",
	};
	mprotect(ro, (size_t)page, PROT_READ);
	st_expect_err(r, "UNREGISTER through a read-only struct",
		      st_ioctl(fd, BLKSCALE_IOC_UNREGISTER, u), -EFAULT);
	if (!still_held(fd, major))
		st_fail(r, "UNREGISTER of %d failed with EFAULT but let it go",
			major);
	b.majors = (uintptr_t)ro;
	st_expect_err(r, "unregister batch into a read-only array",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EFAULT);
	if (!still_held(fd, major))
		st_fail(r, "unregister batch of %d failed with EFAULT but let it go",
			major);
	st_expect_err(r, "unregister bsfro",
		      helper_unregister(fd, major, "bsfro", NULL), 0);
out_unmap:
	munmap(ro, (size_t)page);
}

void t_bad_pointers(struct st_ctx *ctx, struct st_result *r)
{
	struct procdev_list added, removed;
	struct blkscale_batch b = {
		.version = BLKSCALE_UAPI_VERSION,
		.op = BLKSCALE_BATCH_REGISTER,
		.count = 8,
		.prefix = "bsf",
	};
	struct blkscale_char_probe c = {
		.version = BLKSCALE_UAPI_VERSION,
		.limit = 4,
	};
	void *bad = (void *)16;	/* never mapped */
	int fd;

	fd = st_open(r);
	if (fd < 0)
		return;
	st_expect_err(r, "REGISTER at NULL",
		      st_ioctl(fd, BLKSCALE_IOC_REGISTER, NULL), -EFAULT);
	st_expect_err(r, "UNREGISTER at an unmapped address",
		      st_ioctl(fd, BLKSCALE_IOC_UNREGISTER, bad), -EFAULT);
	st_expect_err(r, "VERSION at NULL",
		      st_ioctl(fd, BLKSCALE_IOC_VERSION, NULL), -EFAULT);
	b.samples = (uintptr_t)bad;
	st_expect_err(r, "batch with unmapped samples",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EFAULT);
	b.samples = 0;
	b.majors = (uintptr_t)bad;
	st_expect_err(r, "batch with unmapped majors",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EFAULT);
	b.majors = (uint64_t)-4096;	/* kernel half */
	st_expect_err(r, "batch with a kernel address",
		      st_ioctl(fd, BLKSCALE_IOC_BATCH, &b), -EFAULT);
	c.majors = (uintptr_t)bad;
	st_expect_err(r, "char probe with unmapped majors",
		      st_ioctl(fd, BLKSCALE_IOC_CHAR_PROBE, &c), -EFAULT);

	unregister_faults_keep(fd, r);

	/* nothing may be left registered while the file is still open */
	if (st_procdev_changes(ctx, &added, &removed, r) == 0) {
		if (added.n || removed.n)
			st_fail(r, "faulting requests left %zu block majors registered",
				added.n);
		procdev_list_free(&added);
		procdev_list_free(&removed);
	}
	close(fd);
}
