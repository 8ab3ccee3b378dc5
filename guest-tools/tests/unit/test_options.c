// SPDX-License-Identifier: GPL-2.0
/* Table-driven options (src/lib/options.c): parsing, errors, help. */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compiler.h"
#include "options.h"

static struct {
	bool json;
	unsigned long count;
	const char *dir;
	const char *mode;
} v;

static const char *const modes[] = { "both", "lseek", "reopen", NULL };

static const struct opt opts[] = {
	OPT_BOOL("json", 'j', &v.json, "JSON output"),
	OPT_NUM("count", 'c', &v.count, "N", "how many", 1, 100),
	OPT_STR("dir", 0, &v.dir, "DIR", "where"),
	OPT_ONE_OF("mode", 'm', &v.mode, "M", "how", modes),
	OPT_END,
};

/* Parse a NULL-terminated list of arguments; errors go to *err. */
static int parse(char **err, int *first, ...)
{
	char *argv[16] = { "prog" };
	size_t len = 0;
	va_list ap;
	FILE *f;
	int argc = 1, ret;

	va_start(ap, first);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	memset(&v, 0, sizeof(v));
	v.count = 7;
	f = open_memstream(err, &len);
	ret = opt_parse("prog", opts, argc, argv, first, f);
	fclose(f);
	return ret;
}

static void long_and_short_forms(void **state)
{
	char *err;
	int first;

	(void)state;
	assert_int_equal(parse(&err, &first, "--json", "--count=5", "--dir",
			       "/tmp", "-m", "lseek", NULL), OPT_OK);
	assert_true(v.json);
	assert_int_equal(v.count, 5);
	assert_string_equal(v.dir, "/tmp");
	assert_string_equal(v.mode, "lseek");
	assert_int_equal(first, 7);
	assert_string_equal(err, "");
	free(err);

	assert_int_equal(parse(&err, &first, "-j", "-c", "100", NULL),
			 OPT_OK);
	assert_true(v.json);
	assert_int_equal(v.count, 100);
	free(err);
}

static void defaults_stay(void **state)
{
	char *err;
	int first;

	(void)state;
	assert_int_equal(parse(&err, &first, NULL), OPT_OK);
	assert_false(v.json);
	assert_int_equal(v.count, 7);
	assert_null(v.dir);
	assert_int_equal(first, 1);
	free(err);
}

static void arguments_after_options(void **state)
{
	char *err;
	int first;

	(void)state;
	assert_int_equal(parse(&err, &first, "-j", "file", "--count=3", NULL),
			 OPT_OK);
	assert_int_equal(first, 2);
	assert_int_equal(v.count, 7);
	free(err);
	assert_int_equal(parse(&err, &first, "--", "--json", NULL), OPT_OK);
	assert_int_equal(first, 2);
	assert_false(v.json);
	free(err);
	assert_int_equal(parse(&err, &first, "-", NULL), OPT_OK);
	assert_int_equal(first, 1);
	free(err);
}

static void help(void **state)
{
	char *err;
	int first;

	(void)state;
	assert_int_equal(parse(&err, &first, "--json", "--help", NULL),
			 OPT_HELP);
	free(err);
	assert_int_equal(parse(&err, &first, "-h", NULL), OPT_HELP);
	free(err);
}

struct bad_case {
	const char *args[3];
	const char *message;
};

static void errors_name_the_option(void **state)
{
	static const struct bad_case cases[] = {
		{ { "--nope" }, "prog: unknown option '--nope' (try --help)\n" },
		{ { "-x" }, "prog: unknown option '-x' (try --help)\n" },
		{ { "-jc" }, "prog: unknown option '-jc' (try --help)\n" },
		{ { "--count" }, "prog: --count needs a value\n" },
		{ { "--count=abc" }, "prog: --count: 'abc' is not a number\n" },
		{ { "--count=-1" }, "prog: --count: '-1' is not a number\n" },
		{ { "--count= 5" }, "prog: --count: ' 5' is not a number\n" },
		{ { "--count=5x" }, "prog: --count: '5x' is not a number\n" },
		{ { "--count=" }, "prog: --count: '' is not a number\n" },
		{ { "--count=0" }, "prog: --count: 0 is not within 1..100\n" },
		{ { "-c", "101" }, "prog: --count: 101 is not within 1..100\n" },
		{ { "--count=99999999999999999999999" },
		  "prog: --count: '99999999999999999999999' is not a number\n" },
		{ { "--json=yes" }, "prog: --json takes no value\n" },
		{ { "--dir=" }, "prog: --dir: empty value\n" },
		{ { "--mode", "fast" },
		  "prog: --mode: 'fast' is not one of: both lseek reopen\n" },
	};
	size_t i;
	char *err;
	int first;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse(&err, &first, cases[i].args[0],
				       cases[i].args[1], NULL), OPT_ERROR);
		assert_string_equal(err, cases[i].message);
		free(err);
	}
}

static void usage_lists_everything(void **state)
{
	size_t len = 0;
	char *out;
	FILE *f;

	(void)state;
	f = open_memstream(&out, &len);
	opt_usage(f, "prog", "Does things.", opts);
	fclose(f);
	assert_non_null(strstr(out, "Usage: prog [OPTIONS]\nDoes things.\n"));
	assert_non_null(strstr(out, "-j, --json"));
	assert_non_null(strstr(out, "-c, --count N"));
	assert_non_null(strstr(out, "how many (1..100)"));
	assert_non_null(strstr(out, "--dir DIR"));
	assert_non_null(strstr(out, "how (both|lseek|reopen)"));
	assert_non_null(strstr(out, "-h, --help"));
	free(out);
}

