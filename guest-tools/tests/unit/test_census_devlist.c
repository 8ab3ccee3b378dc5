// SPDX-License-Identifier: GPL-2.0
/*
 * Uniqueness and distribution of device numbers (src/lib/devlist.c), the
 * way diskcensus uses them: sort once, repeated dev_ts are neighbours.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "devlist.h"

static void small_list(void **state)
{
	struct devlist_item v[] = {
		{ 254, 16, 0 }, { 8, 0, 1 }, { 8, 256, 2 }, { 254, 0, 3 },
		{ 8, 16, 4 }, { 65, 0, 5 }, { 254, 16, 6 },
	};
	struct devlist_summary s;

	(void)state;
	devlist_sort(v, 7);
	assert_int_equal(v[0].major, 8);
	assert_int_equal(v[0].minor, 0);
	assert_int_equal(v[2].minor, 256);
	/* the repeated 254:16 are neighbours, in index order */
	assert_int_equal(v[5].index, 0);
	assert_int_equal(v[6].index, 6);

	assert_int_equal(devlist_summarize(v, 7, &s), 0);
	assert_int_equal(s.duplicates, 1);
	assert_int_equal(s.max_minor, 256);
	assert_int_equal(s.minor_over_255, 1);
	assert_int_equal(s.nmajors, 3);
	assert_int_equal(s.majors[0].major, 8);
	assert_int_equal(s.majors[0].count, 3);
	assert_int_equal(s.majors[0].max_minor, 256);
	assert_int_equal(s.majors[0].minor_over_255, 1);
	assert_int_equal(s.majors[1].major, 65);
	assert_int_equal(s.majors[1].count, 1);
	assert_int_equal(s.majors[2].major, 254);
	assert_int_equal(s.majors[2].count, 3);
	assert_int_equal(s.majors[2].max_minor, 16);
	devlist_summary_free(&s);
	assert_null(s.majors);
}

static void empty_list(void **state)
{
	struct devlist_summary s;

	(void)state;
	devlist_sort(NULL, 0);
	assert_int_equal(devlist_summarize(NULL, 0, &s), 0);
	assert_int_equal(s.nmajors, 0);
	assert_int_equal(s.duplicates, 0);
	devlist_summary_free(&s);
}

/*
 * 5000 disks as sd numbers them (16 majors x 16 disks, then minors above
 * 255), shuffled, with one number given twice: found, counted once.
 */
static void sd_like_5000(void **state)
{
	static const uint32_t sd_majors[16] = { 8, 65, 66, 67, 68, 69, 70, 71,
						128, 129, 130, 131, 132, 133,
						134, 135 };
	enum { N = 5000 };
	struct devlist_item *v, tmp;
	struct devlist_summary s;
	size_t i, j, over = 0;
	uint32_t minor;

	(void)state;
	v = calloc(N + 1, sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < N; i++) {
		v[i].major = sd_majors[(i & 0xf0) >> 4];
		minor = (uint32_t)(((i & 0xf) << 4) | (i & 0xfff00));
		v[i].minor = minor;
		v[i].index = i;
		if (minor > 255)
			over++;
	}
	v[N] = v[4321];
	v[N].index = N;
	srand(7);
	for (i = N; i > 0; i--) {
		j = (size_t)rand() % (i + 1);
		tmp = v[i];
		v[i] = v[j];
		v[j] = tmp;
	}
	devlist_sort(v, N + 1);
	assert_int_equal(devlist_summarize(v, N + 1, &s), 0);
	assert_int_equal(s.duplicates, 1);
	assert_int_equal(s.nmajors, 16);
	/* disks 256.. have minors above 255; disk 4321 is there twice */
	assert_int_equal(s.minor_over_255, over + 1);
	assert_int_equal(over, N - 256);
	/* disks 0x1300..0x1387: the largest is 0x130f's, 0x1300 | 0xf0 */
	assert_int_equal(s.max_minor, 0x13f0);
	/*
	 * 19 full rounds of 256 give every major 304 disks; 0x1300..0x1387
	 * add 16 to the first eight majors and 8 to the ninth; disk 4321
	 * (0x10e1) is on the fifteenth, 134, twice.
	 */
	for (i = 0, j = 0; i < 16; i++)
		j += s.majors[i].count;
	assert_int_equal(j, N + 1);
	assert_int_equal(s.majors[0].major, 8);
	assert_int_equal(s.majors[0].count, 320);
	assert_int_equal(s.majors[8].major, 128);
	assert_int_equal(s.majors[8].count, 312);
	assert_int_equal(s.majors[14].major, 134);
	assert_int_equal(s.majors[14].count, 305);
	assert_int_equal(s.majors[15].count, 304);
	devlist_summary_free(&s);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_list),
		cmocka_unit_test(empty_list),
		cmocka_unit_test(sd_like_5000),
	};

	return cmocka_run_group_tests_name("census_devlist", tests, NULL, NULL);
}
