// SPDX-License-Identifier: GPL-2.0
/*
 * The encodings themselves: glibc's 64-bit dev_t (32-bit major and minor)
 * against the kernel's 32-bit one (12/20) and the old 16-bit one (8/8).
 * Pure arithmetic: the same on every kernel, but it says which numbers
 * each interface can carry and what becomes of the others.
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "devt.h"
#include "devtaudit.h"

/* glibc values the kernel cannot hold, beyond past_edges[] */
static const struct edge glibc_only[] = {
	{ 4096, 0 }, { 0, 1048576 }, { 4104, 1 }, { 65535, 65535 },
	{ 4294967295u, 4294967295u },
};

/* Appends to a detail string, cutting with "..." when it is full. */
static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf), add = strlen(text);

	if (len + add + 1 <= size)
		memcpy(buf + len, text, add + 1);
	else if (size > 4 && len + 4 <= size)
		memcpy(buf + len, "...", 4);
}

static void glibc_round_trip(struct audit *a)
{
	char bad[256] = "", item[64];
	size_t i, nbad = 0;
	dev_t d;

	for (i = 0; i < ARRAY_SIZE(glibc_only); i++) {
		d = makedev(glibc_only[i].major, glibc_only[i].minor);
		if (major(d) == glibc_only[i].major &&
		    minor(d) == glibc_only[i].minor)
			continue;
		snprintf(item, sizeof(item), " %u:%u", glibc_only[i].major,
			 glibc_only[i].minor);
		append(bad, sizeof(bad), item);
		nbad++;
	}
	if (nbad)
		audit_add(a, V_FAIL, "makedev-glibc",
			  "major()/minor() do not give back:%s", bad);
	else
		audit_add(a, V_PASS, "makedev-glibc",
			  "%zu-byte dev_t: 32-bit majors and minors round-trip, up to 4294967295:4294967295",
			  sizeof(dev_t));
}

/* For every number the kernel holds, glibc's low half is new_encode_dev. */
static void glibc_is_kernel_encoding(struct audit *a)
{
	const struct edge *e;
	uint32_t k;
	dev_t d;
	size_t i;

	for (i = 0; i < NVALID_EDGES; i++) {
		e = &valid_edges[i];
		d = makedev(e->major, e->minor);
		k = kdev_new_encode(kdev_mkdev(e->major, e->minor));
		if ((uint64_t)d != k) {
			audit_add(a, V_FAIL, "makedev-kernel-encoding",
				  "%u:%u: glibc 0x%llx, new_encode_dev 0x%08x",
				  e->major, e->minor, (unsigned long long)d, k);
			return;
		}
	}
	audit_add(a, V_PASS, "makedev-kernel-encoding",
		  "at %zu edges glibc's dev_t equals the kernel's 32-bit new_encode_dev (4095:1048575 is 0x%08x)",
		  (size_t)NVALID_EDGES,
		  kdev_new_encode(kdev_mkdev(KDEV_MAJOR_MAX, KDEV_MINOR_MAX)));
}

static void beyond_kernel(struct audit *a)
{
	char list[256] = "", item[64], got[24];
	const struct edge *e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(glibc_only); i++) {
		e = &glibc_only[i];
		snprintf(item, sizeof(item), "%s%u:%u->%s", i ? ", " : "",
			 e->major, e->minor,
			 kdev_format(got, sizeof(got),
				     kdev_from_user(makedev(e->major,
							    e->minor))));
		append(list, sizeof(list), item);
	}
	audit_add(a, V_TRUNCATES, "makedev-beyond-kernel",
		  "as an unsigned int argument the kernel sees: %s", list);
}

/* old_encode_dev: fine below 256:256, silently another device above. */
static void old_encoding(struct audit *a)
{
	char list[256] = "", item[64], got[24];
	const struct edge *e;
	uint32_t k, back;
	size_t i, lost = 0, compatible = 0, old = 0;

	for (i = 0; i < NVALID_EDGES; i++) {
		e = &valid_edges[i];
		k = kdev_mkdev(e->major, e->minor);
		if (kdev_old_valid(k)) {
			old++;
			if (kdev_new_encode(k) == kdev_old_encode(k) &&
			    kdev_new_decode(kdev_old_encode(k)) == k &&
			    kdev_old_decode(kdev_old_encode(k)) == k)
				compatible++;
			continue;
		}
		back = kdev_old_decode(kdev_old_encode(k));
		if (back == k)
			continue;
		snprintf(item, sizeof(item), "%s%u:%u->0x%04x=%s",
			 lost ? ", " : "", e->major, e->minor,
			 kdev_old_encode(k), kdev_format(got, sizeof(got), back));
		append(list, sizeof(list), item);
		lost++;
	}
	if (compatible != old) {
		audit_add(a, V_FAIL, "old-encoding-16bit",
			  "%zu of %zu 8:8 numbers change between the 16- and 32-bit encodings",
			  old - compatible, old);
		return;
	}
	audit_add(a, V_TRUNCATES, "old-encoding-16bit",
		  "8:8 numbers are the same in both encodings (%zu checked); old_encode_dev gives another device for %s",
		  old, list);
}

void audit_makedev(struct audit *a)
{
	glibc_round_trip(a);
	glibc_is_kernel_encoding(a);
	beyond_kernel(a);
	old_encoding(a);
}
