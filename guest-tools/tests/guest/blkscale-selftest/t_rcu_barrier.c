// SPDX-License-Identifier: GPL-2.0
/*
 * BLKSCALE_IOC_RCU_BARRIER, after majors were registered and
 * unregistered: the barriers it ran are the ones the kernel has
 * (kvfree_rcu_barrier() from 6.12), and a bad pointer is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "selftest.h"

/* Whether the running kernel is 6.12 or later. */
static int kernel_has_kvfree_barrier(void)
{
	struct utsname u;
	unsigned int major, minor;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return -1;
	return major > 6 || (major == 6 && minor >= 12);
}

void t_rcu_barrier(struct st_ctx *ctx, struct st_result *r)
{
	int32_t majors[64];
	uint64_t samples[64];
	struct helper_batch res;
	uint32_t done;
	int fd, has;

	(void)ctx;
	fd = st_open(r);
	if (fd < 0)
		return;
	has = kernel_has_kvfree_barrier();
	if (helper_batch_register(fd, 64, "bsmrcu", 0, samples, majors,
				  &res) == 0 && res.done)
		helper_batch_unregister(fd, res.done, samples, majors, &res);
	if (st_expect_err(r, "barrier", helper_rcu_barrier(fd, &done), 0)) {
		if (!(done & BLKSCALE_BARRIER_RCU))
			st_fail(r, "rcu_barrier() not reported: bits %#x",
				done);
		else if (has >= 0 &&
			 !!(done & BLKSCALE_BARRIER_KVFREE_RCU) != has)
			st_fail(r, "kvfree_rcu_barrier() %s on a kernel %s 6.12",
				has ? "not run" : "run",
				has ? "from" : "before");
		else if (done & ~(BLKSCALE_BARRIER_RCU |
				  BLKSCALE_BARRIER_KVFREE_RCU))
			st_fail(r, "unknown bits %#x", done);
		else
			st_note(r, "barriers %#x", done);
	}
	st_expect_err(r, "result at NULL",
		      st_ioctl(fd, BLKSCALE_IOC_RCU_BARRIER, NULL), -EFAULT);
	st_expect_err(r, "result at a kernel address",
		      st_ioctl(fd, BLKSCALE_IOC_RCU_BARRIER,
			       (void *)(uintptr_t)-4096), -EFAULT);
	close(fd);
}
