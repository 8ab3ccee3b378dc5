// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (src/lib/json.c): layout, escaping, misuse. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"

struct capture {
	FILE *f;
	char *buf;
	size_t len;
	struct json j;
};

static int setup(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		return -1;
	json_init(&c->j, c->f);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct capture *c = *state;

	fclose(c->f);
	free(c->buf);
	free(c);
	return 0;
}

/* Text written so far. */
static const char *text(struct capture *c)
{
	fflush(c->f);
	return c->buf;
}

static void layout(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_object_begin(j, NULL);
	json_string(j, "tool", "majorbench");
	json_int(j, "neg", -5);
	json_uint(j, "big", UINT64_MAX);
	json_bool(j, "ok", true);
	json_null(j, "none");
	json_array_begin(j, "list");
	json_int(j, NULL, 1);
	json_object_begin(j, NULL);
	json_object_end(j);
	json_array_end(j);
	json_array_begin(j, "empty");
	json_array_end(j);
	json_object_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c),
		"{\n"
		"  \"tool\": \"majorbench\",\n"
		"  \"neg\": -5,\n"
		"  \"big\": 18446744073709551615,\n"
		"  \"ok\": true,\n"
		"  \"none\": null,\n"
		"  \"list\": [\n"
		"    1,\n"
		"    {}\n"
		"  ],\n"
		"  \"empty\": []\n"
		"}\n");
}

static void inline_arrays(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_object_begin(j, NULL);
	json_array_begin_inline(j, "ranges");
	json_array_begin(j, NULL);
	json_int(j, NULL, 1);
	json_int(j, NULL, 3);
	json_array_end(j);
	json_array_begin(j, NULL);
	json_int(j, NULL, 5);
	json_int(j, NULL, 5);
	json_array_end(j);
	json_array_end(j);
	json_int(j, "after", 2);
	json_object_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c),
		"{\n"
		"  \"ranges\": [[1, 3], [5, 5]],\n"
		"  \"after\": 2\n"
		"}\n");
}

static void escaping(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_array_begin_inline(j, NULL);
	json_string(j, NULL, "q\"b\\s/");
	json_string(j, NULL, "\n\r\t\b\f");
	json_string(j, NULL, "\001\037\177");
	json_string(j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_string(j, NULL, "bad\xff");
	json_string(j, NULL, "cut\xc3");
	json_string(j, NULL, "overlong\xc0\xaf");
	json_string(j, NULL, "surrogate\xed\xa0\x80");
	json_string(j, NULL, NULL);
	json_array_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c),
		"[\"q\\\"b\\\\s/\", "
		"\"\\n\\r\\t\\b\\f\", "
		"\"\\u0001\\u001f\\u007f\", "
		"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\", "
		"\"bad\\ufffd\", "
		"\"cut\\ufffd\", "
		"\"overlong\\ufffd\\ufffd\", "
		"\"surrogate\\ufffd\\ufffd\\ufffd\", "
		"null]\n");
}

static void keys_are_escaped(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_object_begin(j, NULL);
	json_int(j, "a\"b", 1);
	json_object_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c), "{\n  \"a\\\"b\": 1\n}\n");
}

static void doubles(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_array_begin_inline(j, NULL);
	json_double(j, NULL, 0.1);
	json_double(j, NULL, 1262.8);
	json_double(j, NULL, 1e20);
	json_double(j, NULL, -2.5);
	json_double(j, NULL, NAN);
	json_double(j, NULL, INFINITY);
	json_double(j, NULL, 1.0 / 3.0);
	json_array_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c),
		"[0.1, 1262.8, 1e+20, -2.5, null, null, 0.33333333333333331]\n");
}

static void int_extremes(void **state)
{
	struct capture *c = *state;
	struct json *j = &c->j;

	json_array_begin_inline(j, NULL);
	json_int(j, NULL, INT64_MIN);
	json_int(j, NULL, INT64_MAX);
	json_uint(j, NULL, 0);
	json_array_end(j);
	assert_int_equal(json_finish(j), 0);
	assert_string_equal(text(c),
		"[-9223372036854775808, 9223372036854775807, 0]\n");
}

static void misuse_key_in_array(void **state)
{
	struct capture *c = *state;

	json_array_begin(&c->j, NULL);
	json_int(&c->j, "key", 1);
	json_array_end(&c->j);
	assert_int_equal(json_finish(&c->j), -1);
}

static void misuse_no_key_in_object(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->j, NULL);
	json_int(&c->j, NULL, 1);
	json_object_end(&c->j);
	assert_int_equal(json_finish(&c->j), -1);
}

static void misuse_unbalanced(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->j, NULL);
	json_array_end(&c->j);
	assert_int_equal(json_finish(&c->j), -1);
}

static void misuse_unfinished(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->j, NULL);
	json_array_begin(&c->j, "x");
	assert_int_equal(json_finish(&c->j), -1);
}

static void misuse_two_documents(void **state)
{
	struct capture *c = *state;

	json_int(&c->j, NULL, 1);
	json_int(&c->j, NULL, 2);
	assert_int_equal(json_finish(&c->j), -1);
	assert_string_equal(text(c), "1\n");
}

static void misuse_nothing(void **state)
{
	struct capture *c = *state;

	assert_int_equal(json_finish(&c->j), -1);
}

static void too_deep(void **state)
{
	struct capture *c = *state;
	int i;

	for (i = 0; i <= JSON_MAX_DEPTH; i++)
		json_array_begin(&c->j, NULL);
	for (i = 0; i <= JSON_MAX_DEPTH; i++)
		json_array_end(&c->j);
	assert_int_equal(json_finish(&c->j), -1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(layout),
		T(inline_arrays),
		T(escaping),
		T(keys_are_escaped),
		T(doubles),
		T(int_extremes),
		T(misuse_key_in_array),
		T(misuse_no_key_in_object),
		T(misuse_unbalanced),
		T(misuse_unfinished),
		T(misuse_two_documents),
		T(misuse_nothing),
		T(too_deep),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
