// SPDX-License-Identifier: GPL-2.0
/*
 * kmsgdump: the kernel's whole log as dmesg prints it, read from
 * /dev/kmsg.  At 65,536 disks the log is about 45 MB; busybox dmesg
 * reads 16 MiB of the ring buffer at most, so the launcher's larger
 * log_buf_len would be lost without this.  A summary goes to stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"
#include "options.h"

static struct {
	const char *file;
} cfg = {
	.file = "/dev/kmsg",
};

static const struct opt options[] = {
	OPT_STR("file", 'f', &cfg.file, "PATH",
		"read records from PATH (default /dev/kmsg)"),
	OPT_END,
};

int main(int argc, char **argv)
{
	struct kmsg_counts c = { 0 };
	int fd, ret;

	ret = opt_parse_main("kmsgdump",
			     "Print the kernel's log from /dev/kmsg as dmesg does.",
			     options, argc, argv);
	if (ret != OPT_MAIN_GO)
		return ret;
	fd = open(cfg.file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kmsgdump: %s: %s\n", cfg.file,
			strerror(errno));
		return 1;
	}
	ret = kmsg_dump(fd, stdout, &c);
	close(fd);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "kmsgdump: writing: %s\n", strerror(errno));
		return 1;
	}
	fprintf(stderr, "kmsgdump: %lu records, %lu malformed, %lu lost while reading\n",
		c.records, c.malformed, c.lost);
	if (ret) {
		fprintf(stderr, "kmsgdump: %s: %s\n", cfg.file, strerror(-ret));
		return 1;
	}
	return 0;
}
