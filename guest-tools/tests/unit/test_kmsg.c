// SPDX-License-Identifier: GPL-2.0
/* /dev/kmsg records as dmesg lines (src/lib/kmsg.c). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kmsg.h"

static char *dump_of(const char *records, struct kmsg_counts *c)
{
	char path[] = "/tmp/test_kmsg.XXXXXX";
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	int fd = mkstemp(path);

	assert_true(fd >= 0 && out);
	assert_int_equal(write(fd, records, strlen(records)),
			 (ssize_t)strlen(records));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	memset(c, 0, sizeof(*c));
	assert_int_equal(kmsg_dump(fd, out, c), 0);
	close(fd);
	fclose(out);
	return text;
}

/* The kernel's own shape, as scsi's refusal at 65,536 LUNs gives it. */
static void test_records_become_dmesg_lines(void **state)
{
	struct kmsg_counts c;
	char *text = dump_of(
		"5,0,0,-;Linux version 6.1.192-stock-dcfg\n"
		"6,81234,69265654,-;scsi 32:0:0:0: Unable to attach sg device type=0, minor number exceeds 32767\n"
		" SUBSYSTEM=scsi\n"
		" DEVICE=+scsi:32:0:0:0\n"
		"4,81235,1234567890123,c,caller=T1;late\n"
		"6,81236,70000000,-;\\x09tab, back\\x5cslash, \\xzz kept\n"
		"6,81237,70000001,-;two\\x0alines\n", &c);

	(void)state;
	assert_string_equal(text,
		"[    0.000000] Linux version 6.1.192-stock-dcfg\n"
		"[   69.265654] scsi 32:0:0:0: Unable to attach sg device type=0, minor number exceeds 32767\n"
		"[1234567.890123] late\n"
		"[   70.000000] \ttab, back\\slash, \\xzz kept\n"
		"[   70.000001] two\n[   70.000001] lines\n");
	assert_int_equal(c.records, 5);
	assert_int_equal(c.malformed, 0);
	free(text);
}

/* What is no record is kept, marked, and counted: never dropped. */
static void test_a_malformed_record_is_kept_and_counted(void **state)
{
	struct kmsg_counts c;
	char *text = dump_of("no header here\n6,1,x,-;bad time\n6,2,7;ok", &c);

	(void)state;
	assert_string_equal(text, "[?] no header here\n[?] 6,1,x,-;bad time\n"
				  "[    0.000007] ok\n");
	assert_int_equal(c.records, 3);
	assert_int_equal(c.malformed, 2);
	free(text);
}

/* Records longer than one read() of a file still come out whole. */
static void test_long_records_across_reads(void **state)
{
	size_t n = 20000, len = 0;
	char *in = malloc(3 * n + 64), *text;
	struct kmsg_counts c;

	(void)state;
	assert_non_null(in);
	for (int r = 0; r < 3; r++) {
		len += (size_t)sprintf(in + len, "6,%d,1000000,-;", r);
		memset(in + len, 'a' + r, 5000);
		len += 5000;
		in[len++] = '\n';
	}
	in[len] = '\0';
	text = dump_of(in, &c);
	assert_int_equal(c.records, 3);
	assert_int_equal(c.malformed, 0);
	assert_int_equal(strlen(text), 3 * (15 + 5000 + 1));
	assert_int_equal(strspn(text + 15, "a"), 5000);
	free(text);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_become_dmesg_lines),
		cmocka_unit_test(test_a_malformed_record_is_kept_and_counted),
		cmocka_unit_test(test_long_records_across_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
