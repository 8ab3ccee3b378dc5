/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streaming JSON writer: values go straight to a FILE, commas and
 * indentation are handled here, strings are escaped.  Misuse (a key inside
 * an array, a missing key inside an object, unbalanced ends) is recorded
 * and reported by json_finish() rather than producing invalid output
 * silently.
 */
#ifndef BLKSCALE_JSON_H
#define BLKSCALE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *out;
	int depth;
	bool error;
	bool done;			/* the top-level value is complete */
	char kind[JSON_MAX_DEPTH];	/* '{' or '[' per open level */
	bool has_items[JSON_MAX_DEPTH];
	int inline_from;		/* levels from here on: one line */
};

void json_init(struct json *j, FILE *out);

/* key is the member name inside an object and must be NULL elsewhere. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* An array written on one line, with everything inside it: [1, 3]. */
void json_array_begin_inline(struct json *j, const char *key);

void json_string(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, int64_t val);
void json_uint(struct json *j, const char *key, uint64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);

/* Ends the document with a newline; 0 if it was well formed. */
int json_finish(struct json *j);

#endif
