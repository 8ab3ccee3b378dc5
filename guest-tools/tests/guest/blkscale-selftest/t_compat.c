// SPDX-License-Identifier: GPL-2.0
/*
 * The i386 build of this selftest (blkscale-selftest32) runs the tests of
 * the ioctl interface through compat_ioctl: the structures must have one
 * layout for both ABIs and the module must take 32-bit callers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest.h"

/* The tests that only talk to the module, without --expect. */
#define COMPAT_TESTS "version,unknown-ioctl,bad-names,bad-counts,bad-majors," \
	"bad-pointers,explicit-register,unregister-unknown,close-releases," \
	"probe-lookup,reserved-fields,char-probe,clock-empty"

void t_compat(struct st_ctx *ctx, struct st_result *r)
{
	char out[4096], *summary, *failed;
	int pipefd[2], status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	if (sizeof(void *) == 4) {
		st_skip(r, "this is the 32-bit build");
		return;
	}
	if (access(ctx->compat_bin, X_OK)) {
		st_fail(r, "%s: %s", ctx->compat_bin, errno_name(-errno));
		return;
	}
	if (pipe(pipefd)) {
		st_fail(r, "pipe: %s", errno_name(-errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execl(ctx->compat_bin, ctx->compat_bin, "--only", COMPAT_TESTS,
		      "--node-dir", ctx->node_dir, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		st_fail(r, "fork: %s", errno_name(-errno));
		return;
	}
	while ((got = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)got;
	out[len] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	summary = strstr(out, "# passed");
	failed = strstr(out, "not ok");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		st_fail(r, "%s exited with %d: %.300s", ctx->compat_bin,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			failed ? failed : out);
		return;
	}
	if (!summary || !strstr(summary, "skipped 0")) {
		st_fail(r, "32-bit run: %.200s", summary ? summary : out);
		return;
	}
	st_note(r, "32-bit: %.60s", summary + 2);
}
