// SPDX-License-Identifier: GPL-2.0
/*
 * What partbench's interleaved read rests on: /proc/diskstats and
 * /proc/partitions text parsed into names (src/lib/diskstats.c,
 * partitions.c), and the comparison of a listing with the quiet one
 * before it (src/lib/listcheck.c), fed missed, repeated, excluded and
 * added disks, and the listing a kernel makes when it finds its place
 * by counting disks from the first while one is deleted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diskstats.h"
#include "listcheck.h"
#include "partitions.h"

/* 6.1's format: 17 counters after the name. */
#define STATS17 " 120 0 5610 31 0 0 0 0 0 96 31 0 0 0 0 0 0\n"

static void diskstats_lines(void **state)
{
	static const char text[] =
		"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		"   8       0 sda" STATS17
		"   8       1 sda1" STATS17
		"  65    1008 sdxyz" STATS17
		/* before 4.18: 11 counters */
		" 259  1048575 nvme0n1 1 2 3 4 5 6 7 8 9 10 11\n";
	struct partitions pt;
	char err[160];

	(void)state;
	assert_int_equal(diskstats_parse(text, strlen(text), &pt, err,
					 sizeof(err)), 0);
	assert_int_equal(pt.n, 5);
	/* in the order listed */
	assert_string_equal(pt.v[0].name, "loop0");
	assert_string_equal(pt.v[1].name, "sda");
	assert_string_equal(pt.v[2].name, "sda1");
	assert_int_equal(pt.v[2].minor, 1);
	assert_string_equal(pt.v[3].name, "sdxyz");
	assert_int_equal(pt.v[3].major, 65);
	assert_int_equal(pt.v[3].minor, 1008);
	assert_string_equal(pt.v[4].name, "nvme0n1");
	assert_int_equal(pt.v[4].minor, 1048575);
	partitions_free(&pt);
	/* nothing listed: empty, not an error */
	assert_int_equal(diskstats_parse("", 0, &pt, err, sizeof(err)), 0);
	assert_int_equal(pt.n, 0);
}

static void diskstats_broken(void **state)
{
	static const struct {
		const char *text, *line;
	} bad[] = {
		{ "   8       0 sda 1 2 3 4 5 6 7 8 9 10\n", "line 1:" },
		{ "   8       0 sda" STATS17 "   8  16 sdb 1 2 x 4 5 6 7 8 9 10 11\n",
		  "line 2:" },
		{ "   8       0 sda" STATS17 "   8      16 sdb 1 2 3", "line 2:" },
		{ "4096 0 sda" STATS17, "line 1:" },
		{ "   8 1048576 sda" STATS17, "line 1:" },
		{ "   8       0 sda -1 2 3 4 5 6 7 8 9 10 11\n", "line 1:" },
		{ "major minor  #blocks  name\n\n", "line 1:" },
	};
	char err[160], name[100], line[200];
	struct partitions pt;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(diskstats_parse(bad[i].text,
						 strlen(bad[i].text), &pt, err,
						 sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i].line));
		assert_int_equal(pt.n, 0);
		assert_null(pt.v);
	}
	/* a name longer than the entries hold */
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(line, sizeof(line), "   8 0 %s 1 2 3 4 5 6 7 8 9 10 11\n",
		 name);
	assert_int_equal(diskstats_parse(line, strlen(line), &pt, err,
					 sizeof(err)), -1);
}

/* The first page of /proc/partitions as the interleaved read parses it. */
static void partitions_first_page(void **state)
{
	static const char text[] =
		"major minor  #blocks  name\n"
		"\n"
		"   8        0      16384 sda\n"
		"   8       16      16384 sdb\n"
		"  65     1008      16384 sdxyz\n";
	struct partitions pt;
	char err[160];

	(void)state;
	assert_int_equal(partitions_parse(text, strlen(text), &pt, err,
					  sizeof(err)), 0);
	assert_int_equal(pt.n, 3);
	partitions_free(&pt);
	/* a page from further on has no header */
	assert_int_equal(partitions_parse(text + 28, strlen(text + 28), &pt,
					  err, sizeof(err)), -1);
}

