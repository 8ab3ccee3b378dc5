/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dev_t in the kernel's encodings (include/linux/kdev_t.h), for user
 * space: the internal one (12-bit major above a 20-bit minor), the 32-bit
 * one every current interface uses (new_encode_dev: the low byte of the
 * minor, then the major, then the rest of the minor, so that old 8:8
 * values keep their meaning) and the 16-bit one of the old interfaces
 * (old_encode_dev), which mixes minor bits above 7 into the major.
 * glibc's dev_t is 64 bits (32-bit major and minor, sys/sysmacros.h); its
 * low 32 bits are new_encode_dev for every dev_t the kernel can hold.
 */
#ifndef BLKSCALE_DEVT_H
#define BLKSCALE_DEVT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define KDEV_MINORBITS	20
#define KDEV_MAJOR_MAX	4095u		/* (1 << 12) - 1 */
#define KDEV_MINOR_MAX	1048575u	/* (1 << 20) - 1 */

/* MKDEV(), MAJOR(), MINOR(): the kernel's internal dev_t. */
uint32_t kdev_mkdev(uint32_t major, uint32_t minor);
uint32_t kdev_major(uint32_t kdev);
uint32_t kdev_minor(uint32_t kdev);

/* The kernel can hold major:minor (12/20 bits). */
bool kdev_fits(uint64_t major, uint64_t minor);

uint32_t kdev_new_encode(uint32_t kdev);
uint32_t kdev_new_decode(uint32_t val);

/* old_valid_dev(): both numbers below 256. */
bool kdev_old_valid(uint32_t kdev);
uint16_t kdev_old_encode(uint32_t kdev);
uint32_t kdev_old_decode(uint16_t val);

/*
 * The device the kernel sees when user space passes dev through an
 * interface whose argument is an unsigned int (mknod, ustat): the upper
 * half of glibc's dev_t is dropped, the rest is new_decode_dev'ed.
 */
uint32_t kdev_from_user(dev_t dev);

/* "major:minor" of a kernel dev_t into buf (at least 24 bytes). */
const char *kdev_format(char *buf, size_t size, uint32_t kdev);

#endif
