/* SPDX-License-Identifier: GPL-2.0 */
/* The few kernel idioms the tools use, for user space. */
#ifndef BLKSCALE_COMPILER_H
#define BLKSCALE_COMPILER_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

#endif
