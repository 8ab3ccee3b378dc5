/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devtaudit: what user-space interfaces make of device numbers at the
 * edges of the kernel's 12/20-bit dev_t, and past them.
 */
#ifndef DEVTAUDIT_H
#define DEVTAUDIT_H

#include <limits.h>	/* PATH_MAX: the size of every path buffer */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "errname.h"
#include "report.h"

enum verdict {
	V_PASS,		/* the number came back unchanged, or was refused */
	V_FAIL,		/* wrong where nothing in the format explains it */
	V_TRUNCATES,	/* the interface is narrower and loses bits */
	V_UNSUPPORTED,	/* the kernel or the machine lacks the interface */
	V_COUNT,
};

extern const char *const verdict_names[V_COUNT];

struct check {
	char name[48];
	enum verdict verdict;
	char detail[320];
};

struct audit {
	const char *dir;	/* our directory on a tmpfs */
	const char *busybox;
	const char *sysfs;
	struct check *checks;
	size_t n, cap;
	size_t count[V_COUNT];
	struct report rep;
};

/* Device numbers the kernel can hold, at the edges of the split. */
struct edge {
	uint32_t major, minor;
};

#define NVALID_EDGES 8
#define NPAST_EDGES 2
extern const struct edge valid_edges[NVALID_EDGES];
/* glibc can make these; the kernel's dev_t cannot hold them */
extern const struct edge past_edges[NPAST_EDGES];

void audit_add(struct audit *a, enum verdict v, const char *name,
	       const char *fmt, ...) __printf(4, 5);

/* "<dir>/<sub>/<file>" into buf. */
const char *audit_path(const struct audit *a, char *buf, size_t size,
		       const char *sub, const char *file);

/* mkdir <dir>/<sub>; 0 or -errno. */
int audit_subdir(const struct audit *a, const char *sub);

/* Node name of an edge: b-<major>-<minor>. */
const char *edge_node_name(char *buf, size_t size, const struct edge *e);

/* A block node for major:minor at path; 0 or -errno. */
int make_block_node(const char *path, uint32_t major, uint32_t minor);

/*
 * Run argv (argv[0] a path) in cwd with stdin from in_path and stdout to
 * out_path (NULL: /dev/null); the first line of its stderr goes to msg.  Returns 0 when it
 * exited 0, else -1 with what happened in msg.
 */
int audit_run(const struct audit *a, const char *const argv[], const char *cwd,
	      const char *in_path, const char *out_path, char *msg, size_t len);

/* The check groups, one file each. */
void audit_mknod(struct audit *a);	/* nodes.c */
void audit_makedev(struct audit *a);	/* arith.c */
void audit_stat(struct audit *a);	/* legacy.c */
void audit_ustat(struct audit *a);	/* legacy.c */
void audit_loop(struct audit *a);	/* loop.c */
void audit_cpio(struct audit *a);	/* archive.c */
void audit_tar(struct audit *a);	/* archive.c */

#endif
