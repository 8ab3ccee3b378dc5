/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * blkscale_majors: interface between the helper module and the guest tools.
 *
 * Every structure starts with a version field that must equal
 * BLKSCALE_UAPI_VERSION; the module refuses any other value with -EINVAL.
 * A changed layout also changes the ioctl number, which the module answers
 * with -ENOTTY.  Bump the version whenever a structure or a meaning changes.
 *
 * Every structure has a flags field and reserved space that must be zero
 * (-EINVAL otherwise), so that a later version can give them a meaning
 * without an old module misreading what a new tool asks for.  Every __u64
 * sits at a multiple of 8 and every size is one, so i386 and x86_64 see
 * the same layout and 32-bit tools work through compat_ioctl.
 */
#ifndef _BLKSCALE_MAJORS_UAPI_H
#define _BLKSCALE_MAJORS_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define BLKSCALE_UAPI_VERSION	4

/* The misc device, created by devtmpfs as /dev/blkscale_majors. */
#define BLKSCALE_DEV_NAME	"blkscale_majors"

/*
 * register_blkdev() keeps 15 characters of a name; longer names would be
 * cut silently, so they are refused.  Allowed characters: A-Z a-z 0-9 _ - .
 */
#define BLKSCALE_NAME_MAX	15
#define BLKSCALE_NAME_SIZE	32	/* size of name fields, NUL included */

/* Batch names are the prefix followed by a decimal number. */
#define BLKSCALE_PREFIX_MAX	5
#define BLKSCALE_PREFIX_SIZE	16

/* A dev_t holds 12 bits of major: explicit majors are 1..4095. */
#define BLKSCALE_MAJOR_LIMIT	4096

/* Largest count of one batch or char probe. */
#define BLKSCALE_BATCH_MAX	4096

/* Largest count of empty regions one BLKSCALE_IOC_CLOCK_EMPTY times. */
#define BLKSCALE_CLOCK_PAIRS_MAX	65536

/* BLKSCALE_IOC_REGISTER: register one block major with a counting probe. */
struct blkscale_register {
	__u32 version;
	__s32 major;		/* in: 0 = dynamic, 1..4095 explicit; out: major */
	__u32 flags;		/* none defined: must be 0 */
	__u32 reserved;		/* must be 0 */
	__u64 ns;		/* out: time spent in __register_blkdev() */
	char name[BLKSCALE_NAME_SIZE];
};

/* Pass a name that differs from the registered one, to exercise the WARN. */
#define BLKSCALE_UNREG_WRONG_NAME	(1U << 0)

/* BLKSCALE_IOC_UNREGISTER: unregister a major held by this file. */
struct blkscale_unregister {
	__u32 version;
	__s32 major;
	__u32 flags;		/* BLKSCALE_UNREG_* */
	__u32 kept;		/* out, WRONG_NAME only: 1 if the kernel kept it */
	__u64 ns;		/* out: time spent in unregister_blkdev() */
	char name[BLKSCALE_NAME_SIZE];	/* must match, unless WRONG_NAME */
	__u64 reserved;		/* must be 0 */
};

#define BLKSCALE_BATCH_REGISTER		1	/* dynamic majors, until failure */
#define BLKSCALE_BATCH_UNREGISTER	2	/* most recently registered first */

/*
 * BLKSCALE_IOC_BATCH: a loop of register or unregister operations, each
 * call to the kernel timed on its own so that no syscall cost is mixed in.
 * A register loop stops at the first failure and reports it in stop_error;
 * the majors it obtained stay held by the file.
 */
struct blkscale_batch {
	__u32 version;
	__u32 op;		/* BLKSCALE_BATCH_* */
	__u32 count;		/* in: 1..BLKSCALE_BATCH_MAX operations at most */
	__u32 done;		/* out: operations that succeeded */
	__s32 stop_error;	/* out: 0, or -errno of the operation that stopped */
	__u32 name_base;	/* in, register: names are prefix + (name_base + i) */
	__u32 flags;		/* none defined: must be 0 */
	__u32 reserved;		/* must be 0 */
	char prefix[BLKSCALE_PREFIX_SIZE];
	__u64 samples;		/* in: user address of count __u64 ns, or 0 */
	__u64 majors;		/* in: user address of count __s32 majors, or 0 */
};

