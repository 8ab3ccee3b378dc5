/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool's result carries: who made it (tool, version, uapi
 * version, kernel release, timestamp) and what went wrong.  Errors are
 * printed to stderr as they happen and listed again in the JSON document,
 * which is always complete, also when the measurement failed.
 */
#ifndef BLKSCALE_REPORT_H
#define BLKSCALE_REPORT_H

#include <stdarg.h>
#include <stddef.h>

#include "compiler.h"
#include "json.h"

#define REPORT_MAX_ERRORS 32
#define REPORT_ERROR_LEN 256

struct report {
	const char *tool;
	const char *version;
	size_t nerrors;		/* all errors, also those not kept */
	char errors[REPORT_MAX_ERRORS][REPORT_ERROR_LEN];
};

void report_init(struct report *r, const char *tool, const char *version);

/* Record an error: "tool: message" on stderr, kept for the JSON. */
void report_error(struct report *r, const char *fmt, ...)
	__printf(2, 3);

/*
 * Begins the top-level object with tool, tool_version, uapi_version,
 * kernel_release and timestamp (UTC, ISO 8601).
 */
void report_json_begin(struct report *r, struct json *j);

/* Adds ok and errors and ends the document; 0 if it was well formed. */
int report_json_end(struct report *r, struct json *j);

#endif
