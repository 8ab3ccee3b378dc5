// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON writer (see json.h). */
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void json_init(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->inline_from = JSON_MAX_DEPTH + 1;
}

/* Before a member (first: no comma was written) or a closing bracket. */
static void json_indent(struct json *j, bool first)
{
	int i;

	if (j->depth >= j->inline_from) {
		if (!first)
			fputc(' ', j->out);
		return;
	}
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Control characters are escaped; invalid UTF-8 becomes U+FFFD. */
static void json_put_string(struct json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	fputc('"', j->out);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", j->out);
			break;
		case '\\':
			fputs("\\\\", j->out);
			break;
		case '\n':
			fputs("\\n", j->out);
			break;
		case '\r':
			fputs("\\r", j->out);
			break;
		case '\t':
			fputs("\\t", j->out);
			break;
		case '\b':
			fputs("\\b", j->out);
			break;
		case '\f':
			fputs("\\f", j->out);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(j->out, "\\u%04x", *s);
				break;
			}
			len = utf8_len(s);
			if (!len) {
				fputs("\\ufffd", j->out);
				break;
			}
			fwrite(s, 1, len, j->out);
			s += len;
			continue;
		}
		s++;
	}
	fputc('"', j->out);
}

/* Separator, indentation and key before a value; false on misuse. */
static bool json_value_start(struct json *j, const char *key)
{
	int level = j->depth - 1;

	if (j->error)
		return false;
	if (j->depth == 0) {
		if (key || j->done) {
			j->error = true;
			return false;
		}
		return true;
	}
	if ((j->kind[level] == '{') != (key != NULL)) {
		j->error = true;
		return false;
	}
	if (j->has_items[level])
		fputc(',', j->out);
	json_indent(j, !j->has_items[level]);
	j->has_items[level] = true;
	if (key) {
		json_put_string(j, key);
		fputs(": ", j->out);
	}
	return true;
}

static void json_value_end(struct json *j)
{
	if (j->depth == 0)
		j->done = true;
}

static void json_open(struct json *j, const char *key, char kind)
{
	if (!json_value_start(j, key))
		return;
	if (j->depth == JSON_MAX_DEPTH) {
		j->error = true;
		return;
	}
	fputc(kind, j->out);
	j->kind[j->depth] = kind;
	j->has_items[j->depth] = false;
	j->depth++;
}

static void json_close(struct json *j, char kind)
{
	if (j->error)
		return;
	if (j->depth == 0 || j->kind[j->depth - 1] != kind) {
		j->error = true;
		return;
	}
	j->depth--;
	if (j->has_items[j->depth] && j->depth + 1 < j->inline_from)
		json_indent(j, false);
	if (j->depth + 1 == j->inline_from)
		j->inline_from = JSON_MAX_DEPTH + 1;
	fputc(kind == '{' ? '}' : ']', j->out);
	json_value_end(j);
}

void json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '{');
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, '[');
}

void json_array_begin_inline(struct json *j, const char *key)
{
	json_open(j, key, '[');
	if (!j->error && j->depth < j->inline_from)
		j->inline_from = j->depth;
}

void json_string(struct json *j, const char *key, const char *val)
{
	if (!val) {
		json_null(j, key);
		return;
	}
	if (!json_value_start(j, key))
		return;
	json_put_string(j, val);
	json_value_end(j);
}

void json_int(struct json *j, const char *key, int64_t val)
{
	if (!json_value_start(j, key))
		return;
	fprintf(j->out, "%" PRId64, val);
	json_value_end(j);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	if (!json_value_start(j, key))
		return;
	fprintf(j->out, "%" PRIu64, val);
	json_value_end(j);
}

/* JSON has no NaN or infinity: they are written as null. */
void json_double(struct json *j, const char *key, double val)
{
	char buf[32];

	if (!isfinite(val)) {
		json_null(j, key);
		return;
	}
	if (!json_value_start(j, key))
		return;
	/* the shortest of the two forms that reads back exactly */
	snprintf(buf, sizeof(buf), "%.15g", val);
	if (strtod(buf, NULL) != val)
		snprintf(buf, sizeof(buf), "%.17g", val);
	fputs(buf, j->out);
	json_value_end(j);
}

void json_bool(struct json *j, const char *key, bool val)
{
	if (!json_value_start(j, key))
		return;
	fputs(val ? "true" : "false", j->out);
	json_value_end(j);
}

void json_null(struct json *j, const char *key)
{
	if (!json_value_start(j, key))
		return;
	fputs("null", j->out);
	json_value_end(j);
}

int json_finish(struct json *j)
{
	if (j->depth != 0 || !j->done)
		j->error = true;
	fputc('\n', j->out);
	if (fflush(j->out) || ferror(j->out))
		j->error = true;
	return j->error ? -1 : 0;
}