/*
 * BLKSCALE_IOC_CHAR_PROBE: allocate dynamic char majors (one minor each)
 * until the kernel refuses or limit is reached, then release them all.
 */
struct blkscale_char_probe {
	__u32 version;
	__u32 limit;		/* in: 1..BLKSCALE_BATCH_MAX */
	__u32 count;		/* out: majors obtained */
	__s32 stop_error;	/* out: 0 if limit was reached, else -errno */
	__u32 min_major;	/* out, if count > 0 */
	__u32 max_major;	/* out, if count > 0 */
	__u32 flags;		/* none defined: must be 0 */
	__u32 reserved;		/* must be 0 */
	__u64 samples;		/* in: user address of limit __u64 ns, or 0 */
	__u64 majors;		/* in: user address of limit __s32 majors, or 0 */
};

/*
 * BLKSCALE_IOC_PROBE_HITS: how often the kernel's lookup path called the
 * probe of a major since it was registered here.  strays counts probe
 * calls for a major that no file held at that moment; duplicates counts
 * majors the kernel handed out while the module already held them.  Both
 * are module-wide and must stay 0.
 */
struct blkscale_probe_hits {
	__u32 version;
	__s32 major;		/* in: 1..4095 */
	__u32 flags;		/* none defined: must be 0 */
	__u32 held;		/* out: 1 if this file holds the major */
	__u64 hits;		/* out */
	__u64 strays;		/* out */
	__u64 duplicates;	/* out */
	__u64 reserved;		/* must be 0 */
};

/*
 * BLKSCALE_IOC_CLOCK_EMPTY: the cost of an empty timed region in the
 * kernel, pairs times two back-to-back ktime_get_ns() reads: the clock
 * call the module puts around __register_blkdev(), unregister_blkdev()
 * and alloc_chrdev_region(), so the floor under every ns figure the
 * module returns.  Each region is one sample; nothing else is timed.
 */
struct blkscale_clock_empty {
	__u32 version;
	__u32 pairs;		/* in: 1..BLKSCALE_CLOCK_PAIRS_MAX */
	__u32 flags;		/* none defined: must be 0 */
	__u32 reserved;		/* must be 0 */
	__u64 samples;		/* in: user address of pairs __u64 ns, not 0 */
	__u64 min;		/* out: smallest sample */
	__u64 max;		/* out: largest sample */
};

/*
 * BLKSCALE_IOC_RCU_BARRIER: wait until every RCU callback queued so far
 * has run (rcu_barrier()) and, where the kernel has the call (6.12 and
 * later), until every kfree_rcu() batch queued so far is freed
 * (kvfree_rcu_barrier()).  What one round of unregistering freed through
 * RCU is then free before the next round is timed.  The __u32 receives
 * the BLKSCALE_BARRIER_* bits of the barriers that ran.
 */
#define BLKSCALE_BARRIER_RCU		(1U << 0)
#define BLKSCALE_BARRIER_KVFREE_RCU	(1U << 1)

#define BLKSCALE_IOC_MAGIC	0xBA

#define BLKSCALE_IOC_VERSION	_IOR(BLKSCALE_IOC_MAGIC, 0, __u32)
#define BLKSCALE_IOC_REGISTER	_IOWR(BLKSCALE_IOC_MAGIC, 1, struct blkscale_register)
#define BLKSCALE_IOC_UNREGISTER	_IOWR(BLKSCALE_IOC_MAGIC, 2, struct blkscale_unregister)
#define BLKSCALE_IOC_BATCH	_IOWR(BLKSCALE_IOC_MAGIC, 3, struct blkscale_batch)
#define BLKSCALE_IOC_CHAR_PROBE	_IOWR(BLKSCALE_IOC_MAGIC, 4, struct blkscale_char_probe)
#define BLKSCALE_IOC_PROBE_HITS	_IOWR(BLKSCALE_IOC_MAGIC, 5, struct blkscale_probe_hits)
#define BLKSCALE_IOC_CLOCK_EMPTY _IOWR(BLKSCALE_IOC_MAGIC, 6, struct blkscale_clock_empty)
#define BLKSCALE_IOC_RCU_BARRIER _IOR(BLKSCALE_IOC_MAGIC, 7, __u32)

#endif /* _BLKSCALE_MAJORS_UAPI_H */
