// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc/devices parser and comparison (src/lib/procdevices.c), on
 * files captured from stock and patched guests (data/) and on broken text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compiler.h"
#include "procdevices.h"

static char *data_path(const char *name)
{
	static char path[4096];
	const char *dir = getenv("BLKSCALE_TEST_DATA");

	if (!dir)
		fail_msg("BLKSCALE_TEST_DATA is not set (run-unit-tests.sh sets it)");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void load(const char *name, struct procdevices *pd)
{
	char err[160], *text;
	long len;

	len = procdev_read_file(data_path(name), &text);
	if (len < 0)
		fail_msg("%s: %s", name, strerror((int)-len));
	if (procdev_parse(text, (size_t)len, pd, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	free(text);
}

static int parse_text(const char *text, struct procdevices *pd, char *err,
		      size_t size)
{
	return procdev_parse(text, strlen(text), pd, err, size);
}

static void stock_baseline(void **state)
{
	struct procdevices pd;

	(void)state;
	load("proc-devices-stock.txt", &pd);
	assert_int_equal(pd.chr.n, 5);
	assert_int_equal(pd.blk.n, 19);
	assert_int_equal(pd.lines, 27);
	/* one char major may be listed more than once */
	assert_int_equal(pd.chr.v[2].major, 5);
	assert_string_equal(pd.chr.v[2].name, "/dev/tty");
	assert_int_equal(pd.chr.v[3].major, 5);
	assert_string_equal(procdev_block_name(&pd, 8), "sd");
	assert_string_equal(procdev_block_name(&pd, 254), "virtblk");
	assert_string_equal(procdev_block_name(&pd, 259), "blkext");
	assert_null(procdev_block_name(&pd, 9));
	assert_null(procdev_block_name(&pd, 0));
	assert_null(procdev_block_name(&pd, 4095));
	procdev_free(&pd);
	assert_int_equal(pd.blk.n, 0);
}

static void patched_high_majors(void **state)
{
	struct procdevices pd;

	(void)state;
	load("proc-devices-patched-held.txt", &pd);
	assert_string_equal(procdev_block_name(&pd, 4095), "bs4095");
	assert_string_equal(procdev_block_name(&pd, 1000), "bs1000");
	assert_string_equal(procdev_block_name(&pd, 512), "bs512");
	assert_string_equal(procdev_block_name(&pd, 9), "bs9");
	assert_string_equal(procdev_block_name(&pd, 99), "bs99");
	assert_int_equal(pd.blk.v[pd.blk.n - 1].major, 4095);
	procdev_free(&pd);
}

static void diff_shows_registrations(void **state)
{
	struct procdev_list added, removed;
	struct procdevices base, now;
	static const int want[] = { 9, 99, 100, 251, 252, 511, 512, 1000,
				    4095 };
	size_t i;

	(void)state;
	load("proc-devices-stock.txt", &base);
	load("proc-devices-patched-held.txt", &now);
	assert_int_equal(procdev_diff(&base, &now, &added, &removed), 0);
	assert_int_equal(removed.n, 0);
	assert_int_equal(added.n, ARRAY_SIZE(want));
	for (i = 0; i < added.n; i++)
		assert_int_equal(added.v[i].major, want[i]);
	assert_string_equal(added.v[3].name, "dyn2");
	procdev_list_free(&added);
	procdev_list_free(&removed);

	/* the other way round: all of them removed */
	assert_int_equal(procdev_diff(&now, &base, &added, &removed), 0);
	assert_int_equal(added.n, 0);
	assert_int_equal(removed.n, ARRAY_SIZE(want));
	procdev_list_free(&added);
	procdev_list_free(&removed);
	procdev_free(&base);
	procdev_free(&now);
}

static void diff_renamed_and_char_changes(void **state)
{
	struct procdev_list added, removed;
	struct procdevices a, b;
	char err[160];

	(void)state;
	assert_int_equal(parse_text("Character devices:\n  1 mem\n\n"
				    "Block devices:\n  8 sd\n 9 md\n", &a, err,
				    sizeof(err)), -1);
	assert_int_equal(parse_text("Character devices:\n  1 mem\n\n"
				    "Block devices:\n  8 sd\n  9 md\n", &a, err,
				    sizeof(err)), 0);
	assert_int_equal(parse_text("Character devices:\n  1 mem\n  2 pty\n\n"
				    "Block devices:\n  8 sd\n  9 raid\n", &b,
				    err, sizeof(err)), 0);
	assert_int_equal(procdev_diff(&a, &b, &added, &removed), 1);
	assert_int_equal(added.n, 1);
	assert_string_equal(added.v[0].name, "raid");
	assert_int_equal(removed.n, 1);
	assert_string_equal(removed.v[0].name, "md");
	procdev_list_free(&added);
	procdev_list_free(&removed);
	procdev_free(&a);
	procdev_free(&b);
}

static void empty_sections(void **state)
{
	struct procdevices pd;
	char err[160];

	(void)state;
	assert_int_equal(parse_text("Character devices:\n\nBlock devices:\n",
				    &pd, err, sizeof(err)), 0);
	assert_int_equal(pd.chr.n, 0);
	assert_int_equal(pd.blk.n, 0);
	assert_int_equal(pd.lines, 3);
	procdev_free(&pd);
}

struct bad_text {
	const char *text;
	const char *err;
};

static void broken_text(void **state)
{
	static const struct bad_text cases[] = {
		{ "", "line 0: missing the character section" },
		{ "Character devices:\n  1 mem\n",
		  "line 2: missing the block section" },
		{ "Block devices:\n", "line 1: expected 'Character devices:'" },
		{ "Character devices:\n  1 mem\n\nBlock devices:\n  8 sd",
		  "line 5: no newline at the end" },
		{ "Character devices:\n  1 mem\nBlock devices:\n",
		  "line 3: not '%3d name': 'Block devices:'" },
		{ "Character devices:\n\nblock devices:\n",
		  "line 3: expected 'Block devices:'" },
		{ "Character devices:\n  1mem\n\nBlock devices:\n",
		  "line 2: not '%3d name': '  1mem'" },
		{ "Character devices:\n001 mem\n\nBlock devices:\n",
		  "line 2: not '%3d name': '001 mem'" },
		{ "Character devices:\n  1 \n\nBlock devices:\n",
		  "line 2: not '%3d name': '  1 '" },
		{ "Character devices:\n -1 neg\n\nBlock devices:\n",
		  "line 2: not '%3d name': ' -1 neg'" },
		{ "Character devices:\n  5 b\n  4 a\n\nBlock devices:\n",
		  "line 3: char major 4 out of order" },
		{ "Character devices:\n\nBlock devices:\n  9 a\n  9 b\n",
		  "line 5: block major 9 out of order or repeated" },
		{ "Character devices:\n\nBlock devices:\n  9 a\n  8 b\n",
		  "line 5: block major 8 out of order or repeated" },
		{ "Character devices:\n\nBlock devices:\n\n",
		  "line 4: not '%3d name': ''" },
		{ "Character devices:\n\nBlock devices:\n99999999 x\n",
		  "line 4: not '%3d name': '99999999 x'" },
	};
	struct procdevices pd;
	char err[160];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		assert_int_equal(parse_text(cases[i].text, &pd, err,
					    sizeof(err)), -1);
		assert_string_equal(err, cases[i].err);
		assert_null(pd.blk.v);
	}
}

static void binary_and_long_lines(void **state)
{
	static const char nul[] = "Character devices:\n  1 m\0x\n\nBlock devices:\n";
	char long_line[300], text[400], err[160];
	struct procdevices pd;

	(void)state;
	assert_int_equal(procdev_parse(nul, sizeof(nul) - 1, &pd, err,
				       sizeof(err)), -1);
	assert_string_equal(err, "line 2: too long or binary");
	memset(long_line, 'a', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "Character devices:\n  1 %s\n\nBlock devices:\n", long_line);
	assert_int_equal(parse_text(text, &pd, err, sizeof(err)), -1);
	assert_string_equal(err, "line 2: too long or binary");
}

static void read_file_grows(void **state)
{
	char path[] = "/tmp/procdev-test.XXXXXX";
	char *buf;
	long len;
	FILE *f;
	int fd, i;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	/* bigger than the first buffer of 64 KiB */
	for (i = 0; i < 20000; i++)
		fprintf(f, "%7d\n", i);
	fclose(f);
	len = procdev_read_file(path, &buf);
	assert_int_equal(len, 20000 * 8);
	assert_int_equal(strlen(buf), 20000 * 8);
	assert_memory_equal(buf + 8 * 19999, "  19999\n", 8);
	free(buf);
	unlink(path);
	assert_int_equal(procdev_read_file(path, &buf), -ENOENT);
}

static void load_reads_and_parses(void **state)
{
	char path[] = "/tmp/blkscale-procdev-XXXXXX", err[160];
	struct procdevices pd;
	size_t bytes = 0;
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(procdev_load(data_path("proc-devices-stock.txt"), &pd,
				      &bytes, err, sizeof(err)), 0);
	assert_true(bytes > 0);
	assert_non_null(procdev_block_name(&pd, 8));
	procdev_free(&pd);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("Character devices:\n  1 mem\n\nBlock devices:\n  8 sd\nbad\n", f);
	fclose(f);
	/* text that is not /proc/devices: EBADMSG, the line named */
	assert_int_equal(procdev_load(path, &pd, &bytes, err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, ": line 6: "));
	unlink(path);
	/* no file: -errno, named as the tools print it */
	assert_int_equal(procdev_load(path, &pd, NULL, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, ": ENOENT"));
	assert_int_equal(pd.blk.n, 0);
	procdev_free(&pd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stock_baseline),
		cmocka_unit_test(patched_high_majors),
		cmocka_unit_test(diff_shows_registrations),
		cmocka_unit_test(diff_renamed_and_char_changes),
		cmocka_unit_test(empty_sections),
		cmocka_unit_test(broken_text),
		cmocka_unit_test(binary_and_long_lines),
		cmocka_unit_test(read_file_grows),
		cmocka_unit_test(load_reads_and_parses),
	};

	return cmocka_run_group_tests_name("procdevices", tests, NULL, NULL);
}
