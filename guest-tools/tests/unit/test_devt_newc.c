// SPDX-License-Identifier: GPL-2.0
/*
 * cpio newc headers (src/lib/newc.c): archives built here field by field
 * as usr/gen_init_cpio.c writes them, broken ones, and, when busybox and
 * mknod are available, a real archive of device nodes written by busybox
 * cpio, whose c_rdevmajor/c_rdevminor must hold 4095:1048575.
 */
#include <errno.h>
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

#include "compiler.h"
#include "newc.h"
#include "procdevices.h"

#define BUSYBOX "/bin/busybox"

struct archive {
	unsigned char buf[4096];
	size_t len;
};

static void pad(struct archive *a)
{
	while (a->len % 4)
		a->buf[a->len++] = '\0';
}

/* One member, as gen_init_cpio writes it (upper-case hex). */
static void add(struct archive *a, const char *name, unsigned int mode,
		unsigned int rmajor, unsigned int rminor, const char *data)
{
	size_t dlen = data ? strlen(data) : 0;
	int n;

	n = snprintf((char *)a->buf + a->len, sizeof(a->buf) - a->len,
		     "%s%08X%08X%08lX%08lX%08X%08lX%08X%08X%08X%08X%08X%08X%08X",
		     "070701", 300u, mode, 0ul, 0ul, 1u, 0ul, (unsigned int)dlen,
		     0u, 0u, rmajor, rminor, (unsigned int)strlen(name) + 1, 0u);
	assert_int_equal(n, NEWC_HEADER_SIZE);
	a->len += (size_t)n;
	memcpy(a->buf + a->len, name, strlen(name) + 1);
	a->len += strlen(name) + 1;
	pad(a);
	if (dlen) {
		memcpy(a->buf + a->len, data, dlen);
		a->len += dlen;
		pad(a);
	}
}

static void members(void **state)
{
	static const char *const names[] = { "a", "ab", "abc", "abcd",
					     "abcde" };
	struct archive *a = calloc(1, sizeof(*a));
	struct newc_entry e;
	char err[160];
	size_t off = 0, i;

	(void)state;
	assert_non_null(a);
	add(a, "dev/big", 060600, 4095, 1048575, NULL);
	/* names of every length mod 4 and data that needs padding */
	for (i = 0; i < 5; i++)
		add(a, names[i], 0100644, 0, 0, names[i]);
	add(a, NEWC_TRAILER, 0, 0, 0, NULL);

	assert_int_equal(newc_next(a->buf, a->len, &off, &e, err, sizeof(err)), 1);
	assert_string_equal(e.name, "dev/big");
	assert_int_equal(e.mode & S_IFMT, S_IFBLK);
	assert_int_equal(e.rdevmajor, 4095);
	assert_int_equal(e.rdevminor, 1048575);
	assert_int_equal(e.ino, 300);
	assert_int_equal(e.nlink, 1);
	for (i = 0; i < 5; i++) {
		assert_int_equal(newc_next(a->buf, a->len, &off, &e, err,
					   sizeof(err)), 1);
		assert_string_equal(e.name, names[i]);
		assert_int_equal(e.filesize, strlen(names[i]));
		assert_memory_equal(e.data, names[i], e.filesize);
		assert_int_equal(off % 4, 0);
	}
	assert_int_equal(newc_next(a->buf, a->len, &off, &e, err, sizeof(err)), 0);
	assert_int_equal(off, a->len);
	free(a);
}

/* Lower-case hex and the 070702 (crc) magic are newc too. */
static void lower_case_and_crc(void **state)
{
	struct archive *a = calloc(1, sizeof(*a));
	struct newc_entry e;
	char err[160], *p;
	size_t off = 0;

	(void)state;
	assert_non_null(a);
	add(a, "n", 020600, 0xabc, 0xfffff, NULL);
	for (p = (char *)a->buf; p < (char *)a->buf + NEWC_HEADER_SIZE; p++)
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
	a->buf[5] = '2';
	assert_int_equal(newc_next(a->buf, a->len, &off, &e, err, sizeof(err)), 1);
	assert_int_equal(e.rdevmajor, 0xabc);
	assert_int_equal(e.rdevminor, 0xfffff);
	free(a);
}

struct breakage {
	size_t at;		/* byte to change */
	unsigned char to;
	size_t cut;		/* or: length to cut the archive to */
	const char *err;
};

static void broken(void **state)
{
	static const struct breakage cases[] = {
		{ 0, 'x', 0, "offset 0: bad magic 'x70701'" },
		{ 5, '7', 0, "offset 0: bad magic '070707'" },
		{ 6 + 8 * 9 + 3, 'g', 0,
		  "offset 0: c_rdevmajor is not 8 hex digits" },
		{ 6 + 8 * 10, ' ', 0,
		  "offset 0: c_rdevminor is not 8 hex digits" },
		{ 6 + 8 * 11 + 7, '0', 0, "offset 0: c_namesize 0" },
		/* the name is not NUL-terminated where c_namesize says */
		{ NEWC_HEADER_SIZE + 4, 'x', 0,
		  "offset 0: name of c_namesize 5 is not there or not NUL-terminated" },
		{ 0, 0, 50, "offset 0: truncated header" },
		{ 0, 0, NEWC_HEADER_SIZE + 2,
		  "offset 0: name of c_namesize 5 is not there or not NUL-terminated" },
		{ 0, 0, NEWC_HEADER_SIZE + 8 + 2,
		  "offset 0: 5 bytes of data missing" },
	};
	struct archive *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct newc_entry e;
	char err[160];
	size_t off, i;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	add(a, "file", 0100644, 0, 0, "hello");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		*b = *a;
		if (cases[i].cut)
			b->len = cases[i].cut;
		else
			b->buf[cases[i].at] = cases[i].to;
		off = 0;
		err[0] = '\0';
		assert_int_equal(newc_next(b->buf, b->len, &off, &e, err,
					   sizeof(err)), -1);
		assert_string_equal(err, cases[i].err);
		assert_int_equal(off, 0);
	}
	free(a);
	free(b);
}

/* busybox cpio on real nodes: the fields this tool reads in the guest. */
static void busybox_archive(void **state)
{
	char dir[] = "/tmp/newc-test.XXXXXX", path[128], cmd[512], err[160];
	unsigned char *buf;
	struct newc_entry e;
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
	snprintf(path, sizeof(path), "%s/small", dir);
	assert_int_equal(mknod(path, S_IFCHR | 0600, makedev(1, 3)), 0);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf 'big\\nsmall\\n' | " BUSYBOX
		 " cpio -o -H newc > archive 2>/dev/null", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/archive", dir);
	len = procdev_read_file(path, (char **)&buf);
	assert_true(len > 0);
	while ((ret = newc_next(buf, (size_t)len, &off, &e, err,
				sizeof(err))) > 0) {
		if (!strcmp(e.name, "big")) {
			assert_int_equal(e.mode & S_IFMT, S_IFBLK);
			assert_int_equal(e.rdevmajor, 4095);
			assert_int_equal(e.rdevminor, 1048575);
			found++;
		} else if (!strcmp(e.name, "small")) {
			assert_int_equal(e.mode & S_IFMT, S_IFCHR);
			assert_int_equal(e.rdevmajor, 1);
			assert_int_equal(e.rdevminor, 3);
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
		cmocka_unit_test(members),
		cmocka_unit_test(lower_case_and_crc),
		cmocka_unit_test(broken),
		cmocka_unit_test(busybox_archive),
	};

	return cmocka_run_group_tests_name("devt_newc", tests, NULL, NULL);
}
