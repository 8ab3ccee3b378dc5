// SPDX-License-Identifier: GPL-2.0
/*
 * The last phase: with every file closed, unload the helper module, open
 * a node of every major the run ever held, load the module again and open
 * them once more.  A major the module forgot while the kernel still had
 * it registered would keep the unloaded module's probe as its callback:
 * the first open() of such a node runs freed code, which the kernel log
 * watcher sees.  Nothing may be registered on those majors any more, so
 * every open() must fail with ENXIO.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fuzz.h"
#include "reload.h"

#define MODULE_NAME "blkscale_majors"
#define MODPROBE "/proc/sys/kernel/modprobe"
#define DEV_WAIT_STEPS 100
#define DEV_WAIT_US 50000

/* The usermode modprobe helper, emptied so lookups do not exec it. */
static int modprobe_swap(const char *text, char *old, size_t size)
{
	int fd = open(MODPROBE, O_RDWR | O_CLOEXEC);
	ssize_t len;
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (old) {
		len = read(fd, old, size - 1);
		old[len > 0 ? len : 0] = '\0';
		lseek(fd, 0, SEEK_SET);
	}
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Open a node of every major the run held; how many behaved. */
static void open_nodes(struct run *run, struct reload *rl, const char *when)
{
	char node[256], saved[256];
	int32_t major;
	int fd, swapped;

	snprintf(node, sizeof(node), "%s/bsfuzz-reload-%d", run->node_dir,
		 (int)getpid());
	swapped = modprobe_swap("\n", saved, sizeof(saved)) == 0;
	for (major = 1; major < BLKSCALE_MAJOR_LIMIT; major++) {
		if (!run->ever_held[major] || run->in_baseline[major])
			continue;
		unlink(node);
		if (mknod(node, S_IFBLK | 0600, makedev(major, 0))) {
			violation(run, "%s: mknod of major %d: %s", when, major,
				  errno_name(-errno));
			break;
		}
		fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		rl->opened++;
		if (fd >= 0) {
			close(fd);
			violation(run, "%s: a node of major %d opened: something is still registered",
				  when, major);
		} else if (errno != ENXIO) {
			violation(run, "%s: open of major %d: %s, expected ENXIO",
				  when, major, errno_name(-errno));
		}
	}
	unlink(node);
	if (swapped)
		modprobe_swap(saved, NULL, 0);
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, i;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	for (i = 0; i < DEV_WAIT_STEPS; i++) {
		if (!access(HELPER_DEV, F_OK))
			return 0;
		usleep(DEV_WAIT_US);
	}
	return -ETIMEDOUT;
}

void reload_phase(struct run *run, struct reload *rl)
{
	int32_t major;

	for (major = 1; major < BLKSCALE_MAJOR_LIMIT; major++)
		rl->majors += run->ever_held[major] && !run->in_baseline[major];
	rl->rmmod = syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) ?
		    -errno : 0;
	if (rl->rmmod) {
		violation(run, "rmmod %s: %s", MODULE_NAME,
			  errno_name(rl->rmmod));
		return;
	}
	open_nodes(run, rl, "after rmmod");
	rl->insmod = load_module(run->module_path);
	if (rl->insmod) {
		violation(run, "insmod %s: %s", run->module_path,
			  errno_name(rl->insmod));
		return;
	}
	open_nodes(run, rl, "after insmod");
	rl->done = true;
}
