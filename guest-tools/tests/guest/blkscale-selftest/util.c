// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the tests (see selftest.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "compiler.h"
#include "selftest.h"

static void set_detail(struct st_result *r, const char *fmt, va_list ap)
{
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
}

void st_fail(struct st_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->status == ST_FAIL)
		return;
	r->status = ST_FAIL;
	va_start(ap, fmt);
	set_detail(r, fmt, ap);
	va_end(ap);
}

void st_skip(struct st_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->status == ST_FAIL)
		return;
	r->status = ST_SKIP;
	va_start(ap, fmt);
	set_detail(r, fmt, ap);
	va_end(ap);
}

void st_note(struct st_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->status != ST_PASS)
		return;
	va_start(ap, fmt);
	set_detail(r, fmt, ap);
	va_end(ap);
}

bool st_expect_err(struct st_result *r, const char *what, int ret, int want)
{
	if (ret == want)
		return true;
	st_fail(r, "%s: got %s, want %s", what, errno_name(ret),
		errno_name(want));
	return false;
}

int st_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int st_open(struct st_result *r)
{
	int fd = helper_open(NULL);

	if (fd < 0) {
		st_fail(r, HELPER_DEV ": %s", errno_name(fd));
		return -1;
	}
	return fd;
}

int st_read_procdevices(struct procdevices *pd, struct st_result *r)
{
	char err[160], *text;
	long len;
	int ret;

	len = procdev_read_file("/proc/devices", &text);
	if (len < 0) {
		st_fail(r, "/proc/devices: %s", errno_name(len));
		return -1;
	}
	ret = procdev_parse(text, (size_t)len, pd, err, sizeof(err));
	free(text);
	if (ret) {
		st_fail(r, "/proc/devices: %s", err);
		return -1;
	}
	return 0;
}

int st_procdev_changes(struct st_ctx *ctx, struct procdev_list *added,
		       struct procdev_list *removed, struct st_result *r)
{
	struct procdevices now;
	int ret;

	if (st_read_procdevices(&now, r))
		return -1;
	ret = procdev_diff(&ctx->baseline, &now, added, removed);
	procdev_free(&now);
	if (ret < 0) {
		st_fail(r, "out of memory");
		return -1;
	}
	if (ret) {
		st_fail(r, "/proc/devices: char section changed");
		procdev_list_free(added);
		procdev_list_free(removed);
		return -1;
	}
	return 0;
}

void st_block_name(int major, char *name, size_t size)
{
	struct st_result dummy = { 0 };
	struct procdevices now;
	const char *n;

	name[0] = '\0';
	if (st_read_procdevices(&now, &dummy))
		return;
	n = procdev_block_name(&now, major);
	if (n)
		snprintf(name, size, "%s", n);
	procdev_free(&now);
}

int st_free_major(int lo, int hi)
{
	struct st_result dummy = { 0 };
	struct procdevices now;
	int major, found = -1;

	if (st_read_procdevices(&now, &dummy))
		return -1;
	for (major = hi; major >= lo; major--) {
		if (!procdev_block_name(&now, major)) {
			found = major;
			break;
		}
	}
	procdev_free(&now);
	return found;
}

/* Records that start a kernel problem report. */
static bool is_problem(const char *msg)
{
	static const char *const marks[] = {
		"WARNING:", "BUG:", "BUG ", "Oops", "general protection",
		"UBSAN:", "KASAN:", "unreferenced object",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (!strncmp(msg, marks[i], strlen(marks[i])))
			return true;
	return false;
}

unsigned int st_kmsg_problems(struct st_ctx *ctx, char *line, size_t size)
{
	char rec[8192], *msg, *nl;
	unsigned int n = 0;
	ssize_t len;

	if (line && size)
		line[0] = '\0';
	if (ctx->kmsg < 0)
		return 0;
	for (;;) {
		len = read(ctx->kmsg, rec, sizeof(rec) - 1);
		if (len < 0) {
			if (errno == EPIPE || errno == EINTR)
				continue;	/* overwritten records: go on */
			break;			/* EAGAIN: nothing more */
		}
		rec[len] = '\0';
		/* "prio,seq,time,flags;message\n continuation lines" */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (!is_problem(msg))
			continue;
		if (!n && line && size)
			snprintf(line, size, "%s", msg);
		n++;
	}
	return n;
}

long st_slab_kb(void)
{
	char buf[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void st_capacity(struct st_ctx *ctx)
{
	struct helper_batch res;
	int fd, ret;

	if (ctx->cap_done)
		return;
	ctx->cap_done = true;
	ctx->cap_majors = calloc(BLKSCALE_BATCH_MAX, sizeof(int32_t));
	if (!ctx->cap_majors) {
		ctx->cap_error = -ENOMEM;
		return;
	}
	fd = helper_open(NULL);
	if (fd < 0) {
		ctx->cap_error = fd;
		return;
	}
	ret = helper_batch_register(fd, BLKSCALE_BATCH_MAX, "cap", 0, NULL,
				    ctx->cap_majors, &res);
	if (ret) {
		ctx->cap_error = ret;
	} else {
		ctx->cap_count = res.done;
		ctx->cap_stop = res.stop_error;
	}
	close(fd);	/* releases them all */
}
