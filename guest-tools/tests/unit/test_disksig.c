// SPDX-License-Identifier: GPL-2.0
/*
 * disksig: the signature the launcher writes into sector 0 of each
 * file-backed disk (the same bytes as launcher/tests/test_signatures.py
 * expects of the writer), serials, VPD page 0x80 and the plan's groups.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "disksig.h"

static char sector[4096];
static char err[160];

static void make(const char *text)
{
	memset(sector, 0, sizeof(sector));
	memcpy(sector, text, strlen(text));
}

#define GOOD "BLKSCALE-DISK 1\nserial jbod-4999\ngroup jbod\nindex 4999\nnonce 0123abcd\n"

static void good_signature(void **state)
{
	struct disksig sig;

	(void)state;
	make(GOOD);
	assert_int_equal(disksig_parse(sector, sizeof(sector), &sig, err,
				       sizeof(err)), 0);
	assert_string_equal(sig.serial, "jbod-4999");
	assert_string_equal(sig.group, "jbod");
	assert_int_equal(sig.index, 4999);
	assert_string_equal(sig.nonce, "0123abcd");
	/* a group id with a dash: the index is after the last one */
	make("BLKSCALE-DISK 1\nserial a-b-7\ngroup a-b\nindex 7\nnonce ff\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), 0);
	assert_string_equal(sig.group, "a-b");
}

