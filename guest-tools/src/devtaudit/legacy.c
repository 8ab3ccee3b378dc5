// SPDX-License-Identifier: GPL-2.0
/*
 * The older ways of asking for a device number.  On x86-64, stat(2) is
 * newstat: the kernel's struct stat has a 64-bit st_rdev holding the
 * 32-bit encoding.  The i386 system calls (int $0x80, when the kernel has
 * IA32 emulation) still include oldstat, whose struct __old_kernel_stat
 * has a 16-bit st_rdev filled by old_encode_dev() without any check, and
 * stat, whose compat struct has a 32-bit one.  ustat(2) takes the device
 * as an unsigned int, like mknod.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devt.h"
#include "devtaudit.h"

#define SUB "stat"

/* A system call this kernel does not have: the one meaning of ENOSYS. */
static bool no_such_call(long err)
{
	return err == ENOSYS;
}

/* Nodes asked about: 8:8 fits every encoding, the others do not. */
static const struct edge probes[] = {
	{ 8, 1 }, { 8, 256 }, { 4095, 1048575 },
};

#ifdef __x86_64__

/* arch/x86/include/uapi/asm/stat.h, x86-64 */
struct kernel_stat64 {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	unsigned long times[6];
	long unused[3];
};

/* The head of struct __old_kernel_stat: everything is 16 bits. */
struct old_kernel_stat {
	uint16_t st_dev, st_ino, st_mode, st_nlink, st_uid, st_gid, st_rdev;
	uint16_t pad;
	uint32_t rest[8];
};

/* struct compat_stat of x86 (arch/x86/include/asm/compat.h) */
struct compat_stat32 {
	uint32_t st_dev, st_ino;
	uint16_t st_mode, st_nlink, st_uid, st_gid;
	uint32_t st_rdev;
	uint32_t rest[11];
};

#define I386_OLDSTAT 18
#define I386_GETPID 20
#define I386_STAT 106

static sigjmp_buf int80_fault;
static long int80_ret;	/* static: survives the jump back */

static void on_fault(int sig)
{
	siglongjmp(int80_fault, sig);
}

/*
 * An i386 system call with two pointer arguments below 4 GiB.  Returns
 * its result, or LONG_MIN when int $0x80 faulted: no IA32 emulation.
 */
static long int80(long nr, void *arg1, void *arg2)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_segv;

	int80_ret = LONG_MIN;
	sigaction(SIGSEGV, &sa, &old_segv);
	if (!sigsetjmp(int80_fault, 1)) {
		long r;

		__asm__ __volatile__("int $0x80"
				     : "=a"(r)
				     : "a"(nr), "b"((unsigned long)arg1),
				       "c"((unsigned long)arg2)
				     : "memory", "r8", "r9", "r10", "r11");
		int80_ret = r;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	return int80_ret;
}

static void stat_syscall(struct audit *a, const char *path,
			 const struct edge *e, char *name, size_t size)
{
	uint32_t want = kdev_new_encode(kdev_mkdev(e->major, e->minor));
	struct kernel_stat64 ks;

	snprintf(name, size, "stat-syscall/%u:%u", e->major, e->minor);
	memset(&ks, 0, sizeof(ks));
	if (syscall(SYS_stat, path, &ks)) {
		audit_add(a, V_FAIL, name, "stat(2): %s", errno_name(errno));
		return;
	}
	if (ks.st_rdev != want)
		audit_add(a, V_FAIL, name,
			  "st_rdev 0x%lx, new_encode_dev 0x%08x", ks.st_rdev,
			  want);
	else
		audit_add(a, V_PASS, name,
			  "%zu-byte st_rdev holds the 32-bit encoding 0x%08x",
			  sizeof(ks.st_rdev), want);
}

static void old_stat(struct audit *a, char *low, const struct edge *e,
		     char *name, size_t size)
{
	uint32_t k = kdev_mkdev(e->major, e->minor), back;
	struct old_kernel_stat *os = (void *)(low + 2048);
	char got[24];
	long ret;

	snprintf(name, size, "oldstat-i386/%u:%u", e->major, e->minor);
	memset(os, 0, sizeof(*os));
	ret = int80(I386_OLDSTAT, low, os);
	if (no_such_call(-ret)) {
		audit_add(a, V_UNSUPPORTED, name, "oldstat: no such call");
		return;
	}
	if (ret == -EOVERFLOW) {
		audit_add(a, V_UNSUPPORTED, name,
			  "oldstat refuses the node: EOVERFLOW (inode number or link count over 16 bits)");
		return;
	}
	if (ret) {
		audit_add(a, V_FAIL, name, "oldstat: %s", errno_name((int)ret));
		return;
	}
	back = kdev_old_decode(os->st_rdev);
	if (os->st_rdev != kdev_old_encode(k))
		audit_add(a, V_FAIL, name,
			  "16-bit st_rdev 0x%04x, old_encode_dev gives 0x%04x",
			  os->st_rdev, kdev_old_encode(k));
	else if (back == k)
		audit_add(a, V_PASS, name, "16-bit st_rdev 0x%04x",
			  os->st_rdev);
	else
		audit_add(a, V_TRUNCATES, name,
			  "16-bit st_rdev 0x%04x reads as %s, with no error",
			  os->st_rdev, kdev_format(got, sizeof(got), back));
}

