// SPDX-License-Identifier: GPL-2.0
/* Tool identity and errors (see report.h). */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <blkscale/majors_uapi.h>

#include "report.h"

void report_init(struct report *r, const char *tool, const char *version)
{
	memset(r, 0, sizeof(*r));
	r->tool = tool;
	r->version = version;
}

void report_error(struct report *r, const char *fmt, ...)
{
	char msg[REPORT_ERROR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", r->tool, msg);
	if (r->nerrors < REPORT_MAX_ERRORS)
		memcpy(r->errors[r->nerrors], msg, sizeof(msg));
	r->nerrors++;
}

void report_json_begin(struct report *r, struct json *j)
{
	struct utsname u;
	char stamp[32];
	struct tm tm;
	time_t t = time(NULL);

	if (uname(&u))
		strcpy(u.release, "unknown");
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);

	json_object_begin(j, NULL);
	json_string(j, "tool", r->tool);
	json_string(j, "tool_version", r->version);
	json_uint(j, "uapi_version", BLKSCALE_UAPI_VERSION);
	json_string(j, "kernel_release", u.release);
	json_string(j, "timestamp", stamp);
}

int report_json_end(struct report *r, struct json *j)
{
	size_t i, kept;

	kept = r->nerrors < REPORT_MAX_ERRORS ? r->nerrors : REPORT_MAX_ERRORS;
	json_bool(j, "ok", r->nerrors == 0);
	json_array_begin(j, "errors");
	for (i = 0; i < kept; i++)
		json_string(j, NULL, r->errors[i]);
	if (r->nerrors > kept)
		json_string(j, NULL, "(more errors not shown)");
	json_array_end(j);
	json_object_end(j);
	return json_finish(j);
}