static void count_lists(void **state)
{
	unsigned long out[4];
	char msg[128];

	(void)state;
	assert_int_equal(opt_parse_count_list("0,100,200,max", "max",
					      ULONG_MAX, out, 4, msg,
					      sizeof(msg)), 4);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 100);
	assert_int_equal(out[2], 200);
	assert_true(out[3] == ULONG_MAX);
	assert_int_equal(opt_parse_count_list("5", NULL, 0, out, 4, msg,
					      sizeof(msg)), 1);
	assert_int_equal(out[0], 5);
}

static void count_list_errors(void **state)
{
	static const char *const bad[] = {
		"", ",", "1,", ",1", "1,,2", "abc", "1,max", "-1", "1 ,2",
		"1,2,3,4,5", "99999999999999999999999",
	};
	unsigned long out[4];
	char msg[128];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(opt_parse_count_list(bad[i], NULL, 0, out, 4,
						      msg, sizeof(msg)), -1);
	assert_int_equal(opt_parse_count_list("1,2,3,4,5", NULL, 0, out, 4,
					      msg, sizeof(msg)), -1);
	assert_string_equal(msg, "more than 4 items in '1,2,3,4,5'");
	assert_int_equal(opt_parse_count_list("7,x", "max", 1, out, 4, msg,
					      sizeof(msg)), -1);
	assert_string_equal(msg, "'x' is not a number or max");
}

/* opt_parse_main_to() on argv; what it printed goes to *out and *err. */
static int parse_main(char **out, char **err, ...)
{
	char *argv[16] = { "prog" };
	size_t olen = 0, elen = 0;
	va_list ap;
	FILE *fo, *fe;
	int argc = 1, ret;

	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	memset(&v, 0, sizeof(v));
	fo = open_memstream(out, &olen);
	fe = open_memstream(err, &elen);
	ret = opt_parse_main_to("prog", "Does things.", opts, argc, argv, fo,
				fe);
	fclose(fo);
	fclose(fe);
	return ret;
}

static void main_prologue(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(parse_main(&out, &err, "--json", NULL), OPT_MAIN_GO);
	assert_true(v.json);
	assert_string_equal(out, "");
	assert_string_equal(err, "");
	free(out);
	free(err);

	/* help: exit 0, usage with the summary on out */
	assert_int_equal(parse_main(&out, &err, "--help", NULL), 0);
	assert_non_null(strstr(out, "Usage: prog [OPTIONS]\nDoes things.\n"));
	assert_non_null(strstr(out, "--json"));
	assert_string_equal(err, "");
	free(out);
	free(err);

	/* a bad option: exit 2, the message on err */
	assert_int_equal(parse_main(&out, &err, "--count=0", NULL), 2);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "--count: 0 is not within 1..100"));
	free(out);
	free(err);

	/* an argument that is not an option: exit 2, named */
	assert_int_equal(parse_main(&out, &err, "-j", "stray", NULL), 2);
	assert_string_equal(err, "prog: unexpected argument 'stray'\n");
	free(out);
	free(err);
}

static void list_membership(void **state)
{
	(void)state;
	assert_true(opt_list_has("mknod", "mknod"));
	assert_true(opt_list_has("stat,mknod,tar", "mknod"));
	assert_true(opt_list_has("stat,mknod", "stat"));
	assert_true(opt_list_has(",,mknod,", "mknod"));
	/* whole items only */
	assert_false(opt_list_has("mknodx", "mknod"));
	assert_false(opt_list_has("xmknod,stat", "mknod"));
	assert_false(opt_list_has("mkno", "mknod"));
	assert_false(opt_list_has("", "mknod"));
	assert_false(opt_list_has("stat,,tar", ""));
}

static const struct {
	const char *name;
	int other;
} groups[] = {
	{ "mknod", 1 }, { "stat", 2 }, { "tar", 3 },
};

static void list_unknown_items(void **state)
{
	char bad[8];

	(void)state;
	assert_int_equal(OPT_LIST_UNKNOWN("tar,mknod", groups,
					  ARRAY_SIZE(groups), bad,
					  sizeof(bad)), 0);
	assert_int_equal(OPT_LIST_UNKNOWN(",stat,,", groups,
					  ARRAY_SIZE(groups), bad,
					  sizeof(bad)), 0);
	assert_int_equal(OPT_LIST_UNKNOWN("tar,cpio,ustat", groups,
					  ARRAY_SIZE(groups), bad,
					  sizeof(bad)), -1);
	assert_string_equal(bad, "cpio");
	/* a prefix of a name is not the name */
	assert_int_equal(OPT_LIST_UNKNOWN("mkno", groups, ARRAY_SIZE(groups),
					  bad, sizeof(bad)), -1);
	assert_string_equal(bad, "mkno");
	/* a long item is cut to the buffer */
	assert_int_equal(OPT_LIST_UNKNOWN("stat,averyverylongname", groups,
					  ARRAY_SIZE(groups), bad,
					  sizeof(bad)), -1);
	assert_string_equal(bad, "averyve");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_and_short_forms),
		cmocka_unit_test(defaults_stay),
		cmocka_unit_test(arguments_after_options),
		cmocka_unit_test(help),
		cmocka_unit_test(errors_name_the_option),
		cmocka_unit_test(usage_lists_everything),
		cmocka_unit_test(count_lists),
		cmocka_unit_test(count_list_errors),
		cmocka_unit_test(main_prologue),
		cmocka_unit_test(list_membership),
		cmocka_unit_test(list_unknown_items),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