/* A listing of names, in order. */
static void list_of(struct partitions *pt, size_t n, ...)
{
	va_list ap;
	size_t i;

	pt->n = n;
	pt->duplicates = 0;
	pt->v = calloc(n ? n : 1, sizeof(*pt->v));
	assert_non_null(pt->v);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		snprintf(pt->v[i].name, sizeof(pt->v[i].name), "%s",
			 va_arg(ap, const char *));
	va_end(ap);
}

static void compare_complete(void **state)
{
	struct partitions before, listed;
	struct listcheck c;

	(void)state;
	list_of(&before, 4, "sda", "sdb", "sdc", "sdd");
	list_of(&listed, 4, "sdd", "sdc", "sda", "sdb");
	assert_int_equal(listcheck_compare(&before, &listed, NULL, 0, &c), 0);
	assert_int_equal(c.expected, 4);
	assert_int_equal(c.missed.n, 0);
	assert_int_equal(c.repeated.n, 0);
	assert_int_equal(c.added, 0);
	listcheck_free(&c);
	partitions_free(&before);
	partitions_free(&listed);
}

static void compare_missed_and_repeated(void **state)
{
	struct partitions before, listed;
	struct listcheck c;

	(void)state;
	list_of(&before, 5, "sda", "sdb", "sdc", "sdd", "sde");
	/* sdb missed, sdd twice, sde three times */
	list_of(&listed, 7, "sda", "sdc", "sdd", "sdd", "sde", "sde", "sde");
	assert_int_equal(listcheck_compare(&before, &listed, NULL, 0, &c), 0);
	assert_int_equal(c.expected, 5);
	assert_int_equal(c.missed.n, 1);
	assert_string_equal(c.missed.v[0], "sdb");
	assert_int_equal(c.repeated.n, 2);
	assert_string_equal(c.repeated.v[0], "sdd");
	assert_string_equal(c.repeated.v[1], "sde");
	listcheck_free(&c);
	partitions_free(&listed);
	/* nothing listed at all: every disk missed */
	list_of(&listed, 0);
	assert_int_equal(listcheck_compare(&before, &listed, NULL, 0, &c), 0);
	assert_int_equal(c.missed.n, 5);
	assert_string_equal(c.missed.v[4], "sde");
	listcheck_free(&c);
	partitions_free(&before);
	partitions_free(&listed);
}

static void compare_excluded_and_added(void **state)
{
	static const char *const gone[] = { "sdb", "sdz" };
	struct partitions before, listed;
	struct listcheck c;

	(void)state;
	list_of(&before, 3, "sda", "sdb", "sdc");
	/* sdb deleted (not listed, or listed twice: its name reused), two added */
	list_of(&listed, 6, "sda", "sdb", "sdc", "sdb", "sdx", "sdaa");
	assert_int_equal(listcheck_compare(&before, &listed, gone, 2, &c), 0);
	assert_int_equal(c.expected, 2);
	assert_int_equal(c.missed.n, 0);
	assert_int_equal(c.repeated.n, 0);
	assert_int_equal(c.added, 2);
	listcheck_free(&c);
	partitions_free(&listed);
	list_of(&listed, 2, "sda", "sdc");
	assert_int_equal(listcheck_compare(&before, &listed, gone, 1, &c), 0);
	assert_int_equal(c.missed.n, 0);
	listcheck_free(&c);
	/* excluding one disk hides no other */
	partitions_free(&listed);
	list_of(&listed, 1, "sda");
	assert_int_equal(listcheck_compare(&before, &listed, gone, 1, &c), 0);
	assert_int_equal(c.missed.n, 1);
	assert_string_equal(c.missed.v[0], "sdc");
	listcheck_free(&c);
	partitions_free(&before);
	partitions_free(&listed);
}

