// SPDX-License-Identifier: GPL-2.0
/* cpio newc headers (see newc.h). */
#include <stdio.h>
#include <string.h>

#include "newc.h"

#define NEWC_FIELDS 13

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Exactly 8 hex digits, either case. */
static int hex8(const unsigned char *p, uint32_t *val)
{
	uint32_t v = 0;
	int i, d;

	for (i = 0; i < 8; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -1;
		v = (v << 4) | (uint32_t)d;
	}
	*val = v;
	return 0;
}

int newc_next(const unsigned char *buf, size_t len, size_t *off,
	      struct newc_entry *e, char *err, size_t errlen)
{
	static const char *const names[NEWC_FIELDS] = {
		"c_ino", "c_mode", "c_uid", "c_gid", "c_nlink", "c_mtime",
		"c_filesize", "c_devmajor", "c_devminor", "c_rdevmajor",
		"c_rdevminor", "c_namesize", "c_check",
	};
	uint32_t *fields[NEWC_FIELDS] = {
		&e->ino, &e->mode, &e->uid, &e->gid, &e->nlink, &e->mtime,
		&e->filesize, &e->devmajor, &e->devminor, &e->rdevmajor,
		&e->rdevminor, &e->namesize, &e->check,
	};
	const unsigned char *h;
	size_t pos = *off, name_end, data_end;
	int i;

	memset(e, 0, sizeof(*e));
	if (pos > len || len - pos < NEWC_HEADER_SIZE) {
		snprintf(err, errlen, "offset %zu: truncated header", pos);
		return -1;
	}
	h = buf + pos;
	if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6)) {
		snprintf(err, errlen, "offset %zu: bad magic '%.6s'", pos,
			 (const char *)h);
		return -1;
	}
	for (i = 0; i < NEWC_FIELDS; i++) {
		if (hex8(h + 6 + 8 * i, fields[i])) {
			snprintf(err, errlen, "offset %zu: %s is not 8 hex digits",
				 pos, names[i]);
			return -1;
		}
	}
	if (e->namesize < 2) {
		snprintf(err, errlen, "offset %zu: c_namesize %u", pos,
			 e->namesize);
		return -1;
	}
	name_end = pos + NEWC_HEADER_SIZE + e->namesize;
	if (name_end > len || buf[name_end - 1] != '\0' ||
	    memchr(h + NEWC_HEADER_SIZE, '\0', e->namesize - 1)) {
		snprintf(err, errlen,
			 "offset %zu: name of c_namesize %u is not there or not NUL-terminated",
			 pos, e->namesize);
		return -1;
	}
	e->name = (const char *)h + NEWC_HEADER_SIZE;
	/* the header starts 4-aligned, so offsets pad like lengths */
	pos = pad4(name_end);
	data_end = pos + e->filesize;
	if (pos > len || data_end > len) {
		snprintf(err, errlen, "offset %zu: %u bytes of data missing",
			 *off, e->filesize);
		return -1;
	}
	e->data = buf + pos;
	*off = pad4(data_end) < len ? pad4(data_end) : len;
	return strcmp(e->name, NEWC_TRAILER) ? 1 : 0;
}
