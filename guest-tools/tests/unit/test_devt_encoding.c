// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's dev_t encodings in user space (src/lib/devt.c) against
 * the values include/linux/kdev_t.h gives, and against glibc's makedev().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "compiler.h"
#include "devt.h"

struct known {
	uint32_t major, minor;
	uint32_t kdev;		/* MKDEV */
	uint32_t encoded;	/* new_encode_dev */
	uint16_t old;		/* old_encode_dev */
};

/* Worked out by hand from kdev_t.h. */
static const struct known known[] = {
	{ 0, 0, 0x00000000, 0x00000000, 0x0000 },
	{ 8, 1, 0x00800001, 0x00000801, 0x0801 },
	{ 255, 255, 0x0ff000ff, 0x0000ffff, 0xffff },
	{ 256, 0, 0x10000000, 0x00010000, 0x0000 },
	{ 0, 256, 0x00000100, 0x00100000, 0x0100 },
	{ 8, 256, 0x00800100, 0x00100800, 0x0900 },
	{ 259, 1048575, 0x103fffff, 0xfff103ff, 0xffff },
	{ 4095, 0, 0xfff00000, 0x000fff00, 0xff00 },
	{ 4095, 1048575, 0xffffffff, 0xffffffff, 0xffff },
};

static void kernel_values(void **state)
{
	const struct known *k;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(known); i++) {
		k = &known[i];
		assert_int_equal(kdev_mkdev(k->major, k->minor), k->kdev);
		assert_int_equal(kdev_major(k->kdev), k->major);
		assert_int_equal(kdev_minor(k->kdev), k->minor);
		assert_int_equal(kdev_new_encode(k->kdev), k->encoded);
		assert_int_equal(kdev_new_decode(k->encoded), k->kdev);
		assert_int_equal(kdev_old_encode(k->kdev), k->old);
	}
}

/* new_decode(new_encode(x)) == x over the whole 32-bit space, sampled. */
static void new_encoding_is_a_bijection(void **state)
{
	uint64_t x;

	(void)state;
	for (x = 0; x <= UINT32_MAX; x += 65521) {
		assert_int_equal(kdev_new_decode(kdev_new_encode((uint32_t)x)),
				 (uint32_t)x);
		assert_int_equal(kdev_new_encode(kdev_new_decode((uint32_t)x)),
				 (uint32_t)x);
	}
}

/* Where the kernel can hold the number, glibc's dev_t is the same bits. */
static void glibc_matches_kernel(void **state)
{
	uint32_t major, minor;
	static const uint32_t minors[] = { 0, 1, 255, 256, 4095, 65536,
					   1048574, 1048575 };
	size_t i;

	(void)state;
	for (major = 0; major <= KDEV_MAJOR_MAX; major++) {
		for (i = 0; i < ARRAY_SIZE(minors); i++) {
			minor = minors[i];
			assert_true(kdev_fits(major, minor));
			assert_int_equal((uint64_t)makedev(major, minor),
					 kdev_new_encode(kdev_mkdev(major, minor)));
			assert_int_equal(kdev_from_user(makedev(major, minor)),
					 kdev_mkdev(major, minor));
		}
	}
}

/* What the kernel makes of a glibc dev_t it cannot hold. */
static void beyond_the_kernel(void **state)
{
	(void)state;
	assert_false(kdev_fits(4096, 0));
	assert_false(kdev_fits(0, 1048576));
	assert_false(kdev_fits(UINT32_MAX, UINT32_MAX));
	assert_int_equal(kdev_from_user(makedev(4096, 0)), kdev_mkdev(0, 0));
	assert_int_equal(kdev_from_user(makedev(0, 1048576)), kdev_mkdev(0, 0));
	/* 4104 = 4096 + 8: the upper bits go, major 8 stays */
	assert_int_equal(kdev_from_user(makedev(4104, 1)), kdev_mkdev(8, 1));
	assert_int_equal(kdev_from_user(makedev(UINT32_MAX, UINT32_MAX)),
			 kdev_mkdev(4095, 1048575));
}

/* 8:8 numbers survive the old encoding; others become another device. */
static void old_encoding(void **state)
{
	uint32_t major, minor, k;

	(void)state;
	for (major = 0; major < 256; major++)
		for (minor = 0; minor < 256; minor += 15) {
			k = kdev_mkdev(major, minor);
			assert_true(kdev_old_valid(k));
			assert_int_equal(kdev_old_decode(kdev_old_encode(k)), k);
			/* and the 32-bit encoding reads old values as they were */
			assert_int_equal(kdev_new_decode(kdev_old_encode(k)), k);
		}
	assert_false(kdev_old_valid(kdev_mkdev(8, 256)));
	assert_false(kdev_old_valid(kdev_mkdev(256, 0)));
	assert_int_equal(kdev_old_decode(kdev_old_encode(kdev_mkdev(8, 256))),
			 kdev_mkdev(9, 0));
	assert_int_equal(kdev_old_decode(kdev_old_encode(kdev_mkdev(256, 1))),
			 kdev_mkdev(0, 1));
}

static void format(void **state)
{
	char buf[24];

	(void)state;
	assert_string_equal(kdev_format(buf, sizeof(buf),
					kdev_mkdev(4095, 1048575)),
			    "4095:1048575");
	assert_string_equal(kdev_format(buf, sizeof(buf), 0), "0:0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_values),
		cmocka_unit_test(new_encoding_is_a_bijection),
		cmocka_unit_test(glibc_matches_kernel),
		cmocka_unit_test(beyond_the_kernel),
		cmocka_unit_test(old_encoding),
		cmocka_unit_test(format),
	};

	return cmocka_run_group_tests_name("devt_encoding", tests, NULL, NULL);
}
