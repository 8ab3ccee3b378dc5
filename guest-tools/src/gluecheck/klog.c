// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log: every line that starts a report of a kernel problem
 * (lockdep, BUG, WARNING, list corruption, slab poison, kmemleak, a sysfs
 * name created twice).  The log is read as dmesg, the console or
 * /dev/kmsg give it; a log without its first line cannot vouch for what
 * it lost, so that is a problem too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gluecheck.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool klog_is_problem(const char *msg)
{
	/* the first line of each kind of report */
	static const char *const first[] = {
		"BUG:", "BUG ", "WARNING:", "Oops", "general protection fault",
		"kernel BUG", "UBSAN:", "KASAN:", "Kernel panic",
		"Unable to handle", "INFO: task", "INFO: possible",
		"INFO: trying to register", "list_add corruption",
		"list_del corruption", "refcount_t:", "unreferenced object",
		"DEBUG_LOCKS_WARN_ON", "kobject_add_internal failed",
		"sysfs: cannot create duplicate filename",
	};
	/* or anywhere in it */
	static const char *const inside[] = {
		"Poison overwritten", "Redzone overwritten",
		"Object padding overwritten", "inconsistent lock state",
		"possible circular locking", "possible recursive locking",
		"suspicious RCU usage", "new suspected memory leak",
		"turning off the locking correctness validator",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(first); i++)
		if (starts(msg, first[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(inside); i++)
		if (strstr(msg, inside[i]))
			return true;
	return false;
}

/* The message of a line: without "<4>", "4,123,456,-;" and "[ 1.2]". */
static char *message(char *line)
{
	char *p = line, *end;

	if (*p == '<') {
		end = strchr(p, '>');
		if (end && end - p <= 4)
			p = end + 1;
	}
	if (isdigit((unsigned char)*p)) {
		end = strchr(p, ';');
		if (end && strspn(p, "0123456789,-+cC") == (size_t)(end - p))
			p = end + 1;
	}
	/* the time, and the caller id of CONFIG_PRINTK_CALLER */
	while (*p == '[') {
		end = strchr(p, ']');
		if (!end || end - p > 24)
			break;
		p = end + 1;
		while (*p == ' ')
			p++;
	}
	while (*p == ' ')
		p++;
	return p;
}

int klog_check(const char *path, struct klog_stats *st, struct findings *f)
{
	FILE *in = fopen(path, "r");
	char *line = NULL, *msg;
	size_t cap = 0;
	ssize_t len;

	if (!in) {
		finding(f, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while ((len = getline(&line, &cap, in)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		st->lines++;
		msg = message(line);
		if (starts(msg, "Linux version "))
			st->has_start = true;
		if (klog_is_problem(msg))
			finding(f, "%s", msg);
	}
	free(line);
	fclose(in);
	if (st->lines && !st->has_start)
		finding(f, "the log lost its start (\"Linux version\"): the ring buffer wrapped, raise log_buf_len");
	return 0;
}
