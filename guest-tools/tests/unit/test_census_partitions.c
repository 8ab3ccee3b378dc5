// SPDX-License-Identifier: GPL-2.0
/* /proc/partitions parsing and lookup (src/lib/partitions.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compiler.h"
#include "partitions.h"

/* The kernel's own format (block/genhd.c show_partition). */
static size_t line(char *buf, size_t size, int major, int minor,
		   unsigned long long blocks, const char *name)
{
	return (size_t)snprintf(buf, size, "%4d  %7d %10llu %s\n", major,
				minor, blocks, name);
}

static int parse(const char *text, struct partitions *pt, char *err)
{
	return partitions_parse(text, strlen(text), pt, err, 160);
}

static void guest_text(void **state)
{
	char text[1024], err[160];
	struct partitions pt;
	const struct part_entry *e;
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text),
			     "major minor  #blocks  name\n\n");
	n += line(text + n, sizeof(text) - n, 254, 0, 65536, "vda");
	n += line(text + n, sizeof(text) - n, 254, 16, 65536, "vdb");
	n += line(text + n, sizeof(text) - n, 8, 0, 65536, "sda");
	n += line(text + n, sizeof(text) - n, 8, 1, 1024, "sda1");
	n += line(text + n, sizeof(text) - n, 65, 4080, 1024, "sdzz");
	n += line(text + n, sizeof(text) - n, 4095, 1048575,
		  18446744073709551615ull, "huge");
	assert_int_equal(parse(text, &pt, err), 0);
	assert_int_equal(pt.n, 6);
	assert_int_equal(pt.duplicates, 0);
	/* sorted by number, whatever the text order */
	assert_int_equal(pt.v[0].major, 8);
	assert_int_equal(pt.v[5].major, 4095);

	e = partitions_find(&pt, 254, 16);
	assert_non_null(e);
	assert_string_equal(e->name, "vdb");
	assert_int_equal(e->blocks, 65536);
	e = partitions_find(&pt, 8, 1);
	assert_non_null(e);
	assert_string_equal(e->name, "sda1");
	e = partitions_find(&pt, 65, 4080);
	assert_non_null(e);
	assert_string_equal(e->name, "sdzz");
	e = partitions_find(&pt, 4095, 1048575);
	assert_non_null(e);
	assert_true(e->blocks == UINT64_MAX);
	assert_null(partitions_find(&pt, 254, 32));
	assert_null(partitions_find(&pt, 8, 2));
	assert_null(partitions_find(&pt, 0, 0));
	partitions_free(&pt);
	assert_null(pt.v);
}

static void empty_and_repeated(void **state)
{
	struct partitions pt;
	char err[160];

	(void)state;
	assert_int_equal(parse("major minor  #blocks  name\n\n", &pt, err), 0);
	assert_int_equal(pt.n, 0);
	assert_null(partitions_find(&pt, 8, 0));
	partitions_free(&pt);

	assert_int_equal(parse("major minor  #blocks  name\n\n"
			       "   8        0      65536 sda\n"
			       " 254        0      65536 vda\n"
			       "   8        0      65536 sdb\n", &pt, err), 0);
	assert_int_equal(pt.n, 3);
	assert_int_equal(pt.duplicates, 1);
	assert_non_null(partitions_find(&pt, 8, 0));
	partitions_free(&pt);
}

/* Thousands of disks: every one found by its number. */
static void many_disks(void **state)
{
	enum { N = 5000 };
	char *text, name[16], err[160];
	struct partitions pt;
	const struct part_entry *e;
	size_t n, size = 64 + N * 64;
	unsigned int i;

	(void)state;
	text = malloc(size);
	assert_non_null(text);
	n = (size_t)snprintf(text, size, "major minor  #blocks  name\n\n");
	/* in descending order, so the sort has work to do */
	for (i = N; i-- > 0;) {
		snprintf(name, sizeof(name), "sd%u", i);
		n += line(text + n, size - n, 8 + (int)(i % 16),
			  (int)(i / 16 * 16), 1024 + i, name);
	}
	assert_int_equal(partitions_parse(text, n, &pt, err, sizeof(err)), 0);
	assert_int_equal(pt.n, N);
	assert_int_equal(pt.duplicates, 0);
	for (i = 0; i < N; i++) {
		e = partitions_find(&pt, 8 + i % 16, i / 16 * 16);
		assert_non_null(e);
		assert_int_equal(e->blocks, 1024 + i);
	}
	partitions_free(&pt);
	free(text);
}

struct bad_text {
	const char *text;
	const char *err;
};

static void broken_text(void **state)
{
	static const struct bad_text cases[] = {
		{ "", "line 0: missing the header" },
		{ "major minor  #blocks  name\n",
		  "line 1: missing the header" },
		{ "major minor #blocks name\n\n",
		  "line 1: expected 'major minor  #blocks  name'" },
		{ "major minor  #blocks  name\n   8 0 1 sda\n",
		  "line 2: expected an empty line" },
		{ "major minor  #blocks  name\n\n   8        0      65536 sda",
		  "line 3: no newline at the end" },
		{ "major minor  #blocks  name\n\n   8        0      65536\n",
		  "line 3: not 'major minor blocks name': '   8        0      65536'" },
		{ "major minor  #blocks  name\n\n   8        0      65536\x20\n",
		  "line 3: not 'major minor blocks name': '   8        0      65536 '" },
		{ "major minor  #blocks  name\n\n   8        0      65536 sd a\n",
		  "line 3: not 'major minor blocks name': '   8        0      65536 sd a'" },
		{ "major minor  #blocks  name\n\n  -8        0      65536 sda\n",
		  "line 3: not 'major minor blocks name': '  -8        0      65536 sda'" },
		{ "major minor  #blocks  name\n\n4096        0      65536 sda\n",
		  "line 3: not 'major minor blocks name': '4096        0      65536 sda'" },
		{ "major minor  #blocks  name\n\n   8  1048576      65536 sda\n",
		  "line 3: not 'major minor blocks name': '   8  1048576      65536 sda'" },
		{ "major minor  #blocks  name\n\n   8        0 18446744073709551616 sda\n",
		  "line 3: not 'major minor blocks name': '   8        0 18446744073709551616 sda'" },
		{ "major minor  #blocks  name\n\n\n",
		  "line 3: not 'major minor blocks name': ''" },
	};
	struct partitions pt;
	char err[160];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		assert_int_equal(parse(cases[i].text, &pt, err), -1);
		assert_string_equal(err, cases[i].err);
		assert_null(pt.v);
		assert_int_equal(pt.n, 0);
	}
}

static void binary_and_long_names(void **state)
{
	static const char nul[] = "major minor  #blocks  name\n\n   8 0 1 s\0a\n";
	char text[512], err[160], name[80];
	struct partitions pt;

	(void)state;
	assert_int_equal(partitions_parse(nul, sizeof(nul) - 1, &pt, err,
					  sizeof(err)), -1);
	assert_string_equal(err, "line 3: too long or binary");
	/* names longer than the entry holds are refused, not cut */
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "major minor  #blocks  name\n\n   8        0 1 %s\n", name);
	assert_int_equal(parse(text, &pt, err), -1);
	assert_null(pt.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guest_text),
		cmocka_unit_test(empty_and_repeated),
		cmocka_unit_test(many_disks),
		cmocka_unit_test(broken_text),
		cmocka_unit_test(binary_and_long_names),
	};

	return cmocka_run_group_tests_name("census_partitions", tests, NULL,
					   NULL);
}
