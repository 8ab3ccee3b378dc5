/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkscale-selftest: the helper module's error paths and the block major
 * behaviour each kernel variant must show.  One function per test; each
 * starts and ends with /proc/devices as it was at the start of the run,
 * and may not make the kernel warn unless it says so.
 */
#ifndef BLKSCALE_SELFTEST_H
#define BLKSCALE_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "helper.h"
#include "procdevices.h"

enum st_status { ST_PASS, ST_FAIL, ST_SKIP };

struct st_result {
	enum st_status status;
	char detail[512];
};

enum st_expect { EXPECT_NONE, EXPECT_STOCK, EXPECT_PATCHED };

struct st_ctx {
	enum st_expect expect;
	unsigned long ops;		/* leak test: register+unregister calls */
	unsigned long slab_tolerance_kb;	/* at most; see t_leak.c */
	unsigned long inject_leak;	/* leak test: bytes the module leaks per registration */
	const char *compat_bin;		/* the i386 build of this selftest */
	unsigned long threads;
	const char *node_dir;
	struct procdevices baseline;
	int kmsg;			/* /dev/kmsg, or -1 */

	/* dynamic capacity, measured once and shared by several tests */
	bool cap_done;
	int cap_error;			/* helper error, 0 if measured */
	unsigned int cap_count;
	int cap_stop;
	int32_t *cap_majors;
};

struct st_test {
	const char *name;
	const char *desc;
	void (*fn)(struct st_ctx *ctx, struct st_result *r);
};

/* A failure keeps the first message; a skip or note sets the detail. */
void st_fail(struct st_result *r, const char *fmt, ...)
	__printf(2, 3);
void st_skip(struct st_result *r, const char *fmt, ...)
	__printf(2, 3);
void st_note(struct st_result *r, const char *fmt, ...)
	__printf(2, 3);

/* Fail unless ret (0 or -errno) is want; returns true if it was. */
bool st_expect_err(struct st_result *r, const char *what, int ret, int want);

/* A raw ioctl: 0 or -errno. */
int st_ioctl(int fd, unsigned long cmd, void *arg);

/* Open the helper device; on failure the test fails and -1 is returned. */
int st_open(struct st_result *r);

int st_read_procdevices(struct procdevices *pd, struct st_result *r);
/* Block majors and names added to and removed from the baseline. */
int st_procdev_changes(struct st_ctx *ctx, struct procdev_list *added,
		       struct procdev_list *removed, struct st_result *r);
/* Name /proc/devices lists for a block major now, "" if none. */
void st_block_name(int major, char *name, size_t size);
/* A block major in [lo, hi] that nothing has registered, or -1. */
int st_free_major(int lo, int hi);

/* Warnings/bugs the kernel logged since the last call; first in line. */
unsigned int st_kmsg_problems(struct st_ctx *ctx, char *line, size_t size);

/* Slab: from /proc/meminfo in kB, or -1. */
long st_slab_kb(void);

/* Measure the dynamic capacity once (majors released again). */
void st_capacity(struct st_ctx *ctx);

/* Tests */
void t_version(struct st_ctx *ctx, struct st_result *r);
void t_unknown_ioctl(struct st_ctx *ctx, struct st_result *r);
void t_bad_names(struct st_ctx *ctx, struct st_result *r);
void t_bad_counts(struct st_ctx *ctx, struct st_result *r);
void t_bad_majors(struct st_ctx *ctx, struct st_result *r);
void t_bad_pointers(struct st_ctx *ctx, struct st_result *r);
void t_explicit_register(struct st_ctx *ctx, struct st_result *r);
void t_unregister_unknown(struct st_ctx *ctx, struct st_result *r);
void t_close_releases(struct st_ctx *ctx, struct st_result *r);
void t_proc_devices(struct st_ctx *ctx, struct st_result *r);
void t_probe_lookup(struct st_ctx *ctx, struct st_result *r);
void t_wrong_name(struct st_ctx *ctx, struct st_result *r);
void t_non_root(struct st_ctx *ctx, struct st_result *r);
void t_capacity(struct st_ctx *ctx, struct st_result *r);
void t_dynamic_ranges(struct st_ctx *ctx, struct st_result *r);
void t_static_collisions(struct st_ctx *ctx, struct st_result *r);
void t_explicit_limit(struct st_ctx *ctx, struct st_result *r);
void t_char_probe(struct st_ctx *ctx, struct st_result *r);
void t_concurrency(struct st_ctx *ctx, struct st_result *r);
void t_leak(struct st_ctx *ctx, struct st_result *r);
void t_reserved_fields(struct st_ctx *ctx, struct st_result *r);
void t_clock_empty(struct st_ctx *ctx, struct st_result *r);
void t_rcu_barrier(struct st_ctx *ctx, struct st_result *r);
void t_compat(struct st_ctx *ctx, struct st_result *r);
void t_first_dynamic(struct st_ctx *ctx, struct st_result *r);
void t_procdev_resume(struct st_ctx *ctx, struct st_result *r);
void t_procdev_churn(struct st_ctx *ctx, struct st_result *r);

#endif
