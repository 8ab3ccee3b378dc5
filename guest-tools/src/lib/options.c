// SPDX-License-Identifier: GPL-2.0
/* Table-driven option parsing and help (see options.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* Strictly decimal digits, no sign, no spaces, no overflow. */
static int parse_ulong(const char *s, unsigned long *val)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*val = strtoul(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len)
{
	for (; opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (; opts->name; opts++)
		if (opts->short_name && opts->short_name == c)
			return opts;
	return NULL;
}

static int set_value(const char *prog, const struct opt *o, const char *val,
		     FILE *err)
{
	const char *const *c;
	unsigned long n;

	switch (o->type) {
	case OPT_FLAG:
		*(bool *)o->dest = true;
		return 0;
	case OPT_UINT:
		if (parse_ulong(val, &n)) {
			fprintf(err, "%s: --%s: '%s' is not a number\n", prog,
				o->name, val);
			return -1;
		}
		if (n < o->min || n > o->max) {
			fprintf(err, "%s: --%s: %lu is not within %lu..%lu\n",
				prog, o->name, n, o->min, o->max);
			return -1;
		}
		*(unsigned long *)o->dest = n;
		return 0;
	case OPT_STRING:
		if (!val[0]) {
			fprintf(err, "%s: --%s: empty value\n", prog, o->name);
			return -1;
		}
		*(const char **)o->dest = val;
		return 0;
	case OPT_CHOICE:
		for (c = o->choices; *c; c++) {
			if (!strcmp(*c, val)) {
				*(const char **)o->dest = *c;
				return 0;
			}
		}
		fprintf(err, "%s: --%s: '%s' is not one of:", prog, o->name, val);
		for (c = o->choices; *c; c++)
			fprintf(err, " %s", *c);
		fputc('\n', err);
		return -1;
	}
	return -1;
}

int opt_parse(const char *prog, const struct opt *opts, int argc,
	      char *const argv[], int *first_arg, FILE *err)
{
	const struct opt *o;
	const char *arg, *val, *eq;
	int i;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1])
			break;
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
			return OPT_HELP;

		val = NULL;
		if (arg[1] == '-') {
			eq = strchr(arg + 2, '=');
			o = find_long(opts, arg + 2,
				      eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
			if (eq)
				val = eq + 1;
		} else {
			o = arg[2] ? NULL : find_short(opts, arg[1]);
		}
		if (!o) {
			fprintf(err, "%s: unknown option '%s' (try --help)\n",
				prog, arg);
			return OPT_ERROR;
		}
		if (o->type == OPT_FLAG) {
			if (val) {
				fprintf(err, "%s: --%s takes no value\n", prog,
					o->name);
				return OPT_ERROR;
			}
		} else if (!val) {
			if (i + 1 >= argc) {
				fprintf(err, "%s: --%s needs a value\n", prog,
					o->name);
				return OPT_ERROR;
			}
			val = argv[++i];
		}
		if (set_value(prog, o, val, err))
			return OPT_ERROR;
	}
	if (first_arg)
		*first_arg = i;
	return OPT_OK;
}

void opt_usage(FILE *out, const char *prog, const char *summary,
	       const struct opt *opts)
{
	const char *const *c;
	char left[64];
	int n;

	fprintf(out, "Usage: %s [OPTIONS]\n%s\n\nOptions:\n", prog, summary);
	for (; opts->name; opts++) {
		n = 0;
		if (opts->short_name)
			n = snprintf(left, sizeof(left), "-%c, ",
				     opts->short_name);
		snprintf(left + n, sizeof(left) - n, "--%s%s%s", opts->name,
			 opts->type == OPT_FLAG ? "" : " ",
			 opts->type == OPT_FLAG ? "" :
			 (opts->metavar ? opts->metavar : "VALUE"));
		fprintf(out, "  %-28s %s", left, opts->help);
		if (opts->type == OPT_UINT)
			fprintf(out, " (%lu..%lu)", opts->min, opts->max);
		if (opts->type == OPT_CHOICE) {
			fputs(" (", out);
			for (c = opts->choices; *c; c++)
				fprintf(out, "%s%s", c == opts->choices ? "" : "|",
					*c);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	fprintf(out, "  %-28s %s\n", "-h, --help", "show this help and exit");
}

int opt_parse_main_to(const char *prog, const char *summary,
		      const struct opt *opts, int argc, char *const argv[],
		      FILE *out, FILE *err)
{
	int ret, first;

	ret = opt_parse(prog, opts, argc, argv, &first, err);
	if (ret == OPT_HELP) {
		opt_usage(out, prog, summary, opts);
		return 0;
	}
	if (ret != OPT_OK)
		return 2;
	if (first < argc) {
		fprintf(err, "%s: unexpected argument '%s'\n", prog,
			argv[first]);
		return 2;
	}
	return OPT_MAIN_GO;
}

int opt_parse_main(const char *prog, const char *summary,
		   const struct opt *opts, int argc, char *const argv[])
{
	return opt_parse_main_to(prog, summary, opts, argc, argv, stdout,
				 stderr);
}

/* The next non-empty item of a list at *p: its start and length. */
static const char *list_next(const char **p, size_t *len)
{
	const char *item;

	while (**p == ',')
		(*p)++;
	if (!**p)
		return NULL;
	item = *p;
	*len = strcspn(item, ",");
	*p = item + *len;
	return item;
}

bool opt_list_has(const char *list, const char *name)
{
	size_t len, want = strlen(name);
	const char *item;

	while ((item = list_next(&list, &len)))
		if (len == want && !memcmp(item, name, len))
			return true;
	return false;
}

int opt_list_unknown(const char *list, const char *const *first, size_t n,
		     size_t stride, char *bad, size_t size)
{
	const char *item, *name;
	size_t i, len;

	while ((item = list_next(&list, &len))) {
		for (i = 0; i < n; i++) {
			name = *(const char *const *)((const char *)first +
						      i * stride);
			if (strlen(name) == len && !memcmp(item, name, len))
				break;
		}
		if (i == n) {
			snprintf(bad, size, "%.*s", (int)len, item);
			return -1;
		}
	}
	return 0;
}

long opt_parse_count_list(const char *text, const char *word,
			  unsigned long word_value, unsigned long *out,
			  size_t max, char *msg, size_t msglen)
{
	const char *p = text, *end;
	char item[32];
	size_t n = 0, len;

	if (!text[0]) {
		snprintf(msg, msglen, "empty list");
		return -1;
	}
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0 || len >= sizeof(item)) {
			snprintf(msg, msglen, "bad item %zu in '%s'", n + 1,
				 text);
			return -1;
		}
		if (n == max) {
			snprintf(msg, msglen, "more than %zu items in '%s'", max,
				 text);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (word && !strcmp(item, word)) {
			out[n] = word_value;
		} else if (parse_ulong(item, &out[n])) {
			snprintf(msg, msglen, "'%s' is not a number%s%s", item,
				 word ? " or " : "", word ? word : "");
			return -1;
		}
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	return (long)n;
}
