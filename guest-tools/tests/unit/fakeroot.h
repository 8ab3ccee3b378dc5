/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake root for the tool tests: files, directories and links under
 * `root` (a mkdtemp() directory the test sets up), named relative to it.
 * Include after <cmocka.h>; failures end the test with fail_msg().
 */
#ifndef BLKSCALE_TESTS_FAKEROOT_H
#define BLKSCALE_TESTS_FAKEROOT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_LEN 1024

static char root[64];

static inline void path_of(char *buf, const char *rel)
{
	int n = snprintf(buf, PATH_LEN, "%s/%s", root, rel);

	if (n < 0 || n >= PATH_LEN)
		fail_msg("%s/%s: path too long", root, rel);
}

/* REL and every directory above it, as mkdir -p. */
static inline void mkdirs(const char *rel)
{
	char path[PATH_LEN], *p;

	path_of(path, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

static inline void put(const char *rel, const char *text)
{
	char path[PATH_LEN];
	FILE *f;

	path_of(path, rel);
	f = fopen(path, "w");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* REL as a symbolic link to TARGET, replacing what was there. */
static inline void link_to(const char *rel, const char *target)
{
	char path[PATH_LEN];

	path_of(path, rel);
	unlink(path);
	if (symlink(target, path))
		fail_msg("symlink %s: %s", path, strerror(errno));
}

#endif
