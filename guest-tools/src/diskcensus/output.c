// SPDX-License-Identifier: GPL-2.0
/* The census as one JSON document (section "census") or a short summary. */
#include <stdio.h>
#include <string.h>

#include "census.h"

#define OTHER_LISTED 16		/* uncounted block devices named in the JSON */

static size_t expected_total(const struct census *c)
{
	size_t n = 0;
	enum disk_kind k;

	for (k = 0; k < DISK_OTHER; k++)
		n += c->expect[k].count;
	return n;
}

static size_t found_total(const struct census *c)
{
	size_t n = 0;
	enum disk_kind k;

	for (k = 0; k < DISK_OTHER; k++)
		n += c->found[k];
	return n;
}

static const char *major_name(const struct census *c, uint32_t major)
{
	return c->have_pd ? procdev_block_name(&c->pd, (int)major) : NULL;
}

static void json_majors(struct json *j, const struct census *c)
{
	const struct devlist_major *m;
	const char *name;
	size_t i;

	json_array_begin(j, "majors");
	for (i = 0; i < c->devs.nmajors; i++) {
		m = &c->devs.majors[i];
		name = major_name(c, m->major);
		json_object_begin(j, NULL);
		json_uint(j, "major", m->major);
		json_string(j, "name", name);
		json_uint(j, "disks", m->count);
		json_uint(j, "max_minor", m->max_minor);
		json_uint(j, "disks_minor_over_255", m->minor_over_255);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_identity(struct json *j, const struct census *c)
{
	const struct identity *id = &c->id;
	const struct failure *f;
	size_t i;

	if (!c->have_plan) {
		json_null(j, "identity");
	} else {
		json_object_begin(j, "identity");
		json_uint(j, "expected", c->plan.total);
		json_uint(j, "checked", id->checked);
		json_uint(j, "ok", id->ok);
		json_uint(j, "mismatched", id->mismatched);
		json_uint(j, "missing", id->missing);
		json_uint(j, "duplicated", id->duplicated);
		json_uint(j, "unexpected", id->unexpected);
		json_uint(j, "signatures_checked", id->signatures_checked);
		json_uint(j, "signatures_ok", id->signatures_ok);
		json_uint(j, "sas_transport", id->sas_transport);
		json_bool(j, "nonce_checked", c->nonce != NULL);
		json_object_begin(j, "by_kind");
		for (i = DISK_VIRTIO; i <= DISK_SCSI; i++) {
			json_object_begin(j, disk_kind_names[i]);
			json_uint(j, "checked", id->checked_kind[i]);
			json_uint(j, "ok", id->ok_kind[i]);
			json_object_end(j);
		}
		json_object_end(j);
		/* the failures of these checks, as many as the list keeps */
		json_array_begin(j, "bad");
		for (i = 0; i < c->nfailures; i++) {
			f = &c->failures[i];
			if (!census_identity_check(f->check) ||
			    !strcmp(f->check, "devt-scheme"))
				continue;
			json_object_begin(j, NULL);
			json_string(j, "disk", f->disk);
			json_string(j, "serial", f->serial);
			json_string(j, "check", f->check);
			json_string(j, "problem", f->detail);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_object_begin(j, "devt_scheme");
	json_uint(j, "checked", c->scheme.checked);
	json_uint(j, "ok", c->scheme.ok);
	json_uint(j, "failed", c->scheme.failed);
	json_uint(j, "sd_beyond_256", c->scheme.sd_beyond_256);
	json_uint(j, "sd_beyond_256_ok", c->scheme.sd_beyond_256_ok);
	json_object_end(j);
}

static void json_failures(struct json *j, const struct census *c)
{
	const struct failure *f;
	size_t i;

	json_uint(j, "failures_total", c->failures_total);
	json_array_begin(j, "failures");
	for (i = 0; i < c->nfailures; i++) {
		f = &c->failures[i];
		json_object_begin(j, NULL);
		json_string(j, "disk", f->disk);
		json_string(j, "serial", f->serial[0] ? f->serial : NULL);
		json_string(j, "check", f->check);
		json_string(j, "detail", f->detail);
		if (f->err) {
			json_int(j, "errno", f->err);
			json_string(j, "error", strerror(f->err));
		} else {
			json_null(j, "errno");
			json_null(j, "error");
		}
		json_object_end(j);
	}
	json_array_end(j);
}

/* Block devices that are not disks of a known kind, and why. */
static void json_other(struct json *j, const struct census *c)
{
	size_t i, listed = 0;

	json_array_begin(j, "other");
	for (i = 0; i < c->ndisks && listed < OTHER_LISTED; i++) {
		if (census_counted(&c->disks[i]))
			continue;
		json_object_begin(j, NULL);
		json_string(j, "name", c->disks[i].name);
		json_string(j, "why", c->disks[i].kind_why);
		json_object_end(j);
		listed++;
	}
	json_array_end(j);
}

void census_print_json(struct census *c)
{
	struct json j;
	enum disk_kind k;

	json_init(&j, stdout);
	report_json_begin(&c->rep, &j);
	json_object_begin(&j, "config");
	json_string(&j, "sysfs_root", c->paths.sysfs);
	json_string(&j, "proc_root", c->paths.proc);
	json_string(&j, "dev_root", c->paths.dev);
	json_bool(&j, "read", c->read_disks);
	json_uint(&j, "read_bytes", CENSUS_READ_SIZE);
	json_object_end(&j);
	json_uint(&j, "disks_expected", expected_total(c));
	json_uint(&j, "disks_found", found_total(c));
	json_object_begin(&j, "by_kind");
	for (k = 0; k < DISK_OTHER; k++) {
		json_object_begin(&j, disk_kind_names[k]);
		json_uint(&j, "expected", c->expect[k].count);
		json_uint(&j, "found", c->found[k]);
		json_string(&j, "expected_from", c->expect[k].source);
		json_object_end(&j);
	}
	json_object_end(&j);
	json_uint(&j, "other_block_devices", c->found[DISK_OTHER]);
	json_other(&j, c);
	json_bool(&j, "devt_unique", c->devt_duplicates == 0);
	json_uint(&j, "devt_duplicates", c->devt_duplicates);
	json_uint(&j, "max_minor", c->devs.max_minor);
	json_uint(&j, "disks_minor_over_255", c->devs.minor_over_255);
	json_majors(&j, c);
	json_uint(&j, "proc_partitions_entries", c->parts.n);
	json_uint(&j, "read_ok", c->read_ok);
	json_uint(&j, "read_failed", c->read_failed);
	json_uint(&j, "consistency_errors", c->consistency_errors);
	json_identity(&j, c);
	census_links_json(&j, c);
	json_failures(&j, c);
	json_double(&j, "uptime_s", c->uptime_s);
	json_double(&j, "duration_s", c->duration_s);
	if (report_json_end(&c->rep, &j))
		fprintf(stderr, "diskcensus: internal error: bad JSON\n");
}

void census_print_human(const struct census *c)
{
	const struct failure *f;
	const char *name;
	enum disk_kind k;
	size_t i;

	printf("disks: %zu found, %zu expected (", found_total(c),
	       expected_total(c));
	for (k = 0; k < DISK_OTHER; k++)
		printf("%s%s %zu/%lu", k ? ", " : "", disk_kind_names[k],
		       c->found[k], c->expect[k].count);
	printf("); %zu other block devices\n", c->found[DISK_OTHER]);
	printf("dev_t: %s; %zu majors; largest minor %u; %zu disks with a minor above 255\n",
	       c->devt_duplicates ? "NOT unique" : "unique", c->devs.nmajors,
	       c->devs.max_minor, c->devs.minor_over_255);
	for (i = 0; i < c->devs.nmajors; i++) {
		name = major_name(c, c->devs.majors[i].major);
		printf("  major %4u %-12s %6zu disks, largest minor %u\n",
		       c->devs.majors[i].major, name ? name : "?",
		       c->devs.majors[i].count, c->devs.majors[i].max_minor);
	}
	printf("reads: %zu ok, %zu failed; consistency errors: %zu\n",
	       c->read_ok, c->read_failed, c->consistency_errors);
	if (c->have_plan)
		printf("identity: %zu of %lu planned disks ok; %zu mismatched, %zu missing, %zu duplicated, %zu unexpected; signatures %zu/%zu\n",
		       c->id.ok, c->plan.total, c->id.mismatched, c->id.missing,
		       c->id.duplicated, c->id.unexpected, c->id.signatures_ok,
		       c->id.signatures_checked);
	printf("dev_t scheme: %zu of %zu disks as their driver numbers them; %zu sd disks beyond 256, %zu of them working\n",
	       c->scheme.ok, c->scheme.checked, c->scheme.sd_beyond_256,
	       c->scheme.sd_beyond_256_ok);
	if (c->links.checked)
		printf("links in %s: %zu disks with a by-id link, %zu without, %zu excused; %zu with a by-path link\n",
		       c->links.dir, c->links.disks_with_by_id,
		       c->links.disks_without_by_id, c->links.disks_excused,
		       c->links.disks_with_by_path);
	for (i = 0; i < c->nfailures; i++) {
		f = &c->failures[i];
		printf("  %s: %s: %s%s%s\n", f->disk, f->check, f->detail,
		       f->err ? ": " : "", f->err ? strerror(f->err) : "");
	}
	if (c->failures_total > c->nfailures)
		printf("  (%zu more failures not shown)\n",
		       c->failures_total - c->nfailures);
	printf("census took %.3f s, done %.2f s after boot\n", c->duration_s,
	       c->uptime_s);
	printf("diskcensus: %s\n", c->rep.nerrors ? "FAILED" : "ok");
}
