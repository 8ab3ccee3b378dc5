// SPDX-License-Identifier: GPL-2.0
/* tar headers (see ustar.h). */
#include <stdio.h>
#include <string.h>

#include "ustar.h"

/* Offsets and sizes in the header block (POSIX.1-1988). */
#define H_NAME		0
#define H_MODE		100
#define H_SIZE		124
#define H_CHKSUM	148
#define H_TYPEFLAG	156
#define H_MAGIC		257
#define H_DEVMAJOR	329
#define H_DEVMINOR	337
#define H_PREFIX	345

int ustar_number(const unsigned char *field, size_t len, uint64_t *val)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len && (field[0] & 0x80)) {
		/* GNU base-256: big-endian, first byte's top bit is the flag */
		if (field[0] & 0x40)
			return -1;	/* negative */
		v = field[0] & 0x3f;
		for (i = 1; i < len; i++) {
			if (v >> 56)
				return -1;
			v = (v << 8) | field[i];
		}
		*val = v;
		return 0;
	}
	while (i < len && field[i] == ' ')
		i++;
	if (i == len || field[i] < '0' || field[i] > '7')
		return -1;
	for (; i < len && field[i] >= '0' && field[i] <= '7'; i++)
		v = (v << 3) | (uint64_t)(field[i] - '0');
	for (; i < len; i++)
		if (field[i] != '\0' && field[i] != ' ')
			return -1;
	*val = v;
	return 0;
}

static int checksum_ok(const unsigned char *h)
{
	uint64_t want;
	unsigned int sum = 0;
	size_t i;

	if (ustar_number(h + H_CHKSUM, 8, &want))
		return 0;
	for (i = 0; i < USTAR_BLOCK; i++)
		sum += (i >= H_CHKSUM && i < H_CHKSUM + 8) ? ' ' : h[i];
	return sum == want;
}

static int zero_block(const unsigned char *h)
{
	size_t i;

	for (i = 0; i < USTAR_BLOCK; i++)
		if (h[i])
			return 0;
	return 1;
}

/* A fixed-size text field, maybe without NUL, into a string. */
static size_t field_text(char *out, const unsigned char *f, size_t len)
{
	size_t n = strnlen((const char *)f, len);

	memcpy(out, f, n);
	out[n] = '\0';
	return n;
}

int ustar_next(const unsigned char *buf, size_t len, size_t *off,
	       struct ustar_entry *e, char *err, size_t errlen)
{
	const unsigned char *h;
	size_t pos = *off, n, data_blocks;
	char name[101];

	memset(e, 0, sizeof(*e));
	if (pos >= len)
		return 0;
	if (len - pos < USTAR_BLOCK) {
		snprintf(err, errlen, "offset %zu: truncated header", pos);
		return -1;
	}
	h = buf + pos;
	if (zero_block(h))
		return 0;
	if (!checksum_ok(h)) {
		snprintf(err, errlen, "offset %zu: bad header checksum", pos);
		return -1;
	}
	if (ustar_number(h + H_MODE, 8, &e->mode) ||
	    ustar_number(h + H_SIZE, 12, &e->size)) {
		snprintf(err, errlen, "offset %zu: bad mode or size", pos);
		return -1;
	}
	e->typeflag = (char)h[H_TYPEFLAG];
	/* ustar and GNU headers both carry the device fields */
	if (!memcmp(h + H_MAGIC, "ustar", 5) &&
	    (e->typeflag == '3' || e->typeflag == '4') &&
	    (ustar_number(h + H_DEVMAJOR, USTAR_DEV_FIELD, &e->devmajor) ||
	     ustar_number(h + H_DEVMINOR, USTAR_DEV_FIELD, &e->devminor))) {
		snprintf(err, errlen, "offset %zu: bad devmajor or devminor",
			 pos);
		return -1;
	}
	field_text(name, h + H_NAME, 100);
	n = 0;
	if (!memcmp(h + H_MAGIC, "ustar\0", 6) && h[H_PREFIX]) {
		n = field_text(e->name, h + H_PREFIX, 155);
		e->name[n++] = '/';
	}
	snprintf(e->name + n, sizeof(e->name) - n, "%s", name);

	data_blocks = (size_t)((e->size + USTAR_BLOCK - 1) / USTAR_BLOCK);
	pos += USTAR_BLOCK;
	if (e->size > len || data_blocks > (len - pos) / USTAR_BLOCK) {
		snprintf(err, errlen, "offset %zu: %llu bytes of data missing",
			 *off, (unsigned long long)e->size);
		return -1;
	}
	e->data = buf + pos;
	*off = pos + data_blocks * USTAR_BLOCK;
	return 1;
}
