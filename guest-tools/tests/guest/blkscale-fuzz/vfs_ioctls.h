/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands the VFS answers itself for every file (fs/ioctl.c,
 * do_vfs_ioctl()) before a driver sees them: random commands skip them,
 * since only the module's answer is predictable.
 */
#ifndef BLKSCALE_FUZZ_VFS_IOCTLS_H
#define BLKSCALE_FUZZ_VFS_IOCTLS_H

#include <stdbool.h>

bool vfs_ioctl_cmd(unsigned int cmd);

#endif
