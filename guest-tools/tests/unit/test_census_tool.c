// SPDX-License-Identifier: GPL-2.0
/*
 * The diskcensus program (build/guest-tools/bin/diskcensus) against fake
 * sysfs, proc and dev trees given with --sysfs-root, --proc-root and
 * --dev-root, with --no-read so no real device is opened: expectations
 * from the environment and from options, each consistency check failing
 * once, repeated dev_ts, every disk's identity (serial, size) against the
 * plan's groups, a sas group's disks below a SAS end device, dev_ts off
 * their driver's numbering, and the exit status
 * that goes with each.  sdiw is sd's disk 256, the first beyond the 16 sd
 * majors' first minors: 8:256.
 * Device nodes need mknod: without it the tests are skipped.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakeroot.h"

static char tool[PATH_LEN + 32];
static char out[64 * 1024];
static char cmd_extra[2 * PATH_LEN];

static void put_bytes(const char *rel, const void *data, size_t len)
{
	char path[PATH_LEN];
	FILE *f;

	path_of(path, rel);
	f = fopen(path, "w");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* A SCSI disk's unit serial number VPD page, as sysfs gives it. */
static void vpd80(const char *disk, const char *serial)
{
	unsigned char page[64] = { 0, 0x80, 0, 0 };
	char rel[128];
	size_t n = strlen(serial);

	page[3] = (unsigned char)n;
	memcpy(page + 4, serial, n);
	snprintf(rel, sizeof(rel), "sys/block/%s/device/vpd_pg80", disk);
	put_bytes(rel, page, 4 + n);
}

static int node(const char *name, unsigned int major, unsigned int minor)
{
	char rel[128], path[PATH_LEN];

	snprintf(rel, sizeof(rel), "dev/%s", name);
	path_of(path, rel);
	unlink(path);
	return mknod(path, S_IFBLK | 0600, makedev(major, minor));
}

/*
 * A disk in the fake sysfs: its attributes, its device and driver links,
 * its /sys/dev/block link, its /dev node.
 */
static void disk(const char *name, unsigned int major, unsigned int minor,
		 const char *device, const char *driver)
{
	char rel[256], text[64];

	snprintf(rel, sizeof(rel), "sys/block/%s", name);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "sys/block/%s/dev", name);
	snprintf(text, sizeof(text), "%u:%u\n", major, minor);
	put(rel, text);
	snprintf(rel, sizeof(rel), "sys/block/%s/size", name);
	put(rel, "131072\n");
	snprintf(rel, sizeof(rel), "sys/devices/%s", device);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "sys/devices/%s/driver", device);
	snprintf(text, sizeof(text), "../../bus/drivers/%s", driver);
	link_to(rel, text);
	snprintf(rel, sizeof(rel), "sys/block/%s/device", name);
	snprintf(text, sizeof(text), "../../devices/%s", device);
	link_to(rel, text);
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major, minor);
	snprintf(text, sizeof(text), "../../block/%s", name);
	link_to(rel, text);
	if (node(name, major, minor))
		fail_msg("mknod: %s", strerror(errno));
}

static const char partitions[] =
	"major minor  #blocks  name\n\n"
	" 254        0      65536 vda\n"
	" 254      256      65536 vdq\n"
	"   8        0      65536 sda\n"
	"   8      256      65536 sdiw\n";

