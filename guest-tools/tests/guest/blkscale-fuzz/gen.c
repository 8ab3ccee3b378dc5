// SPDX-License-Identifier: GPL-2.0
/* Random numbers and names (see fuzz.h). */
#include <string.h>

#include "fuzz.h"

/* splitmix64: every (seed, stream) pair gives its own sequence. */
void rng_seed(struct rng *r, uint64_t seed, unsigned int stream)
{
	r->s = seed ^ (0x9e3779b97f4a7c15ull * (stream + 1));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)((rng_next(r) >> 32) * n >> 32);
}

bool rng_percent(struct rng *r, unsigned int percent)
{
	return rng_below(r, 100) < percent;
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i % 8))
			v = rng_next(r);
		p[i] = (unsigned char)v;
		v >>= 8;
	}
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

bool name_ok(const char *name, size_t size, size_t max)
{
	size_t len = strnlen(name, size), i;

	if (len == 0 || len > max)
		return false;
	for (i = 0; i < len; i++)
		if (!name_char_ok(name[i]))
			return false;
	return true;
}

static const char alphabet[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";

static void valid_chars(struct rng *r, char *p, size_t n)
{
	while (n--)
		*p++ = alphabet[rng_below(r, sizeof(alphabet) - 1)];
}

/* Characters the module must refuse. */
static const char bad_chars[] = { '/', ' ', '\n', '\t', '%', '*', ':', '\\',
				  '"', 0x7f, 0x01, (char)0x80, (char)0xff };

void gen_name(struct rng *r, char *buf, size_t size)
{
	size_t len;

	memset(buf, 0, size);
	switch (rng_below(r, 12)) {
	case 0:			/* empty */
		break;
	case 1:			/* one character too long, or more */
		len = BLKSCALE_NAME_MAX + 1 + rng_below(r, size - BLKSCALE_NAME_MAX - 1);
		valid_chars(r, buf, len);
		break;
	case 2:			/* no NUL in the whole field */
		valid_chars(r, buf, size);
		break;
	case 3:			/* a character outside the set */
		len = 1 + rng_below(r, BLKSCALE_NAME_MAX);
		valid_chars(r, buf, len);
		buf[rng_below(r, len)] = bad_chars[rng_below(r, sizeof(bad_chars))];
		break;
	case 4:			/* random bytes */
		rng_fill(r, buf, size);
		break;
	case 5:			/* valid, then NUL, then junk: still valid */
		len = 1 + rng_below(r, BLKSCALE_NAME_MAX);
		valid_chars(r, buf, len);
		buf[0] = 's';
		if (len + 1 < size)
			rng_fill(r, buf + len + 1, size - len - 1);
		break;
	default:		/* valid, 1..15 characters */
		len = 1 + rng_below(r, BLKSCALE_NAME_MAX);
		valid_chars(r, buf, len);
		buf[0] = 's';
		break;
	}
	/* batch names start with 'B' and are looked up by name */
	if (buf[0] == 'B')
		buf[0] = 's';
}

void gen_prefix(char *buf, size_t size, uint64_t seq)
{
	static const char digits[] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	int i;

	memset(buf, 0, size);
	buf[0] = 'B';
	for (i = BLKSCALE_PREFIX_MAX - 1; i >= 1; i--) {
		buf[i] = digits[seq % 62];
		seq /= 62;
	}
}

uint32_t gen_must_be_zero(struct rng *r)
{
	if (rng_percent(r, 97))
		return 0;
	return (uint32_t)rng_next(r) | 1;
}
