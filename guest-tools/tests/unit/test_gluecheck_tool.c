// SPDX-License-Identifier: GPL-2.0
/*
 * The gluecheck program (build/guest-tools/bin/gluecheck), the verdict of
 * the gluestress step, against a fake sysfs tree (--sysfs-root) of two
 * scsi_debug disks with all five glue directories, captured-style kernel
 * logs and a kmemleak report (tests/unit/data): the clean state passes,
 * and each bad case fails with its one-line reason: a glue directory
 * left empty under a removed device, one missing, one holding two
 * devices, a dangling class link, a lockdep splat, list corruption, a
 * sysfs name created twice, a log that lost its start, kmemleak's leaks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakeroot.h"

#define TARGET "sys/devices/pseudo_0/adapter0/host0/target0:0:0"

static char tool[PATH_LEN + 32];
static char out[64 * 1024];

static void unlink_rel(const char *rel)
{
	char path[PATH_LEN];

	path_of(path, rel);
	assert_int_equal(unlink(path), 0);
}

static void rm(const char *rel)
{
	char path[PATH_LEN], cmd[PATH_LEN + 16];

	path_of(path, rel);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

/* A device directory: its uevent file marks it as one. */
static void device(const char *rel)
{
	char path[PATH_LEN];

	mkdirs(rel);
	if (snprintf(path, sizeof(path), "%s/uevent", rel) >= PATH_LEN)
		fail_msg("%s: too long", rel);
	put(path, "");
}

/* A class device in its glue directory under dev, and its class link. */
static void class_dev(const char *dev, const char *class, const char *name)
{
	char rel[PATH_LEN], link[2 * PATH_LEN], target[2 * PATH_LEN];

	snprintf(rel, sizeof(rel), "%s/%s/%s", dev, class, name);
	device(rel);
	snprintf(link, sizeof(link), "sys/class/%s/%s", class, name);
	/* sys/class/<class>/<name> -> ../../devices/... */
	snprintf(target, sizeof(target), "../../%s", rel + 4);
	link_to(link, target);
}

/* A scsi_debug disk with all five glue directories. */
static void disk(const char *hctl, const char *sd, const char *sg)
{
	char dev[PATH_LEN], link[PATH_LEN], target[2 * PATH_LEN];

	snprintf(dev, sizeof(dev), TARGET "/%s", hctl);
	device(dev);
	if (snprintf(link, sizeof(link), "%s/type", dev) >= PATH_LEN)
		fail_msg("%s: too long", dev);
	put(link, "0\n");
	snprintf(link, sizeof(link), "sys/bus/scsi/devices/%s", hctl);
	snprintf(target, sizeof(target), "../../../%s", dev + 4);
	link_to(link, target);
	class_dev(dev, "block", sd);
	class_dev(dev, "scsi_disk", hctl);
	class_dev(dev, "scsi_device", hctl);
	class_dev(dev, "scsi_generic", sg);
	class_dev(dev, "bsg", hctl);
}

static void tree(void)
{
	static const char *const classes[] = {
		"block", "scsi_disk", "scsi_device", "scsi_generic", "bsg",
		"scsi_host", "mem",
	};
	char rel[PATH_LEN];
	size_t i;

	rm("sys");
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/class/%s", classes[i]);
		mkdirs(rel);
	}
	mkdirs("sys/bus/scsi/devices");
	device("sys/devices/pseudo_0");
	device("sys/devices/pseudo_0/adapter0");
	device("sys/devices/pseudo_0/adapter0/host0");
	class_dev("sys/devices/pseudo_0/adapter0/host0", "scsi_host", "host0");
	device(TARGET);
	disk("0:0:0:0", "sda", "sg0");
	disk("0:0:0:1", "sdb", "sg1");
	/* a virtual device's glue directory, and a non-device directory */
	mkdirs("sys/devices/virtual");
	class_dev("sys/devices/virtual", "mem", "null");
	mkdirs("sys/devices/pseudo_0/adapter0/host0/power");
}

