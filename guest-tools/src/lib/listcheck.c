// SPDX-License-Identifier: GPL-2.0
/* A listing of block devices against an earlier one (see listcheck.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listcheck.h"

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of pt, sorted (pointers into pt); NULL without memory. */
static const char **sorted_names(const struct partitions *pt)
{
	const char **v = malloc((pt->n ? pt->n : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < pt->n; i++)
		v[i] = pt->v[i].name;
	qsort(v, pt->n, sizeof(*v), cmp_name);
	return v;
}

static bool is_excluded(const char *name, const char *const *excluded,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, excluded[i]))
			return true;
	return false;
}

static int name_add(struct name_set *s, size_t cap, const char *name)
{
	if (!s->v) {
		s->v = calloc(cap ? cap : 1, sizeof(*s->v));
		if (!s->v)
			return -ENOMEM;
	}
	snprintf(s->v[s->n++], PART_NAME_SIZE, "%s", name);
	return 0;
}

int listcheck_compare(const struct partitions *before,
		      const struct partitions *listed,
		      const char *const *excluded, size_t nexcluded,
		      struct listcheck *out)
{
	const char **b = NULL, **l = NULL;
	size_t i, j = 0, count;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	b = sorted_names(before);
	l = sorted_names(listed);
	if (!b || !l)
		goto out;
	for (i = 1; i < before->n; i++)
		if (!strcmp(b[i - 1], b[i])) {
			ret = -EINVAL;
			goto out;
		}
	/* one merge of the two sorted lists */
	for (i = 0; i < before->n; i++) {
		for (; j < listed->n && strcmp(l[j], b[i]) < 0; j++)
			if (!j || strcmp(l[j - 1], l[j]))
				out->added++;
		for (count = 0; j < listed->n && !strcmp(l[j], b[i]); j++)
			count++;
		if (is_excluded(b[i], excluded, nexcluded))
			continue;
		out->expected++;
		if (!count && name_add(&out->missed, before->n, b[i]))
			goto out;
		if (count > 1 && name_add(&out->repeated, before->n, b[i]))
			goto out;
	}
	for (; j < listed->n; j++)
		if (!j || strcmp(l[j - 1], l[j]))
			out->added++;
	ret = 0;
out:
	if (ret)
		listcheck_free(out);
	free(b);
	free(l);
	return ret;
}

void listcheck_free(struct listcheck *c)
{
	free(c->missed.v);
	free(c->repeated.v);
	memset(c, 0, sizeof(*c));
}
