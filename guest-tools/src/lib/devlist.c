// SPDX-License-Identifier: GPL-2.0
/* Duplicates and per-major distribution of device numbers (see devlist.h). */
#include <stdlib.h>
#include <string.h>

#include "devlist.h"

static int cmp_item(const void *a, const void *b)
{
	const struct devlist_item *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void devlist_sort(struct devlist_item *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_item);
}

int devlist_summarize(const struct devlist_item *v, size_t n,
		      struct devlist_summary *s)
{
	struct devlist_major *m = NULL;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return 0;
	/* at most one entry per item */
	s->majors = calloc(n, sizeof(*s->majors));
	if (!s->majors)
		return -1;
	for (i = 0; i < n; i++) {
		if (i && v[i].major == v[i - 1].major &&
		    v[i].minor == v[i - 1].minor)
			s->duplicates++;
		if (!m || m->major != v[i].major) {
			m = &s->majors[s->nmajors++];
			m->major = v[i].major;
		}
		m->count++;
		if (v[i].minor > m->max_minor)
			m->max_minor = v[i].minor;
		if (v[i].minor > 255) {
			m->minor_over_255++;
			s->minor_over_255++;
		}
		if (v[i].minor > s->max_minor)
			s->max_minor = v[i].minor;
	}
	return 0;
}

void devlist_summary_free(struct devlist_summary *s)
{
	free(s->majors);
	memset(s, 0, sizeof(*s));
}
