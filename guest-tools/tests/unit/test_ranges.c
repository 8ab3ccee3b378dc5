// SPDX-License-Identifier: GPL-2.0
/* Runs of majors (src/lib/ranges.c) and the devices.txt table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ranges.h"
#include "static_majors.h"

static void runs(void **state)
{
	int32_t v[] = { 254, 3, 253, 1, 2, 252, 5, 2, 384, 385 };
	struct range r[10];

	(void)state;
	assert_int_equal(ranges_build(v, 10, r), 4);
	assert_int_equal(r[0].first, 1);
	assert_int_equal(r[0].last, 3);
	assert_int_equal(r[1].first, 5);
	assert_int_equal(r[1].last, 5);
	assert_int_equal(r[2].first, 252);
	assert_int_equal(r[2].last, 254);
	assert_int_equal(r[3].first, 384);
	assert_int_equal(r[3].last, 385);
	assert_int_equal(ranges_build(v, 0, r), 0);
}

static void duplicates(void **state)
{
	int32_t none[] = { 3, 1, 2 };
	int32_t some[] = { 7, 1, 7, 7, 2, 1, 9 };

	(void)state;
	assert_int_equal(ranges_duplicates(none, 3), 0);
	/* 7 and 1 repeat: two values, however often */
	assert_int_equal(ranges_duplicates(some, 7), 2);
	assert_int_equal(ranges_duplicates(some, 0), 0);
}

static void format(void **state)
{
	struct range r[] = { { 1, 3 }, { 5, 5 }, { 384, 4095 } };
	char buf[64], small[12];

	(void)state;
	ranges_format(buf, sizeof(buf), r, 3);
	assert_string_equal(buf, "1-3,5,384-4095");
	ranges_format(small, sizeof(small), r, 3);
	assert_string_equal(small, "1-3,5,...");
	ranges_format(buf, sizeof(buf), r, 0);
	assert_string_equal(buf, "");
}

static void json_form(void **state)
{
	struct range r[] = { { 234, 252 }, { 384, 4095 } };
	size_t len = 0;
	struct json j;
	char *out;
	FILE *f;

	(void)state;
	f = open_memstream(&out, &len);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_ranges(&j, "ranges", r, 2);
	json_object_end(&j);
	assert_int_equal(json_finish(&j), 0);
	fclose(f);
	assert_string_equal(out, "{\n  \"ranges\": [[234, 252], [384, 4095]]\n}\n");
	free(out);
}

static void static_table(void **state)
{
	unsigned int i;

	(void)state;
	assert_true(static_block_majors_count > 100);
	for (i = 1; i < static_block_majors_count; i++)
		assert_true(static_block_majors[i - 1].major <
			    static_block_majors[i].major);
	assert_string_equal(static_block_major(1), "RAM disk");
	assert_string_equal(static_block_major(8), "SCSI disk devices (0-15)");
	assert_string_equal(static_block_major(202), "Xen Virtual Block Device");
	assert_string_equal(static_block_major(259), "Block Extended Major");
	assert_string_equal(static_block_major(255), "RESERVED");
	/* unassigned, local/experimental or dynamic: free */
	assert_null(static_block_major(0));
	assert_null(static_block_major(12));
	assert_null(static_block_major(60));
	assert_null(static_block_major(240));
	assert_null(static_block_major(254));
	assert_null(static_block_major(384));
	assert_null(static_block_major(4095));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs),
		cmocka_unit_test(duplicates),
		cmocka_unit_test(format),
		cmocka_unit_test(json_form),
		cmocka_unit_test(static_table),
	};

	return cmocka_run_group_tests_name("ranges", tests, NULL, NULL);
}
