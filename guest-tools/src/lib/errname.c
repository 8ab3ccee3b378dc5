// SPDX-License-Identifier: GPL-2.0
/* errno names from the C library's own table (see errname.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "errname.h"

const char *errno_name(int err)
{
	static _Thread_local char buf[16];
	const char *name;

	/* -INT_MIN overflows: no errno is that large anyway */
	if (err < 0 && err > INT_MIN)
		err = -err;
	name = err >= 0 ? strerrorname_np(err) : NULL;
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}
