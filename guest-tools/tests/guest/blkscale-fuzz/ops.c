// SPDX-License-Identifier: GPL-2.0
/*
 * One random operation at a time: each builds its arguments, predicts the
 * module's answer as far as it is knowable, makes the call and updates the
 * model from what happened (see fuzz.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fuzz.h"
#include "vfs_ioctls.h"

static int fz_ioctl(int fd, unsigned int cmd, void *arg, int *err)
{
	int ret = ioctl(fd, cmd, arg);

	*err = ret < 0 ? errno : 0;
	return ret;
}

void count_call(struct worker *w, enum cmd_kind cmd, int ret, int err)
{
	int e = ret < 0 ? err : 0;

	w->st.by_cmd[cmd]++;
	w->st.by_errno[e >= 0 && e < FUZZ_ERRNO_MAX ? e : FUZZ_ERRNO_MAX]++;
	__atomic_add_fetch(&w->run->calls, 1, __ATOMIC_RELAXED);
}

int probe_hits(int fd, int32_t major, struct blkscale_probe_hits *h,
	       struct fuzz_counts *st)
{
	st->checks++;
	return helper_probe_hits(fd, major, h);
}

static const char *const cmd_names[CMD_COUNT] = {
	"VERSION", "REGISTER", "UNREGISTER", "BATCH", "CHAR_PROBE",
	"PROBE_HITS", "mangled", "random",
};

/* Compare an answer with the one predicted; false (and a violation) if not. */
static bool expect(struct worker *w, enum cmd_kind cmd, int ret, int err,
		   int want, enum ptr_kind k, const char *what)
{
	int got = ret < 0 ? err : 0;

	if (ret < 0 && err == 0)
		got = -1;
	if (got == want)
		return true;
	violation(w->run, "%s (%s pointer%s%s): got %s, expected %s",
		  cmd_names[cmd], ptr_kind_name(k), what[0] ? ", " : "", what,
		  got ? errno_name(got) : "success",
		  want ? errno_name(want) : "success");
	return false;
}

bool errno_in(int err, const int *allowed)
{
	for (; *allowed; allowed++)
		if (*allowed == err)
			return true;
	return false;
}

static enum ptr_kind pick_kind(struct worker *w)
{
	if (rng_percent(&w->rng, 85))
		return PK_VALID;
	return (enum ptr_kind)(1 + rng_below(&w->rng, PK_COUNT - 1));
}

static uint32_t pick_version(struct worker *w)
{
	static const uint32_t bad[] = { 0, BLKSCALE_UAPI_VERSION + 1,
					0x80000001u, UINT32_MAX };

	if (rng_percent(&w->rng, 95))
		return BLKSCALE_UAPI_VERSION;
	if (rng_percent(&w->rng, 50))
		return bad[rng_below(&w->rng, ARRAY_SIZE(bad))];
	return (uint32_t)rng_next(&w->rng) | 4;	/* never 1 or 2 */
}

static const int32_t special_majors[] = {
	-1, INT_MIN, -4096, 0, 1, 3, 8, 254, 255, 259, 383, 384, 511, 512,
	4095, 4096, 4097, 65536, INT_MAX,
};

/*
 * A major from everywhere: held by @s (if given, under s->op), held
 * elsewhere, odd, random; 0 half of the time if @dynamic.
 */
static int32_t pick_major(struct worker *w, struct slot *s, bool dynamic)
{
	struct run *run = w->run;
	unsigned int r = rng_below(&w->rng, 100);
	int32_t m;
	int i;

	if (dynamic && r < 50)
		return 0;
	if (r < 65 && s && s->nheld)
		return s->held[rng_below(&w->rng, (uint32_t)s->nheld)].major;
	if (r < 75) {
		pthread_mutex_lock(&run->lock);
		for (i = 0; i < 8; i++) {
			m = 1 + (int32_t)rng_below(&w->rng, BLKSCALE_MAJOR_LIMIT - 1);
			if (run->owner[m].slot >= 0)
				break;
		}
		pthread_mutex_unlock(&run->lock);
		return m;
	}
	if (r < 85)
		return special_majors[rng_below(&w->rng, ARRAY_SIZE(special_majors))];
	return 1 + (int32_t)rng_below(&w->rng, BLKSCALE_MAJOR_LIMIT - 1);
}

