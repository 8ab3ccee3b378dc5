// SPDX-License-Identifier: GPL-2.0
/* The commands of do_vfs_ioctl() in 6.1 (see vfs_ioctls.h). */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "compiler.h"
#include "vfs_ioctls.h"

#ifndef FIOQSIZE
#define FIOQSIZE 0x5460
#endif

bool vfs_ioctl_cmd(unsigned int cmd)
{
	static const unsigned int vfs[] = {
		FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC, FIOQSIZE, FIFREEZE,
		FITHAW, FS_IOC_FIEMAP, FIGETBSZ, FICLONE, FICLONERANGE,
		FIDEDUPERANGE, FIONREAD, FS_IOC_GETFLAGS, FS_IOC_SETFLAGS,
		FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vfs); i++)
		if (vfs[i] == cmd)
			return true;
	return false;
}