static void bad_signatures(void **state)
{
	struct disksig sig;

	(void)state;
	make("");	/* a disk nobody signed reads as zeroes */
	assert_int_equal(disksig_parse(sector, sizeof(sector), &sig, err,
				       sizeof(err)), -1);
	assert_string_equal(err, "no signature in sector 0");
	make("BLKSCALE-DISK 2\nserial a-1\ngroup a\nindex 1\nnonce ff\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), -1);
	assert_string_equal(err, "no signature in sector 0");
	make("BLKSCALE-DISK 1\nserial a-1\ngroup a\nindex 1\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), -1);
	assert_string_equal(err, "signature damaged");
	make("BLKSCALE-DISK 1\nserial a-1\ngroup a\nindex 2\nnonce ff\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "signature serial disagrees with its group and index");
	make("BLKSCALE-DISK 1\nserial a-1\ngroup b\nindex 1\nnonce ff\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), -1);
	make("BLKSCALE-DISK 1\nserial a-1\ngroup a\nindex x\nnonce ff\n");
	assert_int_equal(disksig_parse(sector, 512, &sig, err, sizeof(err)), -1);
	assert_string_equal(err, "signature index is not a number");
	make(GOOD);
	assert_int_equal(disksig_parse(sector, 100, &sig, err, sizeof(err)), -1);
	assert_string_equal(err, "shorter than a sector");
	/* a newline past the sector does not end a field inside it */
	memset(sector, 'x', sizeof(sector));
	memcpy(sector, "BLKSCALE-DISK 1\nserial ", 23);
	sector[600] = '\n';
	assert_int_equal(disksig_parse(sector, sizeof(sector), &sig, err,
				       sizeof(err)), -1);
}

static void serials(void **state)
{
	char group[DISKSIG_ID_SIZE];
	unsigned long index;

	(void)state;
	assert_int_equal(serial_split("san-12", group, sizeof(group), &index), 0);
	assert_string_equal(group, "san");
	assert_int_equal(index, 12);
	assert_int_equal(serial_split("san", group, sizeof(group), &index), -1);
	assert_int_equal(serial_split("san-", group, sizeof(group), &index), -1);
	assert_int_equal(serial_split("-3", group, sizeof(group), &index), -1);
	assert_int_equal(serial_split("san-03", group, sizeof(group), &index), -1);
	assert_int_equal(serial_split("san-1x", group, sizeof(group), &index), -1);
	assert_int_equal(serial_split("QM00001", group, sizeof(group), &index), -1);
}

static void vpd_page(void **state)
{
	const unsigned char page[] = { 0, 0x80, 0, 7, 's', 'a', 'n', '-',
				       '4', ' ', ' ' };
	const unsigned char other[] = { 0, 0x83, 0, 2, 'a', 'b' };
	const unsigned char blank[] = { 0, 0x80, 0, 2, ' ', ' ' };
	char serial[DISKSIG_ID_SIZE];

	(void)state;
	assert_int_equal(vpd80_serial(page, sizeof(page), serial,
				      sizeof(serial)), 0);
	assert_string_equal(serial, "san-4");
	assert_int_equal(vpd80_serial(other, sizeof(other), serial,
				      sizeof(serial)), -1);
	assert_int_equal(vpd80_serial(blank, sizeof(blank), serial,
				      sizeof(serial)), -1);
	assert_int_equal(vpd80_serial(page, 3, serial, sizeof(serial)), -1);
}

static void plan_groups(void **state)
{
	struct diskplan p;
	struct plan_group *g;
	unsigned long index;

	(void)state;
	assert_int_equal(diskplan_parse("# id kind disks sectors signed\n"
					"blk virtio_blk 4 131072 1\n\n"
					"san virtio_scsi 4000 2097152 0", &p,
					err, sizeof(err)), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.total, 4004);
	g = diskplan_find(&p, "san-3999", &index);
	assert_non_null(g);
	assert_string_equal(g->id, "san");
	assert_int_equal(index, 3999);
	assert_false(g->is_signed);
	assert_int_equal(g->seen[3999], -1);
	assert_null(diskplan_find(&p, "san-4000", &index));
	assert_null(diskplan_find(&p, "sun-1", &index));
	assert_true(diskplan_find(&p, "blk-3", &index)->is_signed);
	diskplan_free(&p);

	assert_int_equal(diskplan_parse("blk nvme 4 131072 1\n", &p, err,
					sizeof(err)), -1);
	assert_string_equal(err, "line 1: not 'id kind disks sectors signed [paths]'");
	assert_int_equal(diskplan_parse("a virtio_blk 1 8 0\nb virtio_blk 0 8 0\n",
					&p, err, sizeof(err)), -1);
	assert_string_equal(err, "line 2: not 'id kind disks sectors signed [paths]'");
	assert_int_equal(diskplan_parse("a virtio_blk 1 8 2\n", &p, err,
					sizeof(err)), -1);
	assert_int_equal(diskplan_parse("a virtio_blk 1 8 1 extra\n", &p, err,
					sizeof(err)), -1);
}

/* The sixth column: every LUN of the group once per path. */
static void plan_paths(void **state)
{
	struct diskplan p;
	unsigned long index;

	(void)state;
	assert_int_equal(diskplan_parse("mp virtio_scsi 8 32768 1 2\n"
					"one virtio_scsi 3 32768 0\n", &p,
					err, sizeof(err)), 0);
	assert_int_equal(p.total, 19);
	assert_int_equal(diskplan_find(&p, "mp-7", &index)->paths, 2);
	assert_int_equal(diskplan_find(&p, "one-2", &index)->paths, 1);
	assert_int_equal(p.groups[0].count[7], 0);
	diskplan_free(&p);
	assert_int_equal(diskplan_parse("mp virtio_scsi 8 32768 1 0\n", &p,
					err, sizeof(err)), -1);
	assert_int_equal(diskplan_parse("mp virtio_scsi 8 32768 1 9\n", &p,
					err, sizeof(err)), -1);
	assert_int_equal(diskplan_parse("mp virtio_scsi 8 32768 1 2x\n", &p,
					err, sizeof(err)), -1);
	assert_int_equal(diskplan_parse("mp virtio_scsi 8 32768 1 2 3\n", &p,
					err, sizeof(err)), -1);
	assert_string_equal(err, "line 1: not 'id kind disks sectors signed [paths]'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_signature),
		cmocka_unit_test(bad_signatures),
		cmocka_unit_test(serials),
		cmocka_unit_test(vpd_page),
		cmocka_unit_test(plan_groups),
		cmocka_unit_test(plan_paths),
	};

	return cmocka_run_group_tests_name("disksig", tests, NULL, NULL);
}
