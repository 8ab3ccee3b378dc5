// SPDX-License-Identifier: GPL-2.0
/*
 * Loop devices report their backing file's device in two structures:
 * struct loop_info (LOOP_GET_STATUS) with __kernel_old_dev_t fields, 16
 * bits on some architectures, and struct loop_info64 (LOOP_GET_STATUS64)
 * with 64-bit ones.  The kernel answers EOVERFLOW rather than truncate
 * (loop_info64_to_old).  Only run when the loop driver is already there:
 * opening /dev/loop-control must not load a module.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devt.h"
#include "devtaudit.h"

#define NAME "loop-status"

static int make_backing(const struct audit *a, char *path, size_t size)
{
	char block[4096] = { 0 };
	int fd;

	audit_path(a, path, size, "loop-backing", NULL);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, block, sizeof(block)) != sizeof(block)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

static void compare(struct audit *a, int loop, const struct stat *st)
{
	uint32_t want = kdev_new_encode(kdev_mkdev(major(st->st_dev),
						   minor(st->st_dev)));
	struct loop_info64 info64;
	struct loop_info info;
	int ret;

	if (ioctl(loop, LOOP_GET_STATUS64, &info64)) {
		audit_add(a, V_FAIL, NAME, "LOOP_GET_STATUS64: %s",
			  errno_name(errno));
		return;
	}
	ret = ioctl(loop, LOOP_GET_STATUS, &info) ? errno : 0;
	if (info64.lo_device != want) {
		audit_add(a, V_FAIL, NAME,
			  "LOOP_GET_STATUS64 lo_device 0x%llx, backing file on 0x%08x",
			  (unsigned long long)info64.lo_device, want);
		return;
	}
	if (ret == EOVERFLOW) {
		audit_add(a, V_PASS, NAME,
			  "LOOP_GET_STATUS refuses with EOVERFLOW (%zu-byte lo_device); 64-bit status is right",
			  sizeof(info.lo_device));
		return;
	}
	if (ret) {
		audit_add(a, V_FAIL, NAME, "LOOP_GET_STATUS: %s",
			  errno_name(ret));
		return;
	}
	if (info.lo_device != want)
		audit_add(a, V_TRUNCATES, NAME,
			  "LOOP_GET_STATUS lo_device 0x%llx, LOOP_GET_STATUS64 0x%08x",
			  (unsigned long long)info.lo_device, want);
	else
		audit_add(a, V_PASS, NAME,
			  "both give lo_device 0x%08x (__kernel_old_dev_t is %zu bytes here)",
			  want, sizeof(info.lo_device));
}

void audit_loop(struct audit *a)
{
	char path[PATH_MAX], dev[64];
	int ctl, loop = -1, backing, n;
	struct stat st;

	snprintf(path, sizeof(path), "%s/module/loop", a->sysfs);
	if (access(path, F_OK)) {
		audit_add(a, V_UNSUPPORTED, NAME,
			  "no loop driver in this kernel (%s)", path);
		return;
	}
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		audit_add(a, V_UNSUPPORTED, NAME, "/dev/loop-control: %s",
			  errno_name(errno));
		return;
	}
	backing = make_backing(a, path, sizeof(path));
	if (backing < 0) {
		report_error(&a->rep, "%s: %s", path, errno_name(backing));
		goto out_ctl;
	}
	if (fstat(backing, &st)) {
		report_error(&a->rep, "%s: %s", path, errno_name(errno));
		goto out_backing;
	}
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (n < 0) {
		audit_add(a, V_UNSUPPORTED, NAME, "LOOP_CTL_GET_FREE: %s",
			  errno_name(errno));
		goto out_backing;
	}
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	loop = open(dev, O_RDWR | O_CLOEXEC);
	if (loop < 0) {
		audit_add(a, V_UNSUPPORTED, NAME, "%s: %s", dev,
			  errno_name(errno));
		goto out_backing;
	}
	if (ioctl(loop, LOOP_SET_FD, backing)) {
		audit_add(a, V_UNSUPPORTED, NAME, "LOOP_SET_FD on %s: %s", dev,
			  errno_name(errno));
		goto out_loop;
	}
	compare(a, loop, &st);
	if (ioctl(loop, LOOP_CLR_FD))
		report_error(&a->rep, "LOOP_CLR_FD on %s: %s", dev,
			     errno_name(errno));
out_loop:
	close(loop);
out_backing:
	close(backing);
out_ctl:
	close(ctl);
}
