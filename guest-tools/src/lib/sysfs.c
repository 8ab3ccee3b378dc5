// SPDX-License-Identifier: GPL-2.0
/* Attribute and link reads (see sysfs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"

long sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n, r;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = 0;
	/* one read is enough for sysfs; the loop is for other files */
	for (;;) {
		r = read(fd, buf + n, size - (size_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
		if ((size_t)n == size)
			break;
	}
	if (r < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	close(fd);
	if ((size_t)n == size)
		return -EFBIG;
	if (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return n;
}

long sysfs_link_name(const char *path, char *buf, size_t size)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;
	size_t len;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	len = strlen(base);
	if (!len)
		return -EINVAL;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, base, len + 1);
	return (long)len;
}
