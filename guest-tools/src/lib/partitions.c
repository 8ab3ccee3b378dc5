// SPDX-License-Identifier: GPL-2.0
/* /proc/partitions parsing and lookup (see partitions.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "partitions.h"

#define PART_HEADER "major minor  #blocks  name"
#define PART_LINE_MAX 256

static __printf(4, 5) int fail(struct partitions *pt, char *err,
			       size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	partitions_free(pt);
	return -1;
}

/* Spaces, then a decimal number (no sign, no overflow past max). */
static const char *number(const char *p, uint64_t max, uint64_t *val)
{
	uint64_t v = 0;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return NULL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*val = v;
	return p;
}

/* "%4d  %7d %10llu %s": name is the rest, non-empty, without spaces. */
static int parse_line(const char *line, struct part_entry *e)
{
	uint64_t major, minor;
	const char *p;
	size_t len;

	p = number(line, 4095, &major);
	if (!p || *p != ' ')
		return -1;
	p = number(p, (1u << 20) - 1, &minor);
	if (!p || *p != ' ')
		return -1;
	p = number(p, UINT64_MAX, &e->blocks);
	if (!p || *p != ' ')
		return -1;
	p++;
	len = strlen(p);
	if (!len || len >= sizeof(e->name) || strpbrk(p, " \t"))
		return -1;
	memcpy(e->name, p, len + 1);
	e->major = (uint32_t)major;
	e->minor = (uint32_t)minor;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct part_entry *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return x->minor < y->minor ? -1 : x->minor > y->minor;
}

int partitions_parse(const char *text, size_t len, struct partitions *pt,
		     char *err, size_t errlen)
{
	char line[PART_LINE_MAX];
	const char *p = text, *end = text + len, *nl;
	struct part_entry *v;
	size_t lineno = 0, cap = 0, n, i;

	memset(pt, 0, sizeof(*pt));
	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return fail(pt, err, errlen,
				    "line %zu: no newline at the end", lineno);
		n = (size_t)(nl - p);
		if (n >= sizeof(line) || memchr(p, '\0', n))
			return fail(pt, err, errlen,
				    "line %zu: too long or binary", lineno);
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;

		if (lineno == 1) {
			if (strcmp(line, PART_HEADER))
				return fail(pt, err, errlen,
					    "line 1: expected '" PART_HEADER "'");
			continue;
		}
		if (lineno == 2) {
			if (line[0])
				return fail(pt, err, errlen,
					    "line 2: expected an empty line");
			continue;
		}
		if (pt->n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(pt->v, cap * sizeof(*v));
			if (!v)
				return fail(pt, err, errlen,
					    "line %zu: out of memory", lineno);
			pt->v = v;
		}
		if (parse_line(line, &pt->v[pt->n]))
			return fail(pt, err, errlen,
				    "line %zu: not 'major minor blocks name': '%.80s'",
				    lineno, line);
		pt->n++;
	}
	if (lineno < 2)
		return fail(pt, err, errlen, "line %zu: missing the header",
			    lineno);
	if (pt->n > 1)
		qsort(pt->v, pt->n, sizeof(*pt->v), cmp_entry);
	for (i = 1; i < pt->n; i++)
		if (!cmp_entry(&pt->v[i - 1], &pt->v[i]))
			pt->duplicates++;
	return 0;
}

const struct part_entry *partitions_find(const struct partitions *pt,
					 uint32_t major, uint32_t minor)
{
	struct part_entry key = { .major = major, .minor = minor };
	size_t lo = 0, hi = pt->n, mid;

	/* the first of equal entries: lower bound */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cmp_entry(&pt->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pt->n && !cmp_entry(&pt->v[lo], &key))
		return &pt->v[lo];
	return NULL;
}

void partitions_free(struct partitions *pt)
{
	free(pt->v);
	memset(pt, 0, sizeof(*pt));
}
