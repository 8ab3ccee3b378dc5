// SPDX-License-Identifier: GPL-2.0
/* errno names (src/lib/errname.c), as the tools print them in JSON. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "compiler.h"
#include "errname.h"

/* The names the tools printed before they shared one function. */
static void known_names(void **state)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ 0, "0" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ EINTR, "EINTR" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
		{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" },
		{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" },
		{ EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
		{ ENAMETOOLONG, "ENAMETOOLONG" },
		{ EPROTO, "EPROTO" }, { EOVERFLOW, "EOVERFLOW" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EBADMSG, "EBADMSG" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(errno_name(names[i].err), names[i].name);
		assert_string_equal(errno_name(-names[i].err), names[i].name);
	}
}

static void unknown_values(void **state)
{
	(void)state;
	assert_string_equal(errno_name(4000), "E4000");
	assert_string_equal(errno_name(-4000), "E4000");
	assert_string_equal(errno_name(INT_MAX), "E2147483647");
	/* no overflow on the one value that has no negation */
	assert_string_equal(errno_name(INT_MIN), "E-2147483648");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_names),
		cmocka_unit_test(unknown_values),
	};

	return cmocka_run_group_tests_name("errname", tests, NULL, NULL);
}
