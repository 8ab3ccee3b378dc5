// SPDX-License-Identifier: GPL-2.0
/* dev_t encodings of the kernel, in user space (see devt.h). */
#include <stdio.h>

#include "devt.h"

uint32_t kdev_mkdev(uint32_t major, uint32_t minor)
{
	return (major << KDEV_MINORBITS) | minor;
}

uint32_t kdev_major(uint32_t kdev)
{
	return kdev >> KDEV_MINORBITS;
}

uint32_t kdev_minor(uint32_t kdev)
{
	return kdev & KDEV_MINOR_MAX;
}

bool kdev_fits(uint64_t major, uint64_t minor)
{
	return major <= KDEV_MAJOR_MAX && minor <= KDEV_MINOR_MAX;
}

uint32_t kdev_new_encode(uint32_t kdev)
{
	uint32_t major = kdev_major(kdev), minor = kdev_minor(kdev);

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

uint32_t kdev_new_decode(uint32_t val)
{
	uint32_t major = (val & 0xfff00) >> 8;
	uint32_t minor = (val & 0xff) | ((val >> 12) & 0xfff00);

	return kdev_mkdev(major, minor);
}

bool kdev_old_valid(uint32_t kdev)
{
	return kdev_major(kdev) < 256 && kdev_minor(kdev) < 256;
}

/* As the kernel does it: no check, the minor's upper bits land in the major. */
uint16_t kdev_old_encode(uint32_t kdev)
{
	return (uint16_t)((kdev_major(kdev) << 8) | kdev_minor(kdev));
}

uint32_t kdev_old_decode(uint16_t val)
{
	return kdev_mkdev((val >> 8) & 255, val & 255);
}

uint32_t kdev_from_user(dev_t dev)
{
	return kdev_new_decode((uint32_t)dev);
}

const char *kdev_format(char *buf, size_t size, uint32_t kdev)
{
	snprintf(buf, size, "%u:%u", kdev_major(kdev), kdev_minor(kdev));
	return buf;
}