/* Two virtio disks and two on virtio-scsi, all consistent. */
static int setup(void **state)
{
	char path[PATH_LEN], self[PATH_LEN], *slash;
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	/* build/guest-tools/unit/<test> -> build/guest-tools/bin/diskcensus */
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(tool, sizeof(tool), "%s/../bin/diskcensus", self);

	snprintf(root, sizeof(root), "/tmp/census-tool.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mkdirs("dev");
	mkdirs("proc");
	mkdirs("sys/dev/block");
	mkdirs("sys/class/scsi_host/host0");
	put("sys/class/scsi_host/host0/proc_name", "virtio_scsi\n");
	put("proc/devices", "Character devices:\n  1 mem\n\n"
	    "Block devices:\n  8 sd\n254 virtblk\n");
	put("proc/partitions", partitions);
	put("proc/uptime", "12.34 20.00\n");
	path_of(path, "dev/probe");
	if (mknod(path, S_IFBLK | 0600, makedev(8, 0)))
		return 0;	/* no mknod here: every test skips */
	unlink(path);
	disk("vda", 254, 0, "virtio1", "virtio_blk");
	disk("vdq", 254, 256, "virtio2", "virtio_blk");
	disk("sda", 8, 0, "0:0:0:0", "sd");
	disk("sdiw", 8, 256, "0:0:0:1", "sd");
	return 0;
}

static int teardown(void **state)
{
	char cmd[sizeof(root) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void need_tool_and_tree(void)
{
	char path[PATH_LEN];

	if (access(tool, X_OK)) {
		print_message("no %s (make guest-tools)\n", tool);
		skip();
	}
	path_of(path, "dev/vda");
	if (access(path, F_OK)) {
		print_message("mknod is not allowed here\n");
		skip();
	}
}

/*
 * Run the tool with the fake roots, --no-read and extra arguments; env
 * is "NAME=value ..." or NULL.  Returns the exit status; stdout and
 * stderr in out.
 */
static int run(const char *env, const char *extra)
{
	/* the plan of whoever runs the tests must not leak in */
	static const char clean[] =
		"env -u BLKSCALE_EXPECT_VIRTIO -u BLKSCALE_EXPECT_SCSI -u BLKSCALE_EXPECT_SIM";
	char cmd[4 * PATH_LEN];
	size_t n = 0;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd),
		 "%s %s '%s' --json --no-read --sysfs-root %s/sys --proc-root %s/proc --dev-root %s/dev %s 2>&1",
		 clean, env ? env : "", tool, root, root, root,
		 extra ? extra : "");
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void has(const char *text)
{
	if (!strstr(out, text))
		fail_msg("no '%s' in:\n%s", text, out);
}

static void all_consistent(void **state)
{
	(void)state;
	need_tool_and_tree();
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 0);
	has("\"disks_expected\": 4");
	has("\"disks_found\": 4");
	has("\"expected_from\": \"environment\"");
	has("\"devt_unique\": true");
	has("\"max_minor\": 256");
	has("\"disks_minor_over_255\": 2");
	has("\"consistency_errors\": 0");
	has("\"name\": \"virtblk\",\n      \"disks\": 2");
	has("\"uptime_s\": 12.34");
	has("\"ok\": true");
}

static void expectations(void **state)
{
	(void)state;
	need_tool_and_tree();
	/* nothing expected: four disks too many */
	assert_int_equal(run(NULL, NULL), 1);
	has("virtio: 2 disks found, 0 expected");
	/* options win over the environment */
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=7 BLKSCALE_EXPECT_SCSI=2",
			     "--expect-virtio 2"), 0);
	has("\"expected_from\": \"option\"");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     "--expect-sim 1"), 1);
	has("sim: 0 disks found, 1 expected");
	/* a bad value: one line naming the variable, nothing else */
	assert_int_equal(run("BLKSCALE_EXPECT_SCSI=2x", NULL), 2);
	assert_string_equal(out,
			    "diskcensus: BLKSCALE_EXPECT_SCSI: '2x' is not a number of disks (0..1000000)\n");
}

/* Each view disagreeing once: a wrong node, a missing link, a size. */
static void inconsistent_views(void **state)
{
	char path[PATH_LEN];

	(void)state;
	need_tool_and_tree();
	assert_int_equal(node("vda", 254, 16), 0);
	link_to("sys/dev/block/8:0", "../../block/sdiw");
	put("proc/partitions", "major minor  #blocks  name\n\n"
	    " 254        0      65536 vda\n"
	    " 254      256      65535 vdq\n"
	    "   8      256      65536 sdiw\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 1);
	has("\"consistency_errors\": 4");
	has("is 254:16, sysfs says 254:0");
	has("8:0 leads to sdiw");
	has("8:0 not listed");
	has("65535 KiB listed, sysfs size is 131072 sectors");
	has("\"ok\": false");

	/* put it back, then lose a node */
	assert_int_equal(node("vda", 254, 0), 0);
	link_to("sys/dev/block/8:0", "../../block/sda");
	put("proc/partitions", partitions);
	path_of(path, "dev/sdiw");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 1);
	has("\"consistency_errors\": 1");
	has("\"check\": \"dev-node\"");
	has("\"error\": \"No such file or directory\"");
	assert_int_equal(node("sdiw", 8, 256), 0);
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 0);
}

