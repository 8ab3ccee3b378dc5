// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak's report (/sys/kernel/debug/kmemleak after a scan): one
 * "unreferenced object" paragraph per suspected leak, kept as its first
 * line and the first function of its backtrace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gluecheck.h"

int kmemleak_check(const char *path, size_t *leaks, struct findings *f)
{
	FILE *in = fopen(path, "r");
	char *line = NULL, head[FINDING_LEN] = "", *p;
	size_t cap = 0;
	ssize_t len;
	bool in_trace = false;

	*leaks = 0;
	if (!in) {
		finding(f, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while ((len = getline(&line, &cap, in)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		p = line + strspn(line, " \t");
		if (!strncmp(p, "unreferenced object", 19)) {
			if (head[0])	/* the previous one had no backtrace */
				finding(f, "%s", head);
			(*leaks)++;
			snprintf(head, sizeof(head), "%s", p);
			in_trace = false;
		} else if (!strncmp(p, "backtrace:", 10)) {
			in_trace = true;
		} else if (in_trace && head[0]) {
			/* "[<ffffffff8123>] kmalloc_trace+0x26/0x90" */
			p = strchr(p, ']');
			p = p ? p + 1 + strspn(p + 1, " ") : line;
			finding(f, "%s, from %s", head, p);
			head[0] = '\0';
			in_trace = false;
		}
	}
	if (head[0])
		finding(f, "%s", head);
	free(line);
	fclose(in);
	return 0;
}