static void compare_bad_reference(void **state)
{
	struct partitions before, listed;
	struct listcheck c;

	(void)state;
	list_of(&before, 3, "sda", "sdb", "sda");
	list_of(&listed, 2, "sda", "sdb");
	assert_int_equal(listcheck_compare(&before, &listed, NULL, 0, &c),
			 -EINVAL);
	assert_int_equal(c.missed.n, 0);
	assert_null(c.missed.v);
	partitions_free(&before);
	partitions_free(&listed);
}

#define DISKS 40
#define PER_PAGE 8

/*
 * A seq_file over a list of disks, PER_PAGE a read(), with disk
 * del_index deleted after the first read.  by_count: each read() finds
 * its place by counting disks from the first (disk_seqf_start() on
 * stock); else it goes on after the last disk it listed.
 */
static void simulate(bool by_count, size_t del_index,
		     struct partitions *before, struct partitions *listed)
{
	char names[DISKS][PART_NAME_SIZE];
	size_t n = DISKS, pos = 0, out = 0, i, k;
	char last[PART_NAME_SIZE] = "";

	before->n = DISKS;
	before->v = calloc(DISKS, sizeof(*before->v));
	listed->v = calloc(2 * DISKS, sizeof(*listed->v));
	assert_non_null(before->v);
	assert_non_null(listed->v);
	for (i = 0; i < DISKS; i++) {
		snprintf(names[i], PART_NAME_SIZE, "sd%c%c",
			 (int)('a' + i / 26), (int)('a' + i % 26));
		memcpy(before->v[i].name, names[i], PART_NAME_SIZE);
	}
	for (k = 0; ; k++) {
		if (k == 1) {
			memmove(names[del_index], names[del_index + 1],
				(n - del_index - 1) * PART_NAME_SIZE);
			n--;
		}
		if (!by_count && last[0]) {
			/* after the disk last listed, wherever it is now */
			for (pos = 0; pos < n && strcmp(names[pos], last); pos++)
				;
			pos++;
		}
		if (pos >= n)
			break;
		for (i = 0; i < PER_PAGE && pos < n; i++, pos++) {
			memcpy(listed->v[out++].name, names[pos],
			       PART_NAME_SIZE);
			memcpy(last, names[pos], PART_NAME_SIZE);
		}
	}
	listed->n = out;
}

static void stock_walk_skips_a_disk(void **state)
{
	struct partitions before = { 0 }, listed = { 0 };
	const char *gone[1];
	struct listcheck c;

	(void)state;
	simulate(true, 3, &before, &listed);
	gone[0] = before.v[3].name;
	assert_int_equal(listcheck_compare(&before, &listed, gone, 1, &c), 0);
	assert_int_equal(c.missed.n, 1);
	/* the first disk of the second page */
	assert_string_equal(c.missed.v[0], before.v[PER_PAGE].name);
	assert_int_equal(c.repeated.n, 0);
	listcheck_free(&c);
	partitions_free(&before);
	partitions_free(&listed);

	simulate(false, 3, &before, &listed);
	gone[0] = before.v[3].name;
	assert_int_equal(listcheck_compare(&before, &listed, gone, 1, &c), 0);
	assert_int_equal(c.expected, DISKS - 1);
	assert_int_equal(c.missed.n, 0);
	assert_int_equal(c.repeated.n, 0);
	listcheck_free(&c);
	partitions_free(&before);
	partitions_free(&listed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diskstats_lines),
		cmocka_unit_test(diskstats_broken),
		cmocka_unit_test(partitions_first_page),
		cmocka_unit_test(compare_complete),
		cmocka_unit_test(compare_missed_and_repeated),
		cmocka_unit_test(compare_excluded_and_added),
		cmocka_unit_test(compare_bad_reference),
		cmocka_unit_test(stock_walk_skips_a_disk),
	};

	return cmocka_run_group_tests_name("partbench_lists", tests, NULL,
					   NULL);
}
