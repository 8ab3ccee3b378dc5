// SPDX-License-Identifier: GPL-2.0
/*
 * majorhold: keep N dynamic block majors registered until signalled, so
 * another program (lvm2 in the lvm step) runs on a kernel with thousands
 * of majors in /proc/devices.  Prints "holding N" once they are held; the
 * majors go when the helper fd closes, i.e. however this process ends.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper.h"
#include "options.h"

static unsigned long count = 1000;

static const struct opt options[] = {
	OPT_NUM("count", 'n', &count, "N",
		"dynamic block majors to hold (fewer if the kernel runs out)",
		1, BLKSCALE_BATCH_MAX),
	OPT_END,
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct helper_batch res = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	uint32_t version;
	int fd, ret;

	ret = opt_parse_main("majorhold",
			     "Hold dynamic block majors until SIGTERM or SIGINT.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	fd = helper_open(&version);
	if (fd < 0) {
		fprintf(stderr, "majorhold: %s: %s\n", HELPER_DEV, strerror(-fd));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	ret = helper_batch_register(fd, count, "hold", 0, NULL, NULL, &res);
	if (ret < 0 || res.done == 0) {
		fprintf(stderr, "majorhold: no major registered: %s\n",
			errno_name(ret < 0 ? ret : res.stop_error));
		close(fd);
		return 1;
	}
	printf("holding %u\n", res.done);
	fflush(stdout);
	while (!stop)
		pause();
	close(fd);
	return 0;
}
