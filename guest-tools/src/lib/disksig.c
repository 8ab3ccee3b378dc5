// SPDX-License-Identifier: GPL-2.0
/* Disk identity: signatures, serials and the plan's groups (disksig.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disksig.h"

static int fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -1;
}

int serial_split(const char *serial, char *group, size_t len,
		 unsigned long *index)
{
	const char *dash = strrchr(serial, '-');
	const char *p;
	char *end;

	if (!dash || dash == serial || !dash[1] || (size_t)(dash - serial) >= len)
		return -1;
	for (p = dash + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	if (dash[1] == '0' && dash[2])
		return -1;	/* the launcher never writes a leading zero */
	errno = 0;
	*index = strtoul(dash + 1, &end, 10);
	if (errno || *end)
		return -1;
	memcpy(group, serial, (size_t)(dash - serial));
	group[dash - serial] = '\0';
	return 0;
}

/* The value of "key value\n" at *p, moving *p past the line. */
static int field(const char **p, const char *end, const char *key, char *val,
		 size_t size)
{
	size_t klen = strlen(key), n;
	const char *nl;

	if ((size_t)(end - *p) <= klen + 1 || memcmp(*p, key, klen) ||
	    (*p)[klen] != ' ')
		return -1;
	*p += klen + 1;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	if (!nl)
		return -1;
	n = (size_t)(nl - *p);
	if (!n || n >= size || memchr(*p, '\0', n))
		return -1;
	memcpy(val, *p, n);
	val[n] = '\0';
	*p = nl + 1;
	return 0;
}

int disksig_parse(const void *sector, size_t len, struct disksig *sig,
		  char *err, size_t errlen)
{
	const char *p = sector, *end;
	char index[24], group[DISKSIG_ID_SIZE];
	unsigned long from_serial;
	char *stop;

	memset(sig, 0, sizeof(*sig));
	if (len < DISKSIG_SECTOR)
		return fail(err, errlen, "shorter than a sector");
	end = p + DISKSIG_SECTOR;
	if (memcmp(p, DISKSIG_MAGIC, strlen(DISKSIG_MAGIC)))
		return fail(err, errlen, "no signature in sector 0");
	p += strlen(DISKSIG_MAGIC);
	if (field(&p, end, "serial", sig->serial, sizeof(sig->serial)) ||
	    field(&p, end, "group", sig->group, sizeof(sig->group)) ||
	    field(&p, end, "index", index, sizeof(index)) ||
	    field(&p, end, "nonce", sig->nonce, sizeof(sig->nonce)))
		return fail(err, errlen, "signature damaged");
	errno = 0;
	sig->index = strtoul(index, &stop, 10);
	if (index[0] < '0' || index[0] > '9' || errno || *stop)
		return fail(err, errlen, "signature index is not a number");
	if (serial_split(sig->serial, group, sizeof(group), &from_serial) ||
	    strcmp(group, sig->group) || from_serial != sig->index)
		return fail(err, errlen,
			    "signature serial disagrees with its group and index");
	return 0;
}

int vpd80_serial(const unsigned char *page, size_t len, char *serial,
		 size_t size)
{
	size_t n, start = 4;

	if (len < 4 || page[1] != 0x80)
		return -1;
	n = (size_t)page[2] << 8 | page[3];
	if (n > len - 4)
		n = len - 4;
	while (n && (page[start] == ' ' || page[start] == '\0')) {
		start++;
		n--;
	}
	while (n && (page[start + n - 1] == ' ' || page[start + n - 1] == '\0'))
		n--;
	if (!n || n >= size || memchr(page + start, '\0', n))
		return -1;
	memcpy(serial, page + start, n);
	serial[n] = '\0';
	return 0;
}

static int add_group(struct diskplan *p, const struct plan_group *g)
{
	struct plan_group *v;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->groups[i].id, g->id))
			return -2;
	v = realloc(p->groups, (p->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	p->groups = v;
	v[p->n] = *g;
	v[p->n].seen = malloc((g->disks ? g->disks : 1) * sizeof(long));
	v[p->n].count = calloc(g->disks ? g->disks : 1, sizeof(unsigned long));
	if (!v[p->n].seen || !v[p->n].count) {
		free(v[p->n].seen);
		free(v[p->n].count);
		return -1;
	}
	for (i = 0; i < g->disks; i++)
		v[p->n].seen[i] = -1;
	p->total += g->disks * g->paths;
	p->n++;
	return 0;
}

#define PLAN_MAX_DISKS 1048576ul
#define PLAN_MAX_PATHS 8ul

int diskplan_parse(const char *text, struct diskplan *p, char *err,
		   size_t errlen)
{
	const char *line = text, *nl;
	char buf[256], id[DISKSIG_ID_SIZE], kind[32], word[8], extra[8], *end;
	unsigned long disks, is_signed, paths;
	unsigned long long sectors;
	struct plan_group g;
	int lineno = 0, ret;
	size_t n;

	memset(p, 0, sizeof(*p));
	for (; *line; line = nl ? nl + 1 : line + n) {
		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		lineno++;
		if (!n || line[0] == '#')
			continue;
		if (n >= sizeof(buf)) {
			snprintf(err, errlen, "line %d: too long", lineno);
			goto bad;
		}
		memcpy(buf, line, n);
		buf[n] = '\0';
		/* an optional sixth column: paths to each disk (LUN) */
		paths = 1;
		ret = sscanf(buf, "%31s %31s %lu %llu %lu %7s %7s", id, kind,
			     &disks, &sectors, &is_signed, word, extra);
		if (ret == 6) {
			paths = strtoul(word, &end, 10);
			if (*end || word[0] < '0' || word[0] > '9')
				paths = 0;
		}
		if ((ret != 5 && ret != 6) || !paths || paths > PLAN_MAX_PATHS ||
		    strlen(id) >= sizeof(g.id) ||
		    (strcmp(kind, "virtio_blk") && strcmp(kind, "virtio_scsi") &&
		     strcmp(kind, "sas")) ||
		    !disks || disks > PLAN_MAX_DISKS || is_signed > 1) {
			snprintf(err, errlen,
				 "line %d: not 'id kind disks sectors signed [paths]'",
				 lineno);
			goto bad;
		}
		memset(&g, 0, sizeof(g));
		snprintf(g.id, sizeof(g.id), "%s", id);
		snprintf(g.kind, sizeof(g.kind), "%s", kind);
		g.disks = disks;
		g.sectors = sectors;
		g.is_signed = is_signed;
		g.paths = paths;
		ret = add_group(p, &g);
		if (ret == -2) {
			snprintf(err, errlen, "line %d: group %s listed twice",
				 lineno, id);
			goto bad;
		}
		if (ret) {
			snprintf(err, errlen, "out of memory");
			goto bad;
		}
		if (!nl)
			break;
	}
	return 0;
bad:
	diskplan_free(p);
	return -1;
}

void diskplan_free(struct diskplan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->groups[i].seen);
		free(p->groups[i].count);
	}
	free(p->groups);
	memset(p, 0, sizeof(*p));
}

struct plan_group *diskplan_find(struct diskplan *p, const char *serial,
				 unsigned long *index)
{
	char group[DISKSIG_ID_SIZE];
	size_t i;

	if (serial_split(serial, group, sizeof(group), index))
		return NULL;
	for (i = 0; i < p->n; i++)
		if (!strcmp(p->groups[i].id, group))
			return *index < p->groups[i].disks ? &p->groups[i] : NULL;
	return NULL;
}
