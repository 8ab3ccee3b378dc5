/* SPDX-License-Identifier: GPL-2.0 */
/* diskcensus: every disk against the plan, with its dev_t. */
#ifndef CENSUS_H
#define CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devlist.h"
#include "diskkind.h"
#include "disksig.h"
#include "partitions.h"
#include "procdevices.h"
#include "report.h"

#define CENSUS_NAME_SIZE 32	/* DISK_NAME_LEN */
#define CENSUS_READ_SIZE 4096

struct census_paths {
	const char *sysfs;
	const char *proc;
	const char *dev;
};

struct disk {
	char name[CENSUS_NAME_SIZE];
	enum disk_kind kind;
	char kind_why[64];	/* how the kind was decided */
	uint32_t major, minor;
	uint64_t sectors;	/* /sys/block/<name>/size, 512-byte units */
	bool have_dev;		/* its dev and size attributes were read */
	bool read_ok;
	char serial[DISKSIG_ID_SIZE];	/* as QEMU gave it; "" if none */
	uint32_t by_id_links, by_path_links;	/* udev's, in /dev/disk */
	bool lun_by_id;		/* a path of its LUN has a by-id link */
};

/* One check a disk did not pass. */
struct failure {
	char disk[CENSUS_NAME_SIZE];
	char serial[DISKSIG_ID_SIZE];
	const char *check;	/* dev-node, sys-dev-block, ..., open, read */
	int err;		/* errno, 0 when it is not a system error */
	char detail[96];
};

struct expectation {
	unsigned long count;
	const char *source;	/* "option", "environment" or "default" */
};

/* Each disk against the plan's groups: its serial, size and signature. */
struct identity {
	size_t checked;		/* virtio and SCSI disks compared */
	size_t ok;
	size_t mismatched;	/* size, kind or signature not the serial's */
	size_t missing;		/* planned serials no disk reported */
	size_t duplicated;	/* disks whose serial another disk has */
	size_t unexpected;	/* no serial, or one the plan does not have */
	size_t signatures_checked, signatures_ok;
	size_t sas_transport;	/* sas-group disks under a SAS end device */
	size_t checked_kind[DISK_KINDS], ok_kind[DISK_KINDS];
};

/* dev_t against the numbers the driver gives a disk of that name. */
struct devt_scheme {
	size_t checked, ok, failed;
	size_t sd_beyond_256;		/* sd disks with a name index >= 256 */
	size_t sd_beyond_256_ok;	/* ... whose dev_t and node work */
};

/* The links udev made in /dev/disk (links.c), when asked to look. */
struct census_links {
	const char *dir;	/* /dev/disk, or NULL: not checked */
	unsigned int excused;	/* kinds allowed no by-id link, a bit each */
	bool checked;
	size_t by_id_links, by_path_links;
	size_t disks_with_by_id, disks_without_by_id, disks_excused;
	size_t disks_with_by_path;
	size_t disks_with_lun_by_id;	/* paths whose LUN's other path has it */
};

struct census {
	struct census_paths paths;
	bool read_disks;
	size_t max_failures;	/* kept in the list; all are counted */

	struct disk *disks;	/* every /sys/block entry, kinds included */
	size_t ndisks, cap;
	struct expectation expect[DISK_KINDS];
	size_t found[DISK_KINDS];

	struct procdevices pd;
	bool have_pd;
	struct partitions parts;
	struct devlist_summary devs;	/* disks of the counted kinds */
	size_t devt_duplicates;	/* in /sys/block and in /proc/partitions */

	struct diskplan plan;	/* the plan's disk groups, if given */
	bool have_plan;
	const char *nonce;	/* the run's signature nonce, or NULL */
	struct identity id;
	struct devt_scheme scheme;
	struct census_links links;

	size_t read_ok, read_failed, consistency_errors;
	struct failure *failures;
	size_t nfailures, failures_total;

	double uptime_s, duration_s;
	struct report rep;
};

/* A disk is counted unless it is of the other kind. */
static inline bool census_counted(const struct disk *d)
{
	return d->kind != DISK_OTHER;
}

void census_fail(struct census *c, const struct disk *d, const char *check,
		 int err, const char *fmt, ...) __printf(5, 6);

/* scan.c: /proc/devices, /proc/partitions and /sys/block into c. */
int census_scan(struct census *c);

/* verify.c: dev_t uniqueness, the three views of each disk, reads. */
void census_verify(struct census *c);

/* identity.c: serials, sizes, signatures, and the drivers' dev_t. */
bool census_identity_check(const char *check);
void census_read_serial(struct census *c, struct disk *d);
void census_identify(struct census *c, size_t i, const void *sector0);
void census_identity_finish(struct census *c);
void census_devt_scheme(struct census *c, const struct disk *d);
int census_write_serial_map(const struct census *c, const char *path);

/* links.c: udev's /dev/disk/by-id and by-path links of every disk. */
int census_links_excuse(struct census *c, const char *kinds);
void census_links(struct census *c);
void census_links_json(struct json *j, const struct census *c);

/* output.c */
void census_print_json(struct census *c);
void census_print_human(const struct census *c);

#endif
