/* SPDX-License-Identifier: GPL-2.0 */
/* Small reads of sysfs attributes and links, one open or readlink each. */
#ifndef BLKSCALE_SYSFS_H
#define BLKSCALE_SYSFS_H

#include <stddef.h>

/*
 * The text of an attribute (at most size - 1 bytes) into buf without its
 * trailing newline.  Returns the length, or -errno (-EFBIG when it does
 * not fit).
 */
long sysfs_read(const char *path, char *buf, size_t size);

/*
 * The last component of a symbolic link's target into buf: the device
 * or driver a link points to.  Returns the length, or -errno.
 */
long sysfs_link_name(const char *path, char *buf, size_t size);

#endif