static void compat_stat(struct audit *a, char *low, const struct edge *e,
			char *name, size_t size)
{
	uint32_t want = kdev_new_encode(kdev_mkdev(e->major, e->minor));
	struct compat_stat32 *cs = (void *)(low + 2048);
	long ret;

	snprintf(name, size, "stat-i386/%u:%u", e->major, e->minor);
	memset(cs, 0, sizeof(*cs));
	ret = int80(I386_STAT, low, cs);
	if (ret) {
		audit_add(a, no_such_call(-ret) ? V_UNSUPPORTED : V_FAIL, name,
			  "i386 stat: %s", errno_name((int)ret));
		return;
	}
	if (cs->st_rdev != want)
		audit_add(a, V_FAIL, name, "32-bit st_rdev 0x%08x, want 0x%08x",
			  cs->st_rdev, want);
	else
		audit_add(a, V_PASS, name, "32-bit st_rdev 0x%08x", want);
}

void audit_stat(struct audit *a)
{
	char path[PATH_MAX], node[48], name[48], *low;
	const struct edge *e;
	bool i386;
	size_t i;
	int ret;

	ret = audit_subdir(a, SUB);
	if (ret) {
		report_error(&a->rep, "%s/%s: %s", a->dir, SUB,
			     errno_name(ret));
		return;
	}
	/* i386 calls see only the low 32 bits of a pointer */
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED) {
		report_error(&a->rep, "mmap below 4 GiB: %s",
			     errno_name(errno));
		return;
	}
	i386 = int80(I386_GETPID, NULL, NULL) == getpid();
	if (!i386) {
		audit_add(a, V_UNSUPPORTED, "oldstat-i386",
			  "int $0x80 faults: this kernel has no i386 system calls (CONFIG_IA32_EMULATION)");
		audit_add(a, V_UNSUPPORTED, "stat-i386",
			  "int $0x80 faults: this kernel has no i386 system calls (CONFIG_IA32_EMULATION)");
	}
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		e = &probes[i];
		edge_node_name(node, sizeof(node), e);
		audit_path(a, path, sizeof(path), SUB, node);
		ret = make_block_node(path, e->major, e->minor);
		if (ret) {
			report_error(&a->rep, "mknod %s: %s", path,
				     errno_name(ret));
			continue;
		}
		if (strlen(path) >= 2048) {
			report_error(&a->rep, "%s: path too long", path);
			continue;
		}
		strcpy(low, path);
		stat_syscall(a, path, e, name, sizeof(name));
		if (i386) {
			old_stat(a, low, e, name, sizeof(name));
			compat_stat(a, low, e, name, sizeof(name));
		}
	}
	munmap(low, 4096);
}

#else

void audit_stat(struct audit *a)
{
	audit_add(a, V_UNSUPPORTED, "stat-syscall",
		  "the raw stat checks are written for x86-64");
}

#endif

/* ustat(2) takes an unsigned int: a wider dev_t loses its upper half. */
void audit_ustat(struct audit *a)
{
	unsigned long buf[8];	/* struct ustat: int, long, 2 x char[6] */
	struct stat st;
	dev_t wide;
	long ret;

	if (stat(a->dir, &st)) {
		report_error(&a->rep, "stat %s: %s", a->dir, errno_name(errno));
		return;
	}
	ret = syscall(SYS_ustat, (unsigned long)st.st_dev, buf);
	if (ret && no_such_call(errno)) {
		audit_add(a, V_UNSUPPORTED, "ustat", "ustat(2): no such call");
		return;
	}
	if (ret) {
		audit_add(a, V_FAIL, "ustat", "ustat(%u:%u), our tmpfs: %s",
			  major(st.st_dev), minor(st.st_dev), errno_name(errno));
		return;
	}
	audit_add(a, V_PASS, "ustat", "ustat(%u:%u) answers for our tmpfs",
		  major(st.st_dev), minor(st.st_dev));

	wide = makedev(major(st.st_dev) + 4096, minor(st.st_dev));
	ret = syscall(SYS_ustat, (unsigned long)wide, buf);
	if (ret)
		audit_add(a, V_PASS, "ustat-past-edge",
			  "ustat(%u:%u) refused: %s", major(wide), minor(wide),
			  errno_name(errno));
	else
		audit_add(a, V_TRUNCATES, "ustat-past-edge",
			  "ustat(%u:%u) answers for %u:%u (our tmpfs): the upper 32 bits of dev_t are dropped",
			  major(wide), minor(wide), major(st.st_dev),
			  minor(st.st_dev));
}
