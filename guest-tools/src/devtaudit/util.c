// SPDX-License-Identifier: GPL-2.0
/* Results, paths, nodes and child processes shared by the checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devtaudit.h"

const char *const verdict_names[V_COUNT] = {
	[V_PASS] = "pass",
	[V_FAIL] = "fail",
	[V_TRUNCATES] = "truncates",
	[V_UNSUPPORTED] = "unsupported",
};

const struct edge valid_edges[NVALID_EDGES] = {
	{ 0, 0 }, { 255, 255 }, { 256, 0 }, { 0, 256 }, { 8, 256 },
	{ 4095, 0 }, { 0, 1048575 }, { 4095, 1048575 },
};
const struct edge past_edges[NPAST_EDGES] = {
	{ 4096, 0 }, { 0, 1048576 },
};

void audit_add(struct audit *a, enum verdict v, const char *name,
	       const char *fmt, ...)
{
	struct check *c;
	va_list ap;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;

		c = realloc(a->checks, cap * sizeof(*c));
		if (!c) {
			report_error(&a->rep, "out of memory");
			return;
		}
		a->checks = c;
		a->cap = cap;
	}
	c = &a->checks[a->n++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->verdict = v;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	a->count[v]++;
	if (v == V_FAIL)
		report_error(&a->rep, "%s: %s", c->name, c->detail);
}

const char *audit_path(const struct audit *a, char *buf, size_t size,
		       const char *sub, const char *file)
{
	snprintf(buf, size, "%s/%s%s%s", a->dir, sub, file ? "/" : "",
		 file ? file : "");
	return buf;
}

int audit_subdir(const struct audit *a, const char *sub)
{
	char path[PATH_MAX];

	if (mkdir(audit_path(a, path, sizeof(path), sub, NULL), 0700))
		return -errno;
	return 0;
}

const char *edge_node_name(char *buf, size_t size, const struct edge *e)
{
	snprintf(buf, size, "b-%u-%u", e->major, e->minor);
	return buf;
}

int make_block_node(const char *path, uint32_t major, uint32_t minor)
{
	if (mknod(path, S_IFBLK | 0600, makedev(major, minor)))
		return -errno;
	return 0;
}

/* The first line of the child's stderr, for the verdict's detail. */
static void first_line(int fd, char *msg, size_t len)
{
	char buf[256];
	ssize_t n;
	char *nl;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	snprintf(msg + strlen(msg), len - strlen(msg), ": %s", buf);
}

static int open_or_null(const char *path, int flags)
{
	return open(path ? path : "/dev/null", flags | O_CLOEXEC, 0600);
}

int audit_run(const struct audit *a, const char *const argv[], const char *cwd,
	      const char *in_path, const char *out_path, char *msg, size_t len)
{
	char errfile[PATH_MAX];
	int in, out, err, status;
	pid_t pid;

	msg[0] = '\0';
	snprintf(errfile, sizeof(errfile), "%s/child-stderr", a->dir);
	err = open(errfile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (err < 0) {
		snprintf(msg, len, "%s: %s", errfile, errno_name(errno));
		return -1;
	}
	in = open_or_null(in_path, O_RDONLY);
	out = open_or_null(out_path, O_WRONLY | O_CREAT | O_TRUNC);
	if (in < 0 || out < 0) {
		snprintf(msg, len, "%s: %s", in < 0 ? in_path : out_path,
			 errno_name(errno));
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(msg, len, "fork: %s", errno_name(errno));
		goto out_close;
	}
	if (pid == 0) {
		if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 ||
		    (cwd && chdir(cwd)))
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(msg, len, "waitpid: %s", errno_name(errno));
			goto out_close;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(in);
		close(out);
		close(err);
		return 0;
	}
	if (WIFEXITED(status))
		snprintf(msg, len, "%s %s exited with %d", argv[0], argv[1],
			 WEXITSTATUS(status));
	else
		snprintf(msg, len, "%s %s killed by signal %d", argv[0], argv[1],
			 WTERMSIG(status));
	first_line(err, msg, len);
out_close:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	close(err);
	return -1;
}