static void effective_name(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (len > BLKSCALE_NAME_MAX)
		len = BLKSCALE_NAME_MAX;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static bool reserve_wrong_name(struct run *run)
{
	bool ok;

	pthread_mutex_lock(&run->lock);
	ok = run->wrong_name_used < run->wrong_name_budget;
	if (ok)
		run->wrong_name_used++;
	pthread_mutex_unlock(&run->lock);
	return ok;
}

static void op_version(struct worker *w, struct slot *s)
{
	enum ptr_kind k = pick_kind(w);
	uint32_t v = (uint32_t)rng_next(&w->rng), *p;
	int ret, err;

	p = arena_place(&w->arena, &w->rng, k, &v, sizeof(v));
	ret = fz_ioctl(s->fd, BLKSCALE_IOC_VERSION, p, &err);
	count_call(w, CMD_VERSION, ret, err);
	if (expect(w, CMD_VERSION, ret, err, ptr_writable(k) ? 0 : EFAULT, k,
		   "") && ret == 0 && *p != BLKSCALE_UAPI_VERSION)
		violation(w->run, "VERSION: %u, expected %u", *p,
			  BLKSCALE_UAPI_VERSION);
}

static void op_register(struct worker *w, struct slot *s)
{
	static const int dyn_errs[] = { EBUSY, ENOSPC, ENOMEM, 0 };
	struct run *run = w->run;
	struct blkscale_register r, *u;
	enum ptr_kind k = pick_kind(w);
	char name[BLKSCALE_NAME_MAX + 1];
	struct blkscale_probe_hits h;
	bool valid, alone, mine;
	uint64_t mark;
	int ret, err, verdict;

	memset(&r, 0, sizeof(r));
	pthread_mutex_lock(&s->op);
	r.version = pick_version(w);
	r.major = pick_major(w, s, true);
	r.ns = rng_next(&w->rng);
	r.flags = gen_must_be_zero(&w->rng);
	r.reserved = gen_must_be_zero(&w->rng);
	gen_name(&w->rng, r.name, sizeof(r.name));
	mine = model_held_by(run, s, r.major, NULL);
	u = arena_place(&w->arena, &w->rng, k, &r, sizeof(r));
	valid = ptr_readable(k) && r.version == BLKSCALE_UAPI_VERSION &&
		!r.flags && !r.reserved &&
		name_ok(r.name, sizeof(r.name), BLKSCALE_NAME_MAX) &&
		r.major >= 0 && r.major < BLKSCALE_MAJOR_LIMIT;

	alone = model_begin(run, &mark);
	ret = fz_ioctl(s->fd, BLKSCALE_IOC_REGISTER, u, &err);
	count_call(w, CMD_REGISTER, ret, err);

	if (!ptr_readable(k)) {
		expect(w, CMD_REGISTER, ret, err, EFAULT, k, "");
	} else if (!valid) {
		expect(w, CMD_REGISTER, ret, err, EINVAL, k, "invalid fields");
	} else if (r.major >= run->major_limit) {
		expect(w, CMD_REGISTER, ret, err, EINVAL, k,
		       "major above the kernel's limit");
	} else if (ret == 0) {
		if (!ptr_writable(k))
			violation(run, "REGISTER through a read-only struct succeeded");
		else if (r.major && u->major != r.major)
			violation(run, "REGISTER of major %d returned %d",
				  r.major, u->major);
		else {
			effective_name(name, r.name, sizeof(r.name));
			model_add(run, s, u->major, name);
			w->st.registered++;
		}
	} else if (err == EFAULT && !ptr_writable(k)) {
		/* registered, then let go: the caller cannot learn it */
		if (r.major && !mine &&
		    !probe_hits(s->fd, r.major, &h, &w->st) && h.held)
			violation(run, "REGISTER of %d failed with EFAULT but the file holds it",
				  r.major);
	} else if (r.major) {
		if (err != EBUSY && err != ENOMEM)
			expect(w, CMD_REGISTER, ret, err, EBUSY, k,
			       "explicit major");
		verdict = model_verdict(run, alone, mark, r.major);
		if (verdict >= 0)
			w->st.exact++;
		if (verdict == 1 && err == EBUSY)
			violation(run, "REGISTER of major %d: EBUSY, but nobody holds it",
				  r.major);
	} else if (!errno_in(err, dyn_errs)) {
		expect(w, CMD_REGISTER, ret, err, EBUSY, k, "dynamic major");
	}
	model_end(run);
	pthread_mutex_unlock(&s->op);
}

/* Whether a held entry should see its unregister name match. */
static void unregister_name(struct worker *w, const struct held *h, char *buf,
			    size_t size)
{
	unsigned int r = rng_below(&w->rng, 100);
	size_t len;

	if (r < 75) {
		memset(buf, 0, size);
		len = strlen(h->name);
		memcpy(buf, h->name, len);
		/* bytes after the NUL do not count */
		if (r < 10 && len + 1 < size)
			rng_fill(&w->rng, buf + len + 1, size - len - 1);
		return;
	}
	gen_name(&w->rng, buf, size);
}

static void op_unregister(struct worker *w, struct slot *s)
{
	struct run *run = w->run;
	struct blkscale_unregister u, *p;
	struct blkscale_probe_hits h;
	enum ptr_kind k = pick_kind(w);
	char name[BLKSCALE_NAME_MAX + 1];
	bool held = false, checked, same, releases = false, warns = false;
	size_t idx = 0;
	uint64_t mark;
	int ret, err, want;

	memset(&u, 0, sizeof(u));
	pthread_mutex_lock(&s->op);
	u.version = pick_version(w);
	u.ns = rng_next(&w->rng);
	u.kept = (uint32_t)rng_next(&w->rng);
	u.reserved = gen_must_be_zero(&w->rng);
	if (s->nheld && rng_percent(&w->rng, 65)) {
		idx = rng_below(&w->rng, (uint32_t)s->nheld);
		u.major = s->held[idx].major;
		unregister_name(w, &s->held[idx], u.name, sizeof(u.name));
	} else {
		u.major = pick_major(w, s, false);
		gen_name(&w->rng, u.name, sizeof(u.name));
	}
	if (rng_percent(&w->rng, 5))
		u.flags = BLKSCALE_UNREG_WRONG_NAME;
	else if (rng_percent(&w->rng, 5))
		u.flags = (uint32_t)rng_next(&w->rng);

	checked = ptr_readable(k) && u.version == BLKSCALE_UAPI_VERSION &&
		  !u.reserved &&
		  !(u.flags & ~BLKSCALE_UNREG_WRONG_NAME) && u.major > 0 &&
		  u.major < BLKSCALE_MAJOR_LIMIT &&
		  name_ok(u.name, sizeof(u.name), BLKSCALE_NAME_MAX);
	if (checked)
		held = model_held_by(run, s, u.major, &idx);
	effective_name(name, u.name, sizeof(u.name));
	same = held && !strcmp(name, s->held[idx].name);
	/* results that cannot be written stop the call before any work */
	if (held && u.flags == BLKSCALE_UNREG_WRONG_NAME && !same &&
	    ptr_writable(k)) {
		/* the kernel WARNs on every one of these: rationed */
		warns = reserve_wrong_name(run);
		if (!warns)
			u.flags = 0;
	}
	releases = held && !u.flags && same && ptr_writable(k);

	p = arena_place(&w->arena, &w->rng, k, &u, sizeof(u));
	model_begin(run, &mark);
	if (releases)
		model_mark_one(run, s, idx, true);
	ret = fz_ioctl(s->fd, BLKSCALE_IOC_UNREGISTER, p, &err);
	count_call(w, CMD_UNREGISTER, ret, err);
	if (warns)
		w->st.warns_expected++;

	if (!ptr_readable(k))
		want = EFAULT;
	else if (!checked)
		want = EINVAL;
	else if (!ptr_writable(k))
		want = EFAULT;
	else if (!held)
		want = ENOENT;
	else if (!same)
		/* the kernel keeps it; the module cannot tell when injected */
		want = !u.flags ? EINVAL : run->inject_enomem ? ENOMEM : 0;
	else
		want = u.flags ? EINVAL : 0;
	expect(w, CMD_UNREGISTER, ret, err, want, k,
	       !checked ? "invalid fields" : !held ? "major not held" :
	       u.flags ? "wrong name" : same ? "" : "name differs");

	if (warns && ret < 0 && err == ENOMEM &&
	    (!probe_hits(s->fd, u.major, &h, &w->st) && !h.held))
		violation(run, "UNREGISTER with a wrong name of major %d failed with ENOMEM but let it go",
			  u.major);
	if (warns && ret == 0 && p->kept != 1)
		violation(run, "UNREGISTER with a wrong name of major %d: kept %u, expected 1",
			  u.major, p->kept);
	if (releases) {
		if (ret == 0) {
			model_remove(run, s, idx);
			w->st.unregistered++;
		} else if (!probe_hits(s->fd, u.major, &h, &w->st) &&
			   !h.held) {
			violation(run, "UNREGISTER of %d failed with %s but let it go",
				  u.major, errno_name(err));
			model_remove(run, s, idx);
		} else {
			model_mark_one(run, s, idx, false);
		}
	} else if (held && checked && !ptr_writable(k)) {
		/* refused before the work: the file must still hold it */
		if (!probe_hits(s->fd, u.major, &h, &w->st) && !h.held) {
			violation(run, "UNREGISTER of %d failed with %s but let it go",
				  u.major, ret < 0 ? errno_name(err) : "success");
			model_remove(run, s, idx);
		} else if (ret < 0 && err == EFAULT) {
			w->st.unreg_efault_kept++;
		}
	} else if (held && ret == 0 && !warns) {
		/* predicted a refusal, the module let it go: find out */
		model_resync(run, s, idx, &w->st);
	}
	model_end(run);
	pthread_mutex_unlock(&s->op);
}

static void op_probe_hits(struct worker *w, struct slot *s)
{
	struct run *run = w->run;
	struct blkscale_probe_hits h, *p;
	enum ptr_kind k = pick_kind(w);
	bool locked = rng_percent(&w->rng, 70), valid;
	int ret, err;

	memset(&h, 0, sizeof(h));
	if (locked)
		pthread_mutex_lock(&s->op);
	h.version = pick_version(w);
	h.reserved = rng_percent(&w->rng, 95) ? 0 : (uint32_t)rng_next(&w->rng) | 1;
	h.flags = gen_must_be_zero(&w->rng);
	h.major = pick_major(w, locked ? s : NULL, false);
	rng_fill(&w->rng, &h.hits, sizeof(h.hits) * 3);
	h.held = (uint32_t)rng_next(&w->rng);
	p = arena_place(&w->arena, &w->rng, k, &h, sizeof(h));
	ret = fz_ioctl(s->fd, BLKSCALE_IOC_PROBE_HITS, p, &err);
	count_call(w, CMD_PROBE_HITS, ret, err);
	valid = h.version == BLKSCALE_UAPI_VERSION && !h.reserved && !h.flags &&
		h.major > 0 && h.major < BLKSCALE_MAJOR_LIMIT;
	if (expect(w, CMD_PROBE_HITS, ret, err,
		   !ptr_readable(k) ? EFAULT : !valid ? EINVAL :
		   ptr_writable(k) ? 0 : EFAULT, k,
		   valid ? "" : "invalid fields") && ret == 0) {
		if (p->duplicates || p->strays)
			violation(run, "PROBE_HITS: %llu duplicates, %llu strays",
				  (unsigned long long)p->duplicates,
				  (unsigned long long)p->strays);
		if (locked && p->held != model_held_by(run, s, h.major, NULL))
			violation(run, "PROBE_HITS: slot %u %s major %d, the model says otherwise",
				  s->id, p->held ? "holds" : "does not hold",
				  h.major);
	}
	if (locked)
		pthread_mutex_unlock(&s->op);
}

static bool valid_cmd(unsigned int cmd)
{
	return cmd == BLKSCALE_IOC_VERSION || cmd == BLKSCALE_IOC_REGISTER ||
	       cmd == BLKSCALE_IOC_UNREGISTER || cmd == BLKSCALE_IOC_BATCH ||
	       cmd == BLKSCALE_IOC_CHAR_PROBE || cmd == BLKSCALE_IOC_PROBE_HITS ||
	       cmd == BLKSCALE_IOC_CLOCK_EMPTY || cmd == BLKSCALE_IOC_RCU_BARRIER;
}

/* Random bytes behind a pointer of a random kind. */
static void *junk_arg(struct worker *w)
{
	unsigned char buf[256];
	size_t size = 1 + rng_below(&w->rng, sizeof(buf));

	if (rng_percent(&w->rng, 10))
		return (void *)(uintptr_t)rng_next(&w->rng);
	rng_fill(&w->rng, buf, size);
	return arena_place(&w->arena, &w->rng, pick_kind(w), buf, size);
}

/* The module's magic and numbers, with a wrong size or direction. */
static void op_mangled(struct worker *w, struct slot *s)
{
	static const unsigned int sizes[] = { 0, 1, 4, 8, 16, 24, 31, 32, 40,
					      47, 48, 56, 64, 4096, 16383 };
	unsigned int cmd, dir, nr, size;
	int ret, err;

	do {
		dir = rng_below(&w->rng, 4);
		nr = rng_below(&w->rng, 8);
		size = rng_percent(&w->rng, 80) ?
		       sizes[rng_below(&w->rng, ARRAY_SIZE(sizes))] :
		       rng_below(&w->rng, 1u << _IOC_SIZEBITS);
		cmd = _IOC(dir, BLKSCALE_IOC_MAGIC, nr, size);
	} while (valid_cmd(cmd));
	ret = fz_ioctl(s->fd, cmd, junk_arg(w), &err);
	count_call(w, CMD_MANGLED, ret, err);
	expect(w, CMD_MANGLED, ret, err, ENOTTY, PK_VALID, "unknown command");
}

static void op_random(struct worker *w, struct slot *s)
{
	unsigned int cmd;
	int ret, err;

	do {
		if (rng_percent(&w->rng, 50))
			cmd = _IOC(rng_below(&w->rng, 4), rng_below(&w->rng, 256),
				   rng_below(&w->rng, 256),
				   rng_below(&w->rng, 1u << _IOC_SIZEBITS));
		else
			cmd = (unsigned int)rng_next(&w->rng);
	} while (valid_cmd(cmd) || vfs_ioctl_cmd(cmd));
	ret = fz_ioctl(s->fd, cmd, junk_arg(w), &err);
	count_call(w, CMD_RANDOM, ret, err);
	expect(w, CMD_RANDOM, ret, err, ENOTTY, PK_VALID, "unknown command");
}

/* open() of a node of a held major runs the module's probe exactly once. */
static void op_lookup(struct worker *w, struct slot *s)
{
	struct blkscale_probe_hits h0, h1;
	struct run *run = w->run;
	int32_t major;
	unsigned int minor;
	int fd, err;

	pthread_mutex_lock(&s->op);
	if (!s->nheld)
		goto out_unlock;
	major = s->held[rng_below(&w->rng, (uint32_t)s->nheld)].major;
	minor = rng_below(&w->rng, 1u << 20);
	if (probe_hits(s->fd, major, &h0, &w->st))
		goto out_unlock;
	unlink(w->node);
	if (mknod(w->node, S_IFBLK | 0600, makedev((unsigned int)major, minor))) {
		violation(run, "mknod %s (%d:%u): %s", w->node, major, minor,
			  strerror(errno));
		goto out_unlock;
	}
	w->st.lookups++;
	fd = open(w->node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	err = errno;
	if (fd >= 0) {
		violation(run, "open of %d:%u succeeded without a disk", major,
			  minor);
		close(fd);
	} else if (err != ENXIO) {
		violation(run, "open of %d:%u: %s, expected ENXIO", major,
			  minor, errno_name(err));
	}
	if (!probe_hits(s->fd, major, &h1, &w->st) &&
	    h1.hits != h0.hits + 1)
		violation(run, "open of %d:%u ran the probe %lld times, expected once",
			  major, minor, (long long)(h1.hits - h0.hits));
	unlink(w->node);
out_unlock:
	pthread_mutex_unlock(&s->op);
}

/* Called with s->life held for writing. */
static void slot_open(struct worker *w, struct slot *s)
{
	int fd = helper_open(NULL);

	if (fd < 0) {
		violation(w->run, "open of " HELPER_DEV ": %s",
			  errno_name(fd));
		return;
	}
	s->fd = fd;
	w->st.opens++;
}

/* Everything the file holds goes when it is closed. */
void slot_close(struct run *run, struct slot *s, struct fuzz_counts *st)
{
	uint64_t mark;

	if (s->fd < 0)
		return;
	model_begin(run, &mark);
	model_mark_releasing(run, s, 0, true);
	if (close(s->fd))
		violation(run, "close of slot %u: %s", s->id, strerror(errno));
	s->fd = -1;
	while (s->nheld)
		model_remove(run, s, s->nheld - 1);
	model_end(run);
	st->closes++;
}

static struct slot *pick_slot(struct worker *w)
{
	struct run *run = w->run;

	if (!run->shared_slots || rng_percent(&w->rng, 50))
		return &run->slots[w->id];
	return &run->slots[run->threads +
			   rng_below(&w->rng, run->shared_slots)];
}

enum op {
	OP_REGISTER, OP_UNREGISTER, OP_BATCH, OP_CHAR_PROBE, OP_PROBE_HITS,
	OP_VERSION, OP_MANGLED, OP_RANDOM, OP_LOOKUP, OP_CLOSE, OP_COUNT,
};

/* Relative weights of the operations. */
static const unsigned int weights[OP_COUNT] = {
	[OP_REGISTER] = 20, [OP_UNREGISTER] = 15, [OP_BATCH] = 12,
	[OP_CHAR_PROBE] = 3, [OP_PROBE_HITS] = 10, [OP_VERSION] = 5,
	[OP_MANGLED] = 10, [OP_RANDOM] = 12, [OP_LOOKUP] = 3, [OP_CLOSE] = 2,
};

static enum op pick_op(struct worker *w)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < OP_COUNT; i++)
		total += weights[i];
	r = rng_below(&w->rng, total);
	for (i = 0; i < OP_COUNT; i++) {
		if (r < weights[i])
			return (enum op)i;
		r -= weights[i];
	}
	return OP_VERSION;
}