/*
 * udev's links (--links): every disk needs one in by-id, a disk of an
 * excused kind does not; by-path links and partitions' links are counted.
 */
static void unlink_rel(const char *rel)
{
	char path[PATH_LEN];

	path_of(path, rel);
	unlink(path);
}

static void udev_links(void **state)
{
	char dir[PATH_LEN + 16];

	(void)state;
	need_tool_and_tree();
	path_of(dir, "dev/disk");
	mkdirs("dev/disk/by-id");
	mkdirs("dev/disk/by-path");
	link_to("dev/disk/by-id/virtio-vd-0", "../../vda");
	link_to("dev/disk/by-id/virtio-vd-1", "../../vdq");
	link_to("dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_scsi-0", "../../sda");
	link_to("dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_scsi-0-part1",
		"../../sda1");
	link_to("dev/disk/by-path/pci-0000:00:03.0", "../../vda");
	snprintf(cmd_extra, sizeof(cmd_extra), "--links %s", dir);
	/* sdiw has none: the census fails and names it */
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     cmd_extra), 1);
	has("\"disks_with_by_id\": 3");
	has("\"disks_without_by_id\": 1");
	has("\"by_id_links\": 4");
	has("\"disks_with_by_path\": 1");
	has("\"disk\": \"sdiw\"");
	has("\"check\": \"by-id\"");
	has("sdiw: by-id: no link in");
	/* its kind excused: ok */
	snprintf(cmd_extra, sizeof(cmd_extra), "--links %s --no-by-id null_blk,virtio_scsi",
		 dir);
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     cmd_extra), 0);
	has("\"disks_excused\": 1");
	has("\"virtio_scsi\"");
	has("\"null_blk\"");
	/* a kind that does not exist: exit 2, one line */
	assert_int_equal(run(NULL, "--no-by-id nvme"), 2);
	has("diskcensus: --no-by-id: 'nvme': not a list of");
	/* with its link, the census passes without excuses */
	link_to("dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_scsi-1", "../../sdiw");
	snprintf(cmd_extra, sizeof(cmd_extra), "--links %s", dir);
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     cmd_extra), 0);
	has("\"disks_without_by_id\": 0");
	unlink_rel("dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_scsi-1");
}

