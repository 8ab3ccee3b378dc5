// SPDX-License-Identifier: GPL-2.0
/* /init's wait for disks (src/lib/diskwait.c) on a fake /sys/block. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

#include "diskwait.h"

static char dir[64];

static void add(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/blkscale-block-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void names(void **state)
{
	(void)state;
	assert_true(disk_name_counts("sda"));
	assert_true(disk_name_counts("sdaaa"));
	assert_true(disk_name_counts("vdb"));
	assert_true(disk_name_counts("nullb0"));
	assert_false(disk_name_counts("sd"));
	assert_false(disk_name_counts("nullb"));
	assert_false(disk_name_counts("loop0"));
	assert_false(disk_name_counts("dm-0"));
	assert_false(disk_name_counts("sr0"));
	assert_false(disk_name_counts("."));
	assert_false(disk_name_counts(".."));
}

static void counting(void **state)
{
	(void)state;
	assert_int_equal(disk_count(dir), 0);
	add("sda");
	add("vda");
	add("nullb0");
	add("loop0");
	add("dm-0");
	assert_int_equal(disk_count(dir), 3);
	assert_int_equal(disk_count("/nonexistent/block"), -ENOENT);
}

static void already_there(void **state)
{
	struct disk_wait w = { .dir = dir, .expected = 2, .interval_ms = 50,
			       .timeout_ms = 60000 };

	(void)state;
	add("sda");
	add("sdb");
	add("sdc");
	assert_int_equal(disk_wait(&w), 0);
	assert_int_equal(w.found, 3);
	assert_int_equal(w.looks, 1);
	assert_false(w.timed_out);
	assert_int_equal(w.error, 0);
	assert_int_equal(w.max_gap_ns, 0);
	/* one look: no time between looks, nothing waited */
	assert_int_equal(w.waited_ns, 0);
}

static void times_out(void **state)
{
	struct disk_wait w = { .dir = dir, .expected = 2, .interval_ms = 1,
			       .timeout_ms = 20 };

	(void)state;
	add("vda");
	assert_int_equal(disk_wait(&w), 1);
	assert_true(w.timed_out);
	assert_int_equal(w.found, 1);
	/* it kept looking until the end, and looked at the end */
	assert_true(w.looks >= 2);
	assert_true(w.waited_ns >= 20 * 1000000ull);
}

static void unreadable_dir(void **state)
{
	struct disk_wait w = { .dir = "/nonexistent/block", .expected = 1,
			       .interval_ms = 1, .timeout_ms = 0 };

	(void)state;
	assert_int_equal(disk_wait(&w), 1);
	assert_int_equal(w.error, -ENOENT);
	assert_int_equal(w.found, 0);
	assert_int_equal(w.looks, 1);
}

static void nothing_expected(void **state)
{
	struct disk_wait w = { .dir = "/nonexistent/block", .expected = 0,
			       .interval_ms = 50, .timeout_ms = 60000 };

	(void)state;
	assert_int_equal(disk_wait(&w), 0);
	assert_false(w.timed_out);
}

static void *arrive(void *arg)
{
	(void)arg;
	usleep(30000);
	add("sdb");
	return NULL;
}

static void disks_arrive_while_waiting(void **state)
{
	struct disk_wait w = { .dir = dir, .expected = 2, .interval_ms = 2,
			       .timeout_ms = 60000 };
	pthread_t t;

	(void)state;
	add("sda");
	assert_int_equal(pthread_create(&t, NULL, arrive, NULL), 0);
	assert_int_equal(disk_wait(&w), 0);
	pthread_join(t, NULL);
	assert_int_equal(w.found, 2);
	assert_false(w.timed_out);
	/* more than one look, each gap measured */
	assert_true(w.looks >= 2);
	assert_true(w.max_gap_ns > 0);
}

/* A look that takes 10 ms, as thousands of disks can under emulation. */
static long slow_count(const char *d)
{
	(void)d;
	usleep(10000);
	return 0;
}

static void slow_looks_are_spaced(void **state)
{
	struct disk_wait w = { .dir = dir, .expected = 1, .interval_ms = 1,
			       .timeout_ms = 200, .count = slow_count };

	(void)state;
	assert_int_equal(disk_wait(&w), 1);
	assert_true(w.max_look_ns >= 10 * 1000000ull);
	/* 5 looks' time from one start to the next, not 1 ms */
	assert_true(w.max_gap_ns >= 50 * 1000000ull);
	assert_true(w.looks <= 200 / 50 + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test_setup_teardown(counting, setup, teardown),
		cmocka_unit_test_setup_teardown(already_there, setup, teardown),
		cmocka_unit_test_setup_teardown(times_out, setup, teardown),
		cmocka_unit_test(unreadable_dir),
		cmocka_unit_test(nothing_expected),
		cmocka_unit_test_setup_teardown(disks_arrive_while_waiting,
						setup, teardown),
		cmocka_unit_test(slow_looks_are_spaced),
	};

	return cmocka_run_group_tests_name("diskwait", tests, NULL, NULL);
}