static int setup(void **state)
{
	char self[PATH_LEN], *slash;
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	/* build/guest-tools/unit/<test> -> build/guest-tools/bin/gluecheck */
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(tool, sizeof(tool), "%s/../bin/gluecheck", self);
	snprintf(root, sizeof(root), "/tmp/gluecheck-tool.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[sizeof(root) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void need_tool(void)
{
	if (access(tool, X_OK)) {
		print_message("no %s (make guest-tools)\n", tool);
		skip();
	}
}

static const char *data(const char *name)
{
	static char path[PATH_LEN];
	const char *dir = getenv("BLKSCALE_TEST_DATA");

	if (!dir)
		fail_msg("BLKSCALE_TEST_DATA is not set (run-unit-tests.sh sets it)");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/*
 * Run the tool on the fake tree with extra arguments; stdout in out, the
 * last line of stderr in reason.  Returns the exit status.
 */
static char reason[1024];

static int run(const char *extra)
{
	char cmd[4 * PATH_LEN], errpath[PATH_LEN], line[1024];
	size_t n;
	FILE *p;
	int status;

	path_of(errpath, "stderr");
	snprintf(cmd, sizeof(cmd), "'%s' --json --sysfs-root %s/sys %s 2>%s", tool,
		 root, extra ? extra : "", errpath);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	reason[0] = '\0';
	p = fopen(errpath, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		snprintf(reason, sizeof(reason), "%s", line);
	fclose(p);
	return WEXITSTATUS(status);
}

static void has(const char *text)
{
	if (!strstr(out, text))
		fail_msg("no '%s' in:\n%s", text, out);
}

static void reason_has(const char *text)
{
	if (strncmp(reason, "gluecheck: ", 11) || !strstr(reason, text))
		fail_msg("reason '%s' does not name '%s'", reason, text);
}

static void clean_state_passes(void **state)
{
	(void)state;
	need_tool();
	tree();
	assert_int_equal(run(NULL), 0);
	has("\"scsi_devices\": 2");
	has("\"classes\": \"block scsi_disk scsi_device scsi_generic bsg\"");
	/* five per disk, scsi_host, virtual/mem */
	has("\"glue_dirs\": 12");
	has("\"glue_children\": 12");
	has("\"problems\": 0");
	assert_string_equal(reason, "");
}

static void leaked_glue_under_removed_device(void **state)
{
	(void)state;
	need_tool();
	tree();
	/* 0:0:0:2 left the bus; its directory and an empty block/ stayed */
	device(TARGET "/0:0:0:2");
	mkdirs(TARGET "/0:0:0:2/block");
	assert_int_equal(run(NULL), 1);
	has("empty glue directory devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:2/block");
	has("glue directory devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:2/block under a removed SCSI device");
	has("target0:0:0/0:0:0:2 is not on the SCSI bus");
	reason_has("problems, the first in the sysfs: ");
}

static void empty_glue_of_live_device(void **state)
{
	(void)state;
	need_tool();
	tree();
	rm(TARGET "/0:0:0:1/scsi_generic/sg1");
	unlink_rel("sys/class/scsi_generic/sg1");
	assert_int_equal(run(NULL), 1);
	has("0:0:0:1/scsi_generic/ holds 0 devices, not one");
	has("empty glue directory devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:1/scsi_generic");
	reason_has("0:0:0:1/scsi_generic/ holds 0 devices, not one");
}

static void missing_glue(void **state)
{
	(void)state;
	need_tool();
	tree();
	rm(TARGET "/0:0:0:1/bsg");
	rm("sys/class/bsg/0:0:0:1");
	assert_int_equal(run(NULL), 1);
	reason_has("1 problems, the first in the sysfs: 0:0:0:1 has no bsg/ glue directory");
	/* not a disk: no block/ or scsi_disk/ expected */
	tree();
	rm(TARGET "/0:0:0:1/bsg");
	rm("sys/class/bsg/0:0:0:1");
	put(TARGET "/0:0:0:1/type", "5\n");
	rm(TARGET "/0:0:0:1/block");
	rm("sys/class/block/sdb");
	assert_int_equal(run(NULL), 1);
	reason_has("1 problems, the first in the sysfs: 0:0:0:1 has no bsg/ glue directory");
}

static void glue_with_two_devices(void **state)
{
	(void)state;
	need_tool();
	tree();
	class_dev(TARGET "/0:0:0:0", "block", "sdc");
	assert_int_equal(run(NULL), 1);
	reason_has("0:0:0:0/block/ holds 2 devices, not one");
}

static void dangling_and_stray_class_links(void **state)
{
	(void)state;
	need_tool();
	tree();
	link_to("sys/class/block/sdd",
		"../../devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:7/block/sdd");
	assert_int_equal(run(NULL), 1);
	reason_has("class/block/sdd leads to no device");
	/* a link into a device that left the bus */
	tree();
	unlink_rel("sys/bus/scsi/devices/0:0:0:1");
	assert_int_equal(run(NULL), 1);
	has("class/scsi_disk/0:0:0:1 is under devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:1, which left the SCSI bus");
	has("target0:0:0/0:0:0:1 is not on the SCSI bus");
}

static void kernel_logs(void **state)
{
	char arg[2 * PATH_LEN];

	(void)state;
	need_tool();
	tree();
	snprintf(arg, sizeof(arg), "--log %s", data("klog-gluestress-clean.txt"));
	assert_int_equal(run(arg), 0);
	has("\"has_start\": true");
	has("\"lines\": 19");

	snprintf(arg, sizeof(arg), "--log %s", data("klog-gluestress-lockdep.txt"));
	assert_int_equal(run(arg), 1);
	reason_has("1 problems, the first in the kernel log: WARNING: possible circular locking dependency detected");

	snprintf(arg, sizeof(arg), "--log %s", data("klog-gluestress-list.txt"));
	assert_int_equal(run(arg), 1);
	reason_has("the first in the kernel log: list_del corruption. prev->next should be");
	has("kernel BUG at lib/list_debug.c:59!");

	snprintf(arg, sizeof(arg), "--log %s", data("klog-gluestress-dupname.txt"));
	assert_int_equal(run(arg), 1);
	reason_has("2 problems, the first in the kernel log: sysfs: cannot create duplicate filename '/devices/pseudo_0/adapter0/host0/target0:0:0/0:0:0:1/block'");

	snprintf(arg, sizeof(arg), "--log %s", data("klog-gluestress-wrapped.txt"));
	assert_int_equal(run(arg), 1);
	reason_has("the ring buffer wrapped");

	assert_int_equal(run("--log /nonexistent/dmesg.log"), 1);
	reason_has("/nonexistent/dmesg.log: No such file or directory");
}

static void kmemleak_report(void **state)
{
	char arg[2 * PATH_LEN];

	(void)state;
	need_tool();
	tree();
	snprintf(arg, sizeof(arg), "--no-sysfs --kmemleak %s",
		 data("kmemleak-gluestress.txt"));
	assert_int_equal(run(arg), 1);
	has("\"leaks\": 2");
	has("\"checked\": false");
	reason_has("2 problems, the first in the kmemleak: unreferenced object 0xffff888005c3a000 (size 64):, from kmalloc_trace+0x26/0x90");
	assert_int_equal(run("--no-sysfs --kmemleak /dev/null"), 0);
	has("\"leaks\": 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_state_passes),
		cmocka_unit_test(leaked_glue_under_removed_device),
		cmocka_unit_test(empty_glue_of_live_device),
		cmocka_unit_test(missing_glue),
		cmocka_unit_test(glue_with_two_devices),
		cmocka_unit_test(dangling_and_stray_class_links),
		cmocka_unit_test(kernel_logs),
		cmocka_unit_test(kmemleak_report),
	};

	return cmocka_run_group_tests_name("gluecheck_tool", tests, setup,
					   teardown);
}