static void repeated_devt(void **state)
{
	(void)state;
	need_tool_and_tree();
	put("sys/block/sdiw/dev", "8:0\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 1);
	has("\"devt_unique\": false");
	has("\"devt_duplicates\": 1");
	has("8:0 is also sda");
	put("sys/block/sdiw/dev", "8:256\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 0);
}

static void broken_files(void **state)
{
	(void)state;
	need_tool_and_tree();
	put("proc/partitions", "major minor #blocks name\n\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 1);
	has("proc/partitions: line 1: expected 'major minor  #blocks  name'");
	put("proc/partitions", partitions);
	put("sys/block/vda/dev", "254:x\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     NULL), 1);
	has("dev is '254:x'");
	put("sys/block/vda/dev", "254:0\n");
}

#define PLAN_OK "blk virtio_blk 2 131072 0\nsan virtio_scsi 2 131072 0\n"
#define BOTH "BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2"

static void serials(const char *vda, const char *vdq)
{
	put("sys/block/vda/serial", vda);
	put("sys/block/vdq/serial", vdq);
	vpd80("sda", "san-0");
	vpd80("sdiw", "san-1");
}

static int run_plan(const char *groups)
{
	char extra[PATH_LEN + 64], path[PATH_LEN];

	put("groups", groups);
	path_of(path, "groups");
	snprintf(extra, sizeof(extra), "--groups %s", path);
	return run(BOTH, extra);
}

static void identity(void **state)
{
	(void)state;
	need_tool_and_tree();
	serials("blk-0\n", "blk-1\n");
	assert_int_equal(run_plan(PLAN_OK), 0);
	has("\"checked\": 4");
	has("\"ok\": 4");
	has("\"missing\": 0");
	has("\"bad\": []");
	has("\"virtio\": {\n        \"checked\": 2,\n        \"ok\": 2");

	/* vdq claims vda's serial: one duplicate, blk-1 missing */
	serials("blk-0\n", "blk-0\n");
	assert_int_equal(run_plan(PLAN_OK), 1);
	has("\"duplicated\": 1");
	has("\"missing\": 1");
	has("blk-0 is also the serial of vda");
	has("no disk has serial blk-1");
	has("diskcensus: vdq (blk-0): serial: blk-0 is also the serial of vda");

	/* a serial the plan does not have, and a SCSI disk without one */
	serials("blk-0\n", "blk-7\n");
	put("sys/block/sdiw/device/vpd_pg80", "");
	assert_int_equal(run_plan(PLAN_OK), 1);
	has("\"unexpected\": 2");
	has("blk-7 is not a disk of the plan");
	has("the disk reports no serial");

	/* the size is not the group's; a virtio serial on a SCSI disk */
	serials("blk-0\n", "blk-1\n");
	vpd80("sdiw", "blk-1");
	assert_int_equal(run_plan("blk virtio_blk 2 131072 0\n"
				  "san virtio_scsi 2 262144 0\n"), 1);
	has("\"mismatched\": 2");
	has("\"duplicated\": 1");
	has("san-0 has 131072 sectors, its group 262144");
	has("blk-1 is a scsi disk, group blk is virtio_blk");
	vpd80("sdiw", "san-1");

	/* one LUN on two paths: sda and sdiw carry its serial */
	vpd80("sda", "mp-0");
	vpd80("sdiw", "mp-0");
	assert_int_equal(run_plan("blk virtio_blk 2 131072 0\n"
				  "mp virtio_scsi 1 131072 0 2\n"), 0);
	has("\"checked\": 4");
	has("\"ok\": 4");
	has("\"expected\": 4");
	has("\"bad\": []");
	/* a path whose serial is another's: one path short, one unexpected */
	vpd80("sdiw", "mp-0p1");
	assert_int_equal(run_plan("blk virtio_blk 2 131072 0\n"
				  "mp virtio_scsi 1 131072 0 2\n"), 1);
	has("\"unexpected\": 1");
	has("\"missing\": 1");
	has("mp-0p1 is not a disk of the plan");
	has("mp-0 has 1 of its 2 paths");
	/* three disks for a LUN of two paths */
	vpd80("sdiw", "mp-0");
	assert_int_equal(run_plan("blk virtio_blk 2 131072 0\n"
				  "mp virtio_scsi 1 131072 0 1\n"), 1);
	has("mp-0 is also the serial of sda");
	vpd80("sda", "san-0");
	vpd80("sdiw", "san-1");

	/* a groups file that is not one: one line, exit 2 */
	assert_int_equal(run_plan("blk virtio_blk two 131072 0\n"), 2);
	has("line 1: not 'id kind disks sectors signed [paths]'");
	assert_int_equal(run_plan("blk virtio_blk 2 131072 0\nblk virtio_blk 2 131072 0\n"), 2);
	has("line 2: group blk listed twice");
}

/*
 * A LUN's paths share udev's by-id names, which point at one of them:
 * sdiw, the second path of sda's LUN, passes without a link of its own,
 * and fails once its LUN has none.
 */
static void lun_links(void **state)
{
	char dir[PATH_LEN + 16], groups[PATH_LEN], extra[2 * PATH_LEN + 64];
	const char *plan = "blk virtio_blk 2 131072 0\n"
			   "mp virtio_scsi 1 131072 0 2\n";

	(void)state;
	need_tool_and_tree();
	path_of(dir, "dev/disk");
	mkdirs("dev/disk/by-id");
	link_to("dev/disk/by-id/virtio-vd-0", "../../vda");
	link_to("dev/disk/by-id/virtio-vd-1", "../../vdq");
	link_to("dev/disk/by-id/scsi-3310000000000001", "../../sda");
	serials("blk-0\n", "blk-1\n");
	vpd80("sda", "mp-0");
	vpd80("sdiw", "mp-0");
	put("groups", plan);
	path_of(groups, "groups");
	snprintf(extra, sizeof(extra), "--groups %s --links %s", groups, dir);
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     extra), 0);
	has("\"disks_with_by_id\": 3");
	has("\"disks_with_lun_by_id\": 1");
	has("\"disks_without_by_id\": 0");
	/* not a LUN with paths: sdiw needs its own link */
	vpd80("sdiw", "mp-1");
	put("groups", "blk virtio_blk 2 131072 0\nmp virtio_scsi 2 131072 0\n");
	assert_int_equal(run("BLKSCALE_EXPECT_VIRTIO=2 BLKSCALE_EXPECT_SCSI=2",
			     extra), 1);
	has("\"disks_with_lun_by_id\": 0");
	has("sdiw (mp-1): by-id: no link in");
	unlink_rel("dev/disk/by-id/scsi-3310000000000001");
	unlink_rel("dev/disk/by-id/virtio-vd-0");
	unlink_rel("dev/disk/by-id/virtio-vd-1");
	vpd80("sda", "san-0");
	vpd80("sdiw", "san-1");
}

/*
 * A sas group's disks must hang off a SAS end device, as mptsas adds them
 * through the SAS transport class: sdiw moves to an mptsas host below
 * port-1:0/end_device-1:0; sda, on virtio-scsi, may not claim the group.
 */
static void sas_transport(void **state)
{
	const char *sas = "host1/port-1:0/end_device-1:0/target1:0:0/1:0:0:0";
	const char *plan = "blk virtio_blk 2 131072 0\n"
			   "san virtio_scsi 1 131072 0\nhba sas 1 131072 0\n";
	char rel[128], text[128];

	(void)state;
	need_tool_and_tree();
	mkdirs("sys/class/scsi_host/host1");
	put("sys/class/scsi_host/host1/proc_name", "mptsas\n");
	snprintf(rel, sizeof(rel), "sys/devices/%s", sas);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "sys/devices/%s/driver", sas);
	link_to(rel, "/bus/drivers/sd");
	snprintf(text, sizeof(text), "../../devices/%s", sas);
	link_to("sys/block/sdiw/device", text);
	serials("blk-0\n", "blk-1\n");
	vpd80("sda", "san-0");
	vpd80("sdiw", "hba-0");
	assert_int_equal(run_plan(plan), 0);
	has("\"sas_transport\": 1");
	has("\"bad\": []");

	vpd80("sda", "hba-0");
	vpd80("sdiw", "san-0");
	assert_int_equal(run_plan(plan), 1);
	has("\"sas_transport\": 0");
	has("hba-0 of sas group hba is not below a SAS end device");

	link_to("sys/block/sdiw/device", "../../devices/0:0:0:1");
	serials("blk-0\n", "blk-1\n");
}

/* sda on sd's second major would be disk 16's place, not disk 0's. */
static void devt_scheme(void **state)
{
	(void)state;
	need_tool_and_tree();
	assert_int_equal(run(BOTH, NULL), 0);
	has("\"sd_beyond_256\": 1");
	has("\"sd_beyond_256_ok\": 1");
	put("sys/block/sdiw/dev", "259:0\n");
	link_to("sys/dev/block/259:0", "../../block/sdiw");
	assert_int_equal(node("sdiw", 259, 0), 0);
	put("proc/partitions", "major minor  #blocks  name\n\n"
	    " 254        0      65536 vda\n"
	    " 254      256      65536 vdq\n"
	    "   8        0      65536 sda\n"
	    " 259        0      65536 sdiw\n");
	assert_int_equal(run(BOTH, NULL), 1);
	has("\"consistency_errors\": 0");
	has("sdiw is 259:0, sd gives sdiw 8:256");
	has("\"sd_beyond_256_ok\": 0");
	put("sys/block/sdiw/dev", "8:256\n");
	assert_int_equal(node("sdiw", 8, 256), 0);
	put("proc/partitions", partitions);
	assert_int_equal(run(BOTH, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_consistent),
		cmocka_unit_test(expectations),
		cmocka_unit_test(inconsistent_views),
		cmocka_unit_test(repeated_devt),
		cmocka_unit_test(udev_links),
		cmocka_unit_test(lun_links),
		cmocka_unit_test(broken_files),
		cmocka_unit_test(identity),
		cmocka_unit_test(sas_transport),
		cmocka_unit_test(devt_scheme),
	};

	return cmocka_run_group_tests_name("census_tool", tests, setup,
					   teardown);
}
