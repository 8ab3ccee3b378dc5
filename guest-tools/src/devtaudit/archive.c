// SPDX-License-Identifier: GPL-2.0
/*
 * Archives of device nodes, written and extracted by busybox (the guest's
 * cpio and tar), with the headers read here: cpio newc keeps a device as
 * two 32-bit hex fields, ustar as two 7-digit octal fields (0..2097151).
 * Both hold every 12/20-bit number; the question is whether the tools
 * and the kernel keep them through the round trip.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devtaudit.h"
#include "newc.h"
#include "procdevices.h"
#include "ustar.h"

#define NODES "nodes"

struct seen {
	bool in_header;
	uint64_t major, minor;	/* as the header has them */
	bool is_block;
};

/* The source nodes, once for both archivers; 0 or -1 (error reported). */
static int make_nodes(struct audit *a)
{
	static int made;	/* 1 done, -1 failed */
	char path[PATH_MAX], node[48];
	size_t i;
	int ret;

	if (made)
		return made > 0 ? 0 : -1;
	made = -1;
	ret = audit_subdir(a, NODES);
	if (ret) {
		report_error(&a->rep, "%s/%s: %s", a->dir, NODES,
			     errno_name(ret));
		return -1;
	}
	for (i = 0; i < NVALID_EDGES; i++) {
		edge_node_name(node, sizeof(node), &valid_edges[i]);
		audit_path(a, path, sizeof(path), NODES, node);
		ret = make_block_node(path, valid_edges[i].major,
				      valid_edges[i].minor);
		if (ret) {
			report_error(&a->rep, "mknod %s: %s", path,
				     errno_name(ret));
			return -1;
		}
	}
	made = 1;
	return 0;
}

static bool have_busybox(struct audit *a, const char *check)
{
	if (!access(a->busybox, X_OK))
		return true;
	audit_add(a, V_UNSUPPORTED, check, "no busybox at %s: %s", a->busybox,
		  errno_name(errno));
	return false;
}

/* Which edge a member name is; -1 for anything else (".", trailer). */
static long edge_of(const char *name)
{
	char node[48];
	size_t i;

	if (!strncmp(name, "./", 2))
		name += 2;
	for (i = 0; i < NVALID_EDGES; i++)
		if (!strcmp(name, edge_node_name(node, sizeof(node),
						 &valid_edges[i])))
			return (long)i;
	return -1;
}

/*
 * For each edge: what the header said and what extraction made; the
 * verdict.  limit: the largest number the format holds.
 */
static void judge(struct audit *a, const char *format, const char *out_sub,
		  const struct seen *seen, uint64_t limit)
{
	char path[PATH_MAX], node[48], name[48];
	const struct edge *e;
	struct stat st;
	size_t i;

	for (i = 0; i < NVALID_EDGES; i++) {
		e = &valid_edges[i];
		snprintf(name, sizeof(name), "%s/%u:%u", format, e->major,
			 e->minor);
		if (!seen[i].in_header) {
			audit_add(a, V_FAIL, name, "not in the archive");
			continue;
		}
		if (!seen[i].is_block || seen[i].major != e->major ||
		    seen[i].minor != e->minor) {
			audit_add(a, e->major > limit || e->minor > limit ?
				  V_TRUNCATES : V_FAIL, name,
				  "header has %s %llu:%llu",
				  seen[i].is_block ? "block" : "non-block",
				  (unsigned long long)seen[i].major,
				  (unsigned long long)seen[i].minor);
			continue;
		}
		edge_node_name(node, sizeof(node), e);
		audit_path(a, path, sizeof(path), out_sub, node);
		if (lstat(path, &st)) {
			audit_add(a, V_FAIL, name,
				  "header right, extracted node: %s",
				  errno_name(errno));
			continue;
		}
		if (!S_ISBLK(st.st_mode) || major(st.st_rdev) != e->major ||
		    minor(st.st_rdev) != e->minor) {
			audit_add(a, V_FAIL, name,
				  "header right, extracted as %s %u:%u",
				  S_ISBLK(st.st_mode) ? "block" : "non-block",
				  major(st.st_rdev), minor(st.st_rdev));
			continue;
		}
		audit_add(a, V_PASS, name,
			  "header and extracted node are %u:%u (format holds 0..%llu)",
			  e->major, e->minor, (unsigned long long)limit);
	}
}

/* A whole file into memory. */
static long slurp(struct audit *a, const char *path, unsigned char **buf)
{
	long len = procdev_read_file(path, (char **)buf);

	if (len < 0)
		report_error(&a->rep, "%s: %s", path, errno_name((int)-len));
	return len;
}

/* Write the member list of the nodes directory, one name per line. */
static int write_list(struct audit *a, const char *path)
{
	char node[48];
	size_t i;
	FILE *f;

	f = fopen(path, "we");
	if (!f) {
		report_error(&a->rep, "%s: %s", path, errno_name(errno));
		return -1;
	}
	for (i = 0; i < NVALID_EDGES; i++)
		fprintf(f, "%s\n", edge_node_name(node, sizeof(node),
						  &valid_edges[i]));
	if (fclose(f)) {
		report_error(&a->rep, "%s: %s", path, errno_name(errno));
		return -1;
	}
	return 0;
}