void fuzz_one(struct worker *w)
{
	struct slot *s = pick_slot(w);
	enum op op = pick_op(w);

	if (op == OP_CLOSE) {
		pthread_rwlock_wrlock(&s->life);
		slot_close(w->run, s, &w->st);
		pthread_rwlock_unlock(&s->life);
		return;
	}
	pthread_rwlock_rdlock(&s->life);
	if (s->fd < 0) {
		/* closed: open it again (for writing, so nobody uses it) */
		pthread_rwlock_unlock(&s->life);
		pthread_rwlock_wrlock(&s->life);
		if (s->fd < 0)
			slot_open(w, s);
		pthread_rwlock_unlock(&s->life);
		return;
	}
	switch (op) {
	case OP_REGISTER:
		op_register(w, s);
		break;
	case OP_UNREGISTER:
		op_unregister(w, s);
		break;
	case OP_BATCH:
		op_batch(w, s);
		break;
	case OP_CHAR_PROBE:
		op_char_probe(w, s);
		break;
	case OP_PROBE_HITS:
		op_probe_hits(w, s);
		break;
	case OP_VERSION:
		op_version(w, s);
		break;
	case OP_MANGLED:
		op_mangled(w, s);
		break;
	case OP_RANDOM:
		op_random(w, s);
		break;
	case OP_LOOKUP:
		op_lookup(w, s);
		break;
	default:
		break;
	}
	pthread_rwlock_unlock(&s->life);
}
