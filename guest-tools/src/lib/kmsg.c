// SPDX-License-Identifier: GPL-2.0
/* /dev/kmsg records as dmesg lines (kmsg.h). */
#include "kmsg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The largest record the kernel gives one read() (CONSOLE_EXT_LOG_MAX). */
#define KMSG_RECORD_MAX 8192

static int hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/*
 * The text with the kernel's escapes undone: /dev/kmsg writes a byte
 * below ' ', above '~' and '\\' itself as "\\xNN"; the syslog buffer
 * busybox dmesg reads has them raw, and each line of a record of several
 * lines with the record's time before it, as written here.
 */
static void write_text(FILE *out, const char *stamp, const char *p,
		       const char *end)
{
	fputs(stamp, out);
	while (p < end) {
		int ch = (unsigned char)*p++;

		if (ch == '\\' && end - p >= 3 && p[0] == 'x' &&
		    hex(p[1]) >= 0 && hex(p[2]) >= 0) {
			ch = hex(p[1]) << 4 | hex(p[2]);
			p += 3;
		}
		fputc(ch, out);
		if (ch == '\n' && p < end)
			fputs(stamp, out);
	}
	fputc('\n', out);
}

int kmsg_write_record(FILE *out, const char *rec, size_t len,
		      struct kmsg_counts *c)
{
	const char *semi, *end = rec + len, *p;
	char *stop, stamp[40];
	uint64_t usec;

	if (len && rec[len - 1] == '\n')
		end--;
	if (rec == end || rec[0] == ' ')
		return 0;
	semi = memchr(rec, ';', (size_t)(end - rec));
	/* PRI,SEQ,USEC: the time is the third field */
	p = semi ? memchr(rec, ',', (size_t)(semi - rec)) : NULL;
	p = p ? memchr(p + 1, ',', (size_t)(semi - p - 1)) : NULL;
	if (p) {
		errno = 0;
		usec = strtoull(p + 1, &stop, 10);
		if (errno || stop == p + 1 || (*stop != ',' && *stop != ';'))
			p = NULL;
	}
	c->records++;
	if (!p) {
		c->malformed++;
		fprintf(out, "[?] %.*s\n", (int)(end - rec), rec);
		return -1;
	}
	snprintf(stamp, sizeof(stamp), "[%5" PRIu64 ".%06" PRIu64 "] ",
		 usec / 1000000, usec % 1000000);
	write_text(out, stamp, semi + 1, end);
	return 0;
}

int kmsg_dump(int fd, FILE *out, struct kmsg_counts *c)
{
	/* a file may end a read() inside a record: keep the rest */
	char *buf = malloc(2 * KMSG_RECORD_MAX);
	size_t have = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(fd, buf + have, 2 * KMSG_RECORD_MAX - have);
		char *start = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			/*
			 * Overwritten before we read it; the next read
			 * gives the oldest record still there.
			 */
			c->lost++;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		have += (size_t)n;
		while ((nl = memchr(start, '\n', have - (size_t)(start - buf)))) {
			kmsg_write_record(out, start, (size_t)(nl - start + 1),
					  c);
			start = nl + 1;
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == 2 * KMSG_RECORD_MAX) {
			/* no newline in a whole buffer: not a record */
			kmsg_write_record(out, buf, have, c);
			have = 0;
		}
	}
	if (have)
		kmsg_write_record(out, buf, have, c);
	free(buf);
	return ret;
}