void audit_cpio(struct audit *a)
{
	char nodes[PATH_MAX], list[PATH_MAX], archive[PATH_MAX], out[PATH_MAX];
	char msg[320];
	struct seen seen[NVALID_EDGES] = { 0 };
	const char *argv[6];
	unsigned char *buf;
	struct newc_entry e;
	size_t off = 0;
	long len, idx;
	int ret;

	if (!have_busybox(a, "cpio-newc") || make_nodes(a))
		return;
	audit_path(a, nodes, sizeof(nodes), NODES, NULL);
	audit_path(a, list, sizeof(list), "cpio-list", NULL);
	audit_path(a, archive, sizeof(archive), "archive.cpio", NULL);
	audit_path(a, out, sizeof(out), "cpio-out", NULL);
	if (write_list(a, list))
		return;
	argv[0] = a->busybox;
	argv[1] = "cpio";
	argv[2] = "-o";
	argv[3] = "-H";
	argv[4] = "newc";
	argv[5] = NULL;
	if (audit_run(a, argv, nodes, list, archive, msg, sizeof(msg))) {
		audit_add(a, V_FAIL, "cpio-newc", "writing: %s", msg);
		return;
	}
	len = slurp(a, archive, &buf);
	if (len < 0)
		return;
	while ((ret = newc_next(buf, (size_t)len, &off, &e, msg,
				sizeof(msg))) > 0) {
		idx = edge_of(e.name);
		if (idx < 0)
			continue;
		seen[idx].in_header = true;
		seen[idx].major = e.rdevmajor;
		seen[idx].minor = e.rdevminor;
		seen[idx].is_block = (e.mode & S_IFMT) == S_IFBLK;
	}
	free(buf);
	if (ret < 0) {
		audit_add(a, V_FAIL, "cpio-newc", "reading %s: %s", archive, msg);
		return;
	}
	ret = audit_subdir(a, "cpio-out");
	if (ret) {
		report_error(&a->rep, "%s: %s", out, errno_name(ret));
		return;
	}
	argv[2] = "-i";
	argv[3] = "-d";
	argv[4] = NULL;
	if (audit_run(a, argv, out, archive, NULL, msg, sizeof(msg))) {
		audit_add(a, V_FAIL, "cpio-newc", "extracting: %s", msg);
		return;
	}
	judge(a, "cpio-newc", "cpio-out", seen, UINT32_MAX);
}

void audit_tar(struct audit *a)
{
	char nodes[PATH_MAX], archive[PATH_MAX], out[PATH_MAX], msg[320];
	char names[NVALID_EDGES][48];
	const char *argv[6 + NVALID_EDGES];
	struct seen seen[NVALID_EDGES] = { 0 };
	struct ustar_entry e;
	unsigned char *buf;
	size_t off = 0, i, n = 0;
	long len, idx;
	int ret;

	if (!have_busybox(a, "tar-ustar") || make_nodes(a))
		return;
	audit_path(a, nodes, sizeof(nodes), NODES, NULL);
	audit_path(a, archive, sizeof(archive), "archive.tar", NULL);
	audit_path(a, out, sizeof(out), "tar-out", NULL);
	argv[n++] = a->busybox;
	argv[n++] = "tar";
	argv[n++] = "-c";
	argv[n++] = "-f";
	argv[n++] = archive;
	for (i = 0; i < NVALID_EDGES; i++)
		argv[n++] = edge_node_name(names[i], sizeof(names[i]),
					   &valid_edges[i]);
	argv[n] = NULL;
	if (audit_run(a, argv, nodes, NULL, NULL, msg, sizeof(msg))) {
		audit_add(a, V_FAIL, "tar-ustar", "writing: %s", msg);
		return;
	}
	len = slurp(a, archive, &buf);
	if (len < 0)
		return;
	while ((ret = ustar_next(buf, (size_t)len, &off, &e, msg,
				 sizeof(msg))) > 0) {
		idx = edge_of(e.name);
		if (idx < 0)
			continue;
		seen[idx].in_header = true;
		seen[idx].major = e.devmajor;
		seen[idx].minor = e.devminor;
		seen[idx].is_block = e.typeflag == '4';
	}
	free(buf);
	if (ret < 0) {
		audit_add(a, V_FAIL, "tar-ustar", "reading %s: %s", archive, msg);
		return;
	}
	ret = audit_subdir(a, "tar-out");
	if (ret) {
		report_error(&a->rep, "%s: %s", out, errno_name(ret));
		return;
	}
	n = 0;
	argv[n++] = a->busybox;
	argv[n++] = "tar";
	argv[n++] = "-x";
	argv[n++] = "-f";
	argv[n++] = archive;
	argv[n] = NULL;
	if (audit_run(a, argv, out, NULL, NULL, msg, sizeof(msg))) {
		audit_add(a, V_FAIL, "tar-ustar", "extracting: %s", msg);
		return;
	}
	judge(a, "tar-ustar", "tar-out", seen, USTAR_DEV_OCTAL_MAX);
}
