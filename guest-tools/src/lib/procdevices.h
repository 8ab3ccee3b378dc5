/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/devices: reading it whole, parsing it strictly ("Character
 * devices:" and "Block devices:" sections of "%3d %s" lines, as printed by
 * fs/proc/devices.c) and comparing two parses.
 */
#ifndef BLKSCALE_PROCDEVICES_H
#define BLKSCALE_PROCDEVICES_H

#include <stdbool.h>
#include <stddef.h>

#define PROCDEV_NAME_SIZE 64

struct procdev_entry {
	int major;
	char name[PROCDEV_NAME_SIZE];
};

struct procdev_list {
	struct procdev_entry *v;
	size_t n, cap;
};

struct procdevices {
	struct procdev_list chr;
	struct procdev_list blk;
	size_t lines;		/* all lines, headers and blank line included */
};

/*
 * Parse text (len bytes, need not be NUL-terminated).  Returns 0, or -1
 * with "line N: what" in err.  Char majors may repeat (several regions of
 * one major); block majors must be strictly ascending.
 */
int procdev_parse(const char *text, size_t len, struct procdevices *pd,
		  char *err, size_t errlen);

void procdev_free(struct procdevices *pd);

/* Name of a block major, or NULL if it is not listed. */
const char *procdev_block_name(const struct procdevices *pd, int major);

/*
 * Read a whole file with read() into *buf (NUL-terminated, malloc'ed).
 * Returns the length or -errno.
 */
long procdev_read_file(const char *path, char **buf);

/*
 * Read path (e.g. "/proc/devices") and parse it into pd; *bytes (if not
 * NULL) gets the text's length.  Returns 0; -errno when it cannot be
 * read ("PATH: ENOENT" in err); -EBADMSG when the text is not as the
 * kernel prints it ("PATH: line N: what" in err).
 */
int procdev_load(const char *path, struct procdevices *pd, size_t *bytes,
		 char *err, size_t errlen);

/*
 * The block majors of now that are not in base, and of base that are not
 * in now (or listed with another name); the char sections must be equal.
 * Lists are malloc'ed; returns 0 if the char sections are equal, 1 if
 * they differ, -1 without memory.
 */
int procdev_diff(const struct procdevices *base, const struct procdevices *now,
		 struct procdev_list *added, struct procdev_list *removed);

void procdev_list_free(struct procdev_list *l);

#endif
