// SPDX-License-Identifier: GPL-2.0
/* Runs of consecutive majors (see ranges.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static int32_t *sorted_copy(const int32_t *v, size_t n)
{
	int32_t *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_i32);
	return s;
}

long ranges_build(const int32_t *v, size_t n, struct range *out)
{
	int32_t *s = sorted_copy(v, n);
	size_t i, nr = 0;

	if (!s)
		return -1;
	for (i = 0; i < n; i++) {
		if (nr && s[i] <= out[nr - 1].last + 1) {
			if (s[i] > out[nr - 1].last)
				out[nr - 1].last = s[i];
			continue;
		}
		out[nr].first = s[i];
		out[nr].last = s[i];
		nr++;
	}
	free(s);
	return (long)nr;
}

size_t ranges_duplicates(const int32_t *v, size_t n)
{
	int32_t *s = sorted_copy(v, n);
	size_t i, dups = 0;

	if (!s)
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] == s[i - 1] && (i == 1 || s[i - 1] != s[i - 2]))
			dups++;
	free(s);
	return dups;
}

void json_ranges(struct json *j, const char *key, const struct range *r,
		 size_t n)
{
	size_t i;

	json_array_begin_inline(j, key);
	for (i = 0; i < n; i++) {
		json_array_begin(j, NULL);
		json_int(j, NULL, r[i].first);
		json_int(j, NULL, r[i].last);
		json_array_end(j);
	}
	json_array_end(j);
}

void ranges_format(char *buf, size_t size, const struct range *r, size_t n)
{
	size_t i, len = 0;
	char item[32];
	int w;

	if (!size)
		return;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (r[i].first == r[i].last)
			w = snprintf(item, sizeof(item), "%s%d", i ? "," : "",
				     r[i].first);
		else
			w = snprintf(item, sizeof(item), "%s%d-%d",
				     i ? "," : "", r[i].first, r[i].last);
		if (len + (size_t)w + 4 > size) {
			snprintf(buf + len, size - len, i ? ",..." : "...");
			return;
		}
		memcpy(buf + len, item, (size_t)w + 1);
		len += (size_t)w;
	}
}
