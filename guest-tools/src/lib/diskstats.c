// SPDX-License-Identifier: GPL-2.0
/* /proc/diskstats parsing (see diskstats.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"

#define DISKSTATS_LINE_MAX 512

/* Spaces, then a decimal number up to max; NULL if there is none. */
static const char *field(const char *p, uint64_t max, uint64_t *val)
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

/* "major minor name n n n ...": at least DISKSTATS_MIN_FIELDS counters. */
static int parse_line(const char *line, struct part_entry *e)
{
	uint64_t major, minor, count;
	const char *p, *name;
	size_t len, fields = 0;

	p = field(line, 4095, &major);
	if (!p || *p != ' ')
		return -1;
	p = field(p, (1u << 20) - 1, &minor);
	if (!p || *p != ' ')
		return -1;
	while (*p == ' ')
		p++;
	name = p;
	len = strcspn(p, " ");
	if (!len || len >= sizeof(e->name))
		return -1;
	p += len;
	while (*p) {
		p = field(p, UINT64_MAX, &count);
		if (!p || (*p && *p != ' '))
			return -1;
		fields++;
	}
	if (fields < DISKSTATS_MIN_FIELDS)
		return -1;
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->major = (uint32_t)major;
	e->minor = (uint32_t)minor;
	e->blocks = 0;
	return 0;
}

int diskstats_parse(const char *text, size_t len, struct partitions *pt,
		    char *err, size_t errlen)
{
	char line[DISKSTATS_LINE_MAX];
	const char *p = text, *end = text + len, *nl;
	struct part_entry *v;
	size_t lineno = 0, cap = 0, n;

	memset(pt, 0, sizeof(*pt));
	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			snprintf(err, errlen, "line %zu: no newline at the end",
				 lineno);
			goto fail;
		}
		n = (size_t)(nl - p);
		if (n >= sizeof(line) || memchr(p, '\0', n)) {
			snprintf(err, errlen, "line %zu: too long or binary",
				 lineno);
			goto fail;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;
		if (pt->n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(pt->v, cap * sizeof(*v));
			if (!v) {
				snprintf(err, errlen, "line %zu: out of memory",
					 lineno);
				goto fail;
			}
			pt->v = v;
		}
		if (parse_line(line, &pt->v[pt->n])) {
			snprintf(err, errlen,
				 "line %zu: not 'major minor name' and %d or more counters: '%.80s'",
				 lineno, DISKSTATS_MIN_FIELDS, line);
			goto fail;
		}
		pt->n++;
	}
	return 0;
fail:
	partitions_free(pt);
	return -1;
}
