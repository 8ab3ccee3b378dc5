// SPDX-License-Identifier: GPL-2.0
/* /proc/devices reader, parser and comparison (see procdevices.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errname.h"
#include "procdevices.h"

static int list_add(struct procdev_list *l, int major, const char *name)
{
	struct procdev_entry *v;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;

		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].major = major;
	snprintf(l->v[l->n].name, sizeof(l->v[l->n].name), "%s", name);
	l->n++;
	return 0;
}

void procdev_list_free(struct procdev_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void procdev_free(struct procdevices *pd)
{
	procdev_list_free(&pd->chr);
	procdev_list_free(&pd->blk);
	pd->lines = 0;
}

/* "%3d %s": the line must read back identically from major and name. */
static int parse_entry(const char *line, int *major, char *name, size_t size)
{
	const char *p = line;
	char canon[PROCDEV_NAME_SIZE + 16];
	long val = 0;

	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		val = val * 10 + (*p++ - '0');
		if (val > 1 << 20)
			return -1;
	}
	if (*p++ != ' ' || !*p || strlen(p) >= size)
		return -1;
	snprintf(canon, sizeof(canon), "%3ld %s", val, p);
	if (strcmp(canon, line))
		return -1;
	*major = (int)val;
	snprintf(name, size, "%s", p);
	return 0;
}

enum section { BEFORE, CHAR, BLANK, BLOCK };

int procdev_parse(const char *text, size_t len, struct procdevices *pd,
		  char *err, size_t errlen)
{
	enum section sec = BEFORE;
	char line[PROCDEV_NAME_SIZE + 32];
	char name[PROCDEV_NAME_SIZE];
	size_t pos = 0, ln = 0, l;
	const char *nl;
	int major;

	memset(pd, 0, sizeof(*pd));
	while (pos < len) {
		nl = memchr(text + pos, '\n', len - pos);
		ln++;
		if (!nl) {
			snprintf(err, errlen, "line %zu: no newline at the end",
				 ln);
			goto out_err;
		}
		l = (size_t)(nl - (text + pos));
		if (l >= sizeof(line) || memchr(text + pos, '\0', l)) {
			snprintf(err, errlen, "line %zu: too long or binary", ln);
			goto out_err;
		}
		memcpy(line, text + pos, l);
		line[l] = '\0';
		pos += l + 1;

		switch (sec) {
		case BEFORE:
			if (strcmp(line, "Character devices:")) {
				snprintf(err, errlen,
					 "line %zu: expected 'Character devices:'",
					 ln);
				goto out_err;
			}
			sec = CHAR;
			continue;
		case CHAR:
			if (!line[0]) {
				sec = BLANK;
				continue;
			}
			break;
		case BLANK:
			if (strcmp(line, "Block devices:")) {
				snprintf(err, errlen,
					 "line %zu: expected 'Block devices:'",
					 ln);
				goto out_err;
			}
			sec = BLOCK;
			continue;
		case BLOCK:
			break;
		}

		if (parse_entry(line, &major, name, sizeof(name))) {
			snprintf(err, errlen, "line %zu: not '%%3d name': '%s'",
				 ln, line);
			goto out_err;
		}
		if (sec == CHAR) {
			if (pd->chr.n && major < pd->chr.v[pd->chr.n - 1].major) {
				snprintf(err, errlen,
					 "line %zu: char major %d out of order",
					 ln, major);
				goto out_err;
			}
			if (list_add(&pd->chr, major, name))
				goto out_nomem;
		} else {
			if (pd->blk.n && major <= pd->blk.v[pd->blk.n - 1].major) {
				snprintf(err, errlen,
					 "line %zu: block major %d out of order or repeated",
					 ln, major);
				goto out_err;
			}
			if (list_add(&pd->blk, major, name))
				goto out_nomem;
		}
	}
	if (sec != BLOCK) {
		snprintf(err, errlen, "line %zu: missing the %s section", ln,
			 sec == BEFORE ? "character" : "block");
		goto out_err;
	}
	pd->lines = ln;
	return 0;

out_nomem:
	snprintf(err, errlen, "line %zu: out of memory", ln);
out_err:
	procdev_free(pd);
	return -1;
}

const char *procdev_block_name(const struct procdevices *pd, int major)
{
	size_t lo = 0, hi = pd->blk.n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pd->blk.v[mid].major == major)
			return pd->blk.v[mid].name;
		if (pd->blk.v[mid].major < major)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

long procdev_read_file(const char *path, char **buf)
{
	size_t cap = 65536, len = 0;
	char *b = malloc(cap + 1), *nb;
	ssize_t r;
	int fd, e;

	if (!b)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(b);
		return -e;
	}
	for (;;) {
		if (len == cap) {
			nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				e = ENOMEM;
				goto out_err;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			goto out_err;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	b[len] = '\0';
	*buf = b;
	return (long)len;

out_err:
	close(fd);
	free(b);
	return -e;
}

int procdev_load(const char *path, struct procdevices *pd, size_t *bytes,
		 char *err, size_t errlen)
{
	char msg[160], *text;
	long len;
	int ret;

	memset(pd, 0, sizeof(*pd));
	len = procdev_read_file(path, &text);
	if (len < 0) {
		snprintf(err, errlen, "%s: %s", path, errno_name((int)len));
		return (int)len;
	}
	ret = procdev_parse(text, (size_t)len, pd, msg, sizeof(msg));
	free(text);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return -EBADMSG;
	}
	if (bytes)
		*bytes = (size_t)len;
	return 0;
}

static bool same_entry(const struct procdev_entry *a,
		       const struct procdev_entry *b)
{
	return a->major == b->major && !strcmp(a->name, b->name);
}

int procdev_diff(const struct procdevices *base, const struct procdevices *now,
		 struct procdev_list *added, struct procdev_list *removed)
{
	const struct procdev_list *b = &base->blk, *n = &now->blk;
	size_t i = 0, k = 0;
	int ret = 0;

	memset(added, 0, sizeof(*added));
	memset(removed, 0, sizeof(*removed));
	/* both block lists are sorted by major: merge them */
	while (i < b->n || k < n->n) {
		if (k == n->n || (i < b->n && b->v[i].major < n->v[k].major)) {
			ret |= list_add(removed, b->v[i].major, b->v[i].name);
			i++;
		} else if (i == b->n || n->v[k].major < b->v[i].major) {
			ret |= list_add(added, n->v[k].major, n->v[k].name);
			k++;
		} else {
			if (!same_entry(&b->v[i], &n->v[k])) {
				ret |= list_add(removed, b->v[i].major,
						b->v[i].name);
				ret |= list_add(added, n->v[k].major,
						n->v[k].name);
			}
			i++;
			k++;
		}
	}
	if (ret)
		return -1;
	if (base->chr.n != now->chr.n)
		return 1;
	for (i = 0; i < base->chr.n; i++)
		if (!same_entry(&base->chr.v[i], &now->chr.v[i]))
			return 1;
	return 0;
}
