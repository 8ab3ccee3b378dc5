// SPDX-License-Identifier: GPL-2.0
/*
 * mknod and stat at the edges of the 12/20-bit split, and one past them.
 * mknod(2) takes the device as an unsigned int (new_decode_dev of the
 * 32-bit encoding), so glibc must refuse a dev_t whose upper half is set;
 * the raw system call with the same 64-bit value shows what the kernel
 * does with it: it keeps the low 32 bits, i.e. another device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devt.h"
#include "devtaudit.h"

#define SUB "mknod"

static void round_trip(struct audit *a, const struct edge *e, mode_t type)
{
	char path[PATH_MAX], node[48], name[48];
	struct statx stx;
	struct stat st;
	int ret;

	snprintf(node, sizeof(node), "%c-%u-%u", type == S_IFBLK ? 'b' : 'c',
		 e->major, e->minor);
	snprintf(name, sizeof(name), "mknod-stat%s/%u:%u",
		 type == S_IFBLK ? "" : "-chr", e->major, e->minor);
	audit_path(a, path, sizeof(path), SUB, node);
	if (mknod(path, type | 0600, makedev(e->major, e->minor))) {
		audit_add(a, V_FAIL, name, "mknod: %s", errno_name(errno));
		return;
	}
	if (stat(path, &st)) {
		audit_add(a, V_FAIL, name, "stat: %s", errno_name(errno));
		return;
	}
	ret = statx(AT_FDCWD, path, 0, STATX_TYPE, &stx);
	if ((st.st_mode & S_IFMT) != type || major(st.st_rdev) != e->major ||
	    minor(st.st_rdev) != e->minor) {
		audit_add(a, V_FAIL, name, "stat gives %s %u:%u",
			  S_ISBLK(st.st_mode) ? "block" : "non-block",
			  major(st.st_rdev), minor(st.st_rdev));
		return;
	}
	if (ret) {
		audit_add(a, V_PASS, name,
			  "stat st_rdev 0x%llx; statx: %s",
			  (unsigned long long)st.st_rdev, errno_name(errno));
		return;
	}
	if (stx.stx_rdev_major != e->major || stx.stx_rdev_minor != e->minor) {
		audit_add(a, V_FAIL, name, "statx gives %u:%u",
			  stx.stx_rdev_major, stx.stx_rdev_minor);
		return;
	}
	audit_add(a, V_PASS, name,
		  "stat st_rdev 0x%llx and statx agree",
		  (unsigned long long)st.st_rdev);
}

/* After a past-the-edge mknod: what, if anything, was made. */
static void judge_past(struct audit *a, const char *name, const char *path,
		       const struct edge *e, int ret, int err, const char *how)
{
	char got[24];
	struct stat st;
	dev_t dev = makedev(e->major, e->minor);

	if (ret) {
		if (err == EINVAL || err == EOVERFLOW)
			audit_add(a, V_PASS, name, "%s refuses it: %s", how,
				  errno_name(err));
		else
			audit_add(a, V_FAIL, name, "%s: unexpected %s", how,
				  errno_name(err));
		return;
	}
	if (lstat(path, &st)) {
		audit_add(a, V_FAIL, name, "%s succeeded, then stat: %s", how,
			  errno_name(errno));
		return;
	}
	unlink(path);
	if (st.st_rdev == dev) {
		audit_add(a, V_PASS, name, "%s made it, and it reads back", how);
		return;
	}
	kdev_format(got, sizeof(got),
		    kdev_mkdev(major(st.st_rdev), minor(st.st_rdev)));
	audit_add(a, V_TRUNCATES, name,
		  "%s makes a node for %s instead: the kernel takes the low 32 bits 0x%08x of dev_t 0x%llx",
		  how, got, (uint32_t)dev, (unsigned long long)dev);
}

static void past_edge(struct audit *a, const struct edge *e)
{
	char path[PATH_MAX], node[48], name[48];
	dev_t dev = makedev(e->major, e->minor);
	long ret;

	snprintf(node, sizeof(node), "past-%u-%u", e->major, e->minor);
	audit_path(a, path, sizeof(path), SUB, node);

	snprintf(name, sizeof(name), "mknod-glibc/%u:%u", e->major, e->minor);
	ret = mknod(path, S_IFBLK | 0600, dev);
	judge_past(a, name, path, e, (int)ret, errno, "glibc mknod()");

	/* the kernel's argument is an unsigned int: see what it makes of it */
	snprintf(name, sizeof(name), "mknod-syscall/%u:%u", e->major,
		 e->minor);
	ret = syscall(SYS_mknodat, AT_FDCWD, path, S_IFBLK | 0600,
		      (unsigned long)dev);
	judge_past(a, name, path, e, (int)ret, errno, "mknodat(2)");
}

void audit_mknod(struct audit *a)
{
	static const struct edge top = { KDEV_MAJOR_MAX, KDEV_MINOR_MAX };
	size_t i;
	int ret;

	ret = audit_subdir(a, SUB);
	if (ret) {
		report_error(&a->rep, "%s/%s: %s", a->dir, SUB,
			     errno_name(ret));
		return;
	}
	for (i = 0; i < NVALID_EDGES; i++)
		round_trip(a, &valid_edges[i], S_IFBLK);
	round_trip(a, &top, S_IFCHR);
	for (i = 0; i < NPAST_EDGES; i++)
		past_edge(a, &past_edges[i]);
}
