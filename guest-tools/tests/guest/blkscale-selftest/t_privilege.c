// SPDX-License-Identifier: GPL-2.0
/*
 * Without CAP_SYS_ADMIN nothing works: neither opening the device nor
 * using a file that root opened and handed down.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest.h"

#define NOBODY 65534

/* Runs as nobody; writes a failure message to out, exits 1 on failure. */
static int child(int fd, int out)
{
	char msg[256] = "";
	uint32_t v;
	int ret, nfd;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		snprintf(msg, sizeof(msg), "cannot become nobody: %s",
			 strerror(errno));
		goto out;
	}
	nfd = open(HELPER_DEV, O_RDWR);
	if (nfd >= 0) {
		snprintf(msg, sizeof(msg), "nobody opened " HELPER_DEV);
		close(nfd);
		goto out;
	}
	if (errno != EACCES && errno != EPERM) {
		snprintf(msg, sizeof(msg), "open as nobody: %s",
			 errno_name(errno));
		goto out;
	}
	ret = st_ioctl(fd, BLKSCALE_IOC_VERSION, &v);
	if (ret != -EPERM) {
		snprintf(msg, sizeof(msg), "VERSION on root's file: %s",
			 errno_name(ret));
		goto out;
	}
	ret = helper_register(fd, 0, "bsnobody", NULL, NULL);
	if (ret != -EPERM) {
		snprintf(msg, sizeof(msg), "register on root's file: %s",
			 errno_name(ret));
		goto out;
	}
out:
	if (msg[0] && write(out, msg, strlen(msg)) < 0)
		return 2;
	return msg[0] ? 1 : 0;
}

void t_non_root(struct st_ctx *ctx, struct st_result *r)
{
	char msg[256] = "";
	int fd, pipefd[2], status;
	ssize_t len;
	pid_t pid;

	(void)ctx;
	if (getuid() != 0) {
		st_skip(r, "must start as root");
		return;
	}
	fd = st_open(r);
	if (fd < 0)
		return;
	if (pipe(pipefd)) {
		st_fail(r, "pipe: %s", strerror(errno));
		goto out_close;
	}
	pid = fork();
	if (pid < 0) {
		st_fail(r, "fork: %s", strerror(errno));
		goto out_pipe;
	}
	if (pid == 0) {
		close(pipefd[0]);
		_exit(child(fd, pipefd[1]));
	}
	close(pipefd[1]);
	pipefd[1] = -1;
	len = read(pipefd[0], msg, sizeof(msg) - 1);
	msg[len > 0 ? len : 0] = '\0';
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		st_fail(r, "child did not exit normally");
	else if (WEXITSTATUS(status))
		st_fail(r, "%s", msg[0] ? msg : "child failed");
	else
		st_note(r, "nobody: open refused, ioctls on root's file EPERM");
out_pipe:
	close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
out_close:
	close(fd);
}
