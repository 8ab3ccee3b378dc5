// SPDX-License-Identifier: GPL-2.0
/* Timed full reads of a file three ways (src/lib/fullread.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fullread.h"

#define SIZE 10000

static char path[64];

static int setup(void **state)
{
	FILE *f;
	int fd, i;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/blkscale-fullread-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	for (i = 0; i < SIZE; i++)
		fputc('a' + i % 26, f);
	return fclose(f);
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

static void stdio_buffer_rule(void **state)
{
	(void)state;
	assert_int_equal(fullread_stdio_buffer(1024), 1024);
	assert_int_equal(fullread_stdio_buffer(4096), 4096);
	assert_int_equal(fullread_stdio_buffer(BUFSIZ), BUFSIZ);
	assert_int_equal(fullread_stdio_buffer(65536), BUFSIZ);
	assert_int_equal(fullread_stdio_buffer(0), BUFSIZ);
	assert_int_equal(fullread_stdio_buffer(-1), BUFSIZ);
}

/* read() calls of a full read with this buffer: the last one sees EOF. */
static uint64_t calls(size_t buffer)
{
	return (SIZE + buffer - 1) / buffer + 1;
}

static void three_methods(void **state)
{
	struct fullread_timing t;
	struct stat st;

	(void)state;
	assert_int_equal(stat(path, &st), 0);

	assert_int_equal(fullread_measure(path, FULLREAD_READER, 20, 1000, &t),
			 0);
	assert_true(t.measured);
	assert_true(t.size_stable);
	assert_int_equal(t.bytes, SIZE);
	assert_int_equal(t.st.n, 20);
	/* the reader ignores the buffer it is given: stdio's size */
	assert_int_equal(t.buffer, fullread_stdio_buffer(st.st_blksize));
	assert_int_equal(t.read_calls, calls(t.buffer));

	assert_int_equal(fullread_measure(path, FULLREAD_LSEEK, 5, 1000, &t),
			 0);
	assert_int_equal(t.buffer, 1000);
	assert_int_equal(t.read_calls, calls(1000));
	assert_int_equal(t.st.n, 5);
	assert_int_equal(t.bytes, SIZE);

	assert_int_equal(fullread_measure(path, FULLREAD_REOPEN, 3, 65536,
					  &t), 0);
	assert_int_equal(t.buffer, 65536);
	assert_int_equal(t.read_calls, 2);
	assert_int_equal(t.bytes, SIZE);
	assert_true(t.st.min <= t.st.p50 && t.st.p50 <= t.st.max);
}

/* procfs says 1 KiB: the reader reads /proc files 1 KiB at a time. */
static void procfs_reader_buffer(void **state)
{
	struct fullread_timing t;

	(void)state;
	assert_int_equal(fullread_measure("/proc/self/status", FULLREAD_READER,
					  2, 65536, &t), 0);
	assert_int_equal(t.buffer, 1024);
	assert_true(t.read_calls >= 2);
}

/* A reference timing before the reads and after every block of them. */
static void reference_blocks(void **state)
{
	struct fullread_timing t;
	struct refloop rl;

	(void)state;
	assert_int_equal(refloop_init(&rl, 2000), 0);
	assert_int_equal(fullread_measure_ref(path, FULLREAD_LSEEK,
					      2 * FULLREAD_REF_BLOCK + 3,
					      1000, &rl, &t), 0);
	assert_true(t.measured);
	assert_int_equal(t.st.n, 2 * FULLREAD_REF_BLOCK + 3);
	assert_int_equal(t.ref.blocks, 3);	/* the last one short */
	assert_int_equal(rl.n, 4);
	assert_true(t.ref.min > 0 && t.ref.min <= t.ref.median &&
		    t.ref.median <= t.ref.max);
	refloop_free(&rl);

	/* without a reference: no blocks, nothing summarised */
	assert_int_equal(fullread_measure(path, FULLREAD_LSEEK, 5, 1000, &t),
			 0);
	assert_int_equal(t.ref.blocks, 0);
	assert_true(isnan(t.ref.median));
}

static void errors(void **state)
{
	struct fullread_timing t;

	(void)state;
	assert_int_equal(fullread_measure("/nonexistent", FULLREAD_READER, 2,
					  1024, &t), -ENOENT);
	assert_false(t.measured);
	assert_int_equal(fullread_measure("/nonexistent", FULLREAD_LSEEK, 2,
					  1024, &t), -ENOENT);
	assert_int_equal(fullread_measure(path, FULLREAD_REOPEN, 0, 1024, &t),
			 -EINVAL);
	assert_int_equal(fullread_measure(path, FULLREAD_LSEEK, 1, 0, &t),
			 -EINVAL);
	assert_false(t.measured);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stdio_buffer_rule),
		cmocka_unit_test_setup_teardown(three_methods, setup, teardown),
		cmocka_unit_test(procfs_reader_buffer),
		cmocka_unit_test_setup_teardown(reference_blocks, setup,
						teardown),
		cmocka_unit_test_setup_teardown(errors, setup, teardown),
	};

	return cmocka_run_group_tests_name("fullread", tests, NULL, NULL);
}
