// SPDX-License-Identifier: GPL-2.0
/*
 * tar headers (src/lib/ustar.c): octal and base-256 numbers, checksums,
 * ustar prefixes, the end of an archive, and a real archive of device
 * nodes written by busybox tar when busybox and mknod are available.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "procdevices.h"
#include "ustar.h"

#define BUSYBOX "/bin/busybox"

static void checksum(unsigned char *h)
{
	unsigned int sum = 0;
	size_t i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < USTAR_BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

/* A ustar header block for a node or a file of size bytes. */
static void header(unsigned char *h, const char *prefix, const char *name,
		   char type, unsigned long long size, unsigned long major,
		   unsigned long minor)
{
	memset(h, 0, USTAR_BLOCK);
	snprintf((char *)h, 100, "%s", name);
	snprintf((char *)h + 100, 8, "%07o", 0600);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011llo", size);
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	snprintf((char *)h + 329, 8, "%07lo", major);
	snprintf((char *)h + 337, 8, "%07lo", minor);
	if (prefix)
		snprintf((char *)h + 345, 155, "%s", prefix);
	checksum(h);
}

static void numbers(void **state)
{
	static const unsigned char base256[8] = { 0x80, 0, 0, 0, 0xff, 0xff,
						  0xff, 0xff };
	static const unsigned char negative[8] = { 0xff, 0xff, 0xff, 0xff,
						   0xff, 0xff, 0xff, 0xff };
	uint64_t v;

	(void)state;
	assert_int_equal(ustar_number((const unsigned char *)"0007777", 8, &v), 0);
	assert_int_equal(v, 4095);
	assert_int_equal(ustar_number((const unsigned char *)"3777777", 8, &v), 0);
	assert_int_equal(v, 1048575);
	/* the largest number 7 digits hold */
	assert_int_equal(ustar_number((const unsigned char *)"7777777", 8, &v), 0);
	assert_int_equal(v, USTAR_DEV_OCTAL_MAX);
	/* leading spaces, space terminator, all 8 digits (no terminator) */
	assert_int_equal(ustar_number((const unsigned char *)"   1234 ", 8, &v), 0);
	assert_int_equal(v, 01234);
	assert_int_equal(ustar_number((const unsigned char *)"17777777", 8, &v), 0);
	assert_int_equal(v, 017777777);
	assert_int_equal(ustar_number(base256, 8, &v), 0);
	assert_int_equal(v, 4294967295u);
	assert_int_equal(ustar_number(negative, 8, &v), -1);
	assert_int_equal(ustar_number((const unsigned char *)"0001 8\0", 8, &v), -1);
	assert_int_equal(ustar_number((const unsigned char *)"00018\0\0", 8, &v), -1);
	assert_int_equal(ustar_number((const unsigned char *)"\0\0\0\0\0\0\0", 8, &v), -1);
}

static void device_members(void **state)
{
	unsigned char *buf = calloc(6, USTAR_BLOCK);
	struct ustar_entry e;
	char err[160];
	size_t off = 0;

	(void)state;
	assert_non_null(buf);
	header(buf, NULL, "b-4095-1048575", '4', 0, 4095, 1048575);
	header(buf + USTAR_BLOCK, "some/dir", "c-1-3", '3', 0, 1, 3);
	header(buf + 2 * USTAR_BLOCK, NULL, "file", '0', 600, 0, 0);
	/* two data blocks, then the end */
	assert_int_equal(ustar_next(buf, 6 * USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), 1);
	assert_string_equal(e.name, "b-4095-1048575");
	assert_int_equal(e.typeflag, '4');
	assert_int_equal(e.devmajor, 4095);
	assert_int_equal(e.devminor, 1048575);
	assert_int_equal(ustar_next(buf, 6 * USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), 1);
	assert_string_equal(e.name, "some/dir/c-1-3");
	assert_int_equal(e.typeflag, '3');
	assert_int_equal(e.devmajor, 1);
	assert_int_equal(e.devminor, 3);
	assert_int_equal(ustar_next(buf, 6 * USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), 1);
	assert_int_equal(e.size, 600);
	assert_int_equal(off, 5 * USTAR_BLOCK);
	assert_int_equal(ustar_next(buf, 6 * USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), 0);
	free(buf);
}

static void broken(void **state)
{
	unsigned char *buf = calloc(2, USTAR_BLOCK);
	struct ustar_entry e;
	char err[160];
	size_t off;

	(void)state;
	assert_non_null(buf);
	header(buf, NULL, "b", '4', 0, 8, 0);
	buf[0] = 'c';	/* the checksum no longer matches */
	off = 0;
	assert_int_equal(ustar_next(buf, USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), -1);
	assert_string_equal(err, "offset 0: bad header checksum");

	header(buf, NULL, "b", '4', 0, 8, 0);
	memcpy(buf + 329, "00x0010", 7);
	checksum(buf);
	off = 0;
	assert_int_equal(ustar_next(buf, USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), -1);
	assert_string_equal(err, "offset 0: bad devmajor or devminor");

	header(buf, NULL, "f", '0', 513, 0, 0);
	off = 0;
	assert_int_equal(ustar_next(buf, 2 * USTAR_BLOCK, &off, &e, err,
				    sizeof(err)), -1);
	assert_string_equal(err, "offset 0: 513 bytes of data missing");

	off = 0;
	assert_int_equal(ustar_next(buf, 100, &off, &e, err, sizeof(err)), -1);
	assert_string_equal(err, "offset 0: truncated header");
	free(buf);
}

static void busybox_archive(void **state)
{
	char dir[] = "/tmp/ustar-test.XXXXXX", path[128], cmd[512], err[160];
	unsigned char *buf;
	struct ustar_entry e;
	size_t off = 0;
	int found = 0, ret;
	long len;

	(void)state;
	if (access(BUSYBOX, X_OK))
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big", dir);
	if (mknod(path, S_IFBLK | 0600, makedev(4095, 1048575))) {
		rmdir(dir);
		skip();		/* not root, or no CAP_MKNOD */
	}
	snprintf(path, sizeof(path), "%s/sd", dir);
	assert_int_equal(mknod(path, S_IFBLK | 0600, makedev(8, 256)), 0);
	snprintf(cmd, sizeof(cmd),
		 BUSYBOX " tar -c -f %s/archive -C %s big sd 2>/dev/null", dir,
		 dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/archive", dir);
	len = procdev_read_file(path, (char **)&buf);
	assert_true(len > 0);
	while ((ret = ustar_next(buf, (size_t)len, &off, &e, err,
				 sizeof(err))) > 0) {
		assert_int_equal(e.typeflag, '4');
		if (!strcmp(e.name, "big")) {
			assert_int_equal(e.devmajor, 4095);
			assert_int_equal(e.devminor, 1048575);
			found++;
		} else if (!strcmp(e.name, "sd")) {
			assert_int_equal(e.devmajor, 8);
			assert_int_equal(e.devminor, 256);
			found++;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(found, 2);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers),
		cmocka_unit_test(device_members),
		cmocka_unit_test(broken),
		cmocka_unit_test(busybox_archive),
	};

	return cmocka_run_group_tests_name("devt_ustar", tests, NULL, NULL);
}
