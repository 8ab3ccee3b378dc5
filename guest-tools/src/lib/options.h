/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options defined once, as a table that drives both parsing
 * and --help.  Accepted forms: --name, --name=value, --name value, -x,
 * -x value; "--" ends the options.  --help and -h are always there.
 */
#ifndef BLKSCALE_OPTIONS_H
#define BLKSCALE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_FLAG,	/* bool *: set to true */
	OPT_UINT,	/* unsigned long *: decimal, within [min, max] */
	OPT_STRING,	/* const char **: any non-empty text */
	OPT_CHOICE,	/* const char **: one of choices */
};

struct opt {
	const char *name;		/* long name, without "--" */
	char short_name;		/* 0 for none */
	enum opt_type type;
	void *dest;
	const char *metavar;		/* shown in --help for values */
	const char *help;
	unsigned long min, max;		/* OPT_UINT bounds */
	const char *const *choices;	/* OPT_CHOICE, NULL-terminated */
};

/* Table entries; the table ends with OPT_END. */
#define OPT_BOOL(n, s, d, h) \
	{ .name = (n), .short_name = (s), .type = OPT_FLAG, .dest = (d), \
	  .help = (h) }
#define OPT_NUM(n, s, d, m, h, lo, hi) \
	{ .name = (n), .short_name = (s), .type = OPT_UINT, .dest = (d), \
	  .metavar = (m), .help = (h), .min = (lo), .max = (hi) }
#define OPT_STR(n, s, d, m, h) \
	{ .name = (n), .short_name = (s), .type = OPT_STRING, .dest = (d), \
	  .metavar = (m), .help = (h) }
#define OPT_ONE_OF(n, s, d, m, h, c) \
	{ .name = (n), .short_name = (s), .type = OPT_CHOICE, .dest = (d), \
	  .metavar = (m), .help = (h), .choices = (c) }
#define OPT_END { .name = NULL }

enum {
	OPT_OK = 0,
	OPT_HELP = 1,	/* --help was given: print opt_usage() and exit 0 */
	OPT_ERROR = -1,	/* a message naming the option went to err */
};

/*
 * Parse argv[1..argc-1].  On OPT_OK, *first_arg (if not NULL) is the index
 * of the first argument that is not an option.
 */
int opt_parse(const char *prog, const struct opt *opts, int argc,
	      char *const argv[], int *first_arg, FILE *err);

void opt_usage(FILE *out, const char *prog, const char *summary,
	       const struct opt *opts);

/*
 * The start of every tool's main(): parse the options, print the help to
 * out after --help, refuse arguments that are not options (messages to
 * err).  Returns OPT_MAIN_GO to go on, else the exit status: 0 after
 * --help, 2 after a bad option or argument.
 */
#define OPT_MAIN_GO (-1)
int opt_parse_main_to(const char *prog, const char *summary,
		      const struct opt *opts, int argc, char *const argv[],
		      FILE *out, FILE *err);
/* The same with stdout and stderr. */
int opt_parse_main(const char *prog, const char *summary,
		   const struct opt *opts, int argc, char *const argv[]);

/*
 * Whether name is one of the items of a comma-separated list such as
 * "mknod,stat" (whole items only; empty items are ignored).
 */
bool opt_list_has(const char *list, const char *name);

/*
 * The first item of a comma-separated list that is not among n names,
 * copied to bad (cut to size); 0 when every item is known, else -1.
 * The names are the `const char *` fields at first, first + stride, ...:
 * OPT_LIST_UNKNOWN() takes them from the .name of a table's entries.
 */
int opt_list_unknown(const char *list, const char *const *first, size_t n,
		     size_t stride, char *bad, size_t size);
#define OPT_LIST_UNKNOWN(list, table, n, bad, size) \
	opt_list_unknown((list), &(table)[0].name, (n), sizeof((table)[0]), \
			 (bad), (size))

/*
 * A comma-separated list of counts, e.g. "0,100,200,max": word (if not
 * NULL) stands for word_value.  Returns the number of values or -1 with a
 * message in msg.
 */
long opt_parse_count_list(const char *text, const char *word,
			  unsigned long word_value, unsigned long *out,
			  size_t max, char *msg, size_t msglen);

#endif
