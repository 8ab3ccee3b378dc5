// SPDX-License-Identifier: GPL-2.0
/*
 * BATCH and CHAR_PROBE: a structure plus two arrays the module writes, so
 * a fault can come after the kernel work is done.  The module undoes a
 * register batch it cannot report; an unregister batch, which cannot be
 * undone, zeroes its results first and lets nothing go if that faults.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fuzz.h"

static uint32_t pick_count(struct worker *w)
{
	unsigned int r = rng_below(&w->rng, 100);

	if (r < 45)
		return 1 + rng_below(&w->rng, 8);
	if (r < 72)
		return 9 + rng_below(&w->rng, 56);
	/* large batches are slow on a debug kernel: a few go to the limit */
	if (r < 75)
		return 65 + rng_below(&w->rng, BLKSCALE_BATCH_MAX - 64);
	if (r < 76)
		return BLKSCALE_BATCH_MAX;
	if (r < 84)
		return 0;
	if (r < 90)
		return BLKSCALE_BATCH_MAX + 1;
	if (r < 95)
		return UINT32_MAX;
	return (uint32_t)rng_next(&w->rng);
}

static enum arr_kind pick_arr(struct worker *w)
{
	unsigned int r = rng_below(&w->rng, 100);

	if (r < 35)
		return AK_NONE;
	if (r < 75)
		return AK_VALID;
	return (enum arr_kind)(AK_SHORT + rng_below(&w->rng, AK_COUNT - AK_SHORT));
}

static enum ptr_kind pick_struct_kind(struct worker *w)
{
	if (rng_percent(&w->rng, 85))
		return PK_VALID;
	return (enum ptr_kind)(1 + rng_below(&w->rng, PK_COUNT - 1));
}

/* Anything but a valid prefix. */
static void bad_prefix(struct worker *w, char *buf, size_t size)
{
	size_t len, i;

	memset(buf, 0, size);
	switch (rng_below(&w->rng, 4)) {
	case 0:		/* empty */
		break;
	case 1:		/* longer than BLKSCALE_PREFIX_MAX, or unterminated */
		len = BLKSCALE_PREFIX_MAX + 1 +
		      rng_below(&w->rng, (uint32_t)(size - BLKSCALE_PREFIX_MAX));
		for (i = 0; i < len; i++)
			buf[i] = 'p';
		break;
	case 2:		/* a slash */
		buf[0] = 'p';
		buf[1] = '/';
		break;
	default:
		rng_fill(&w->rng, buf, size);
		break;
	}
}

static bool prefix_match(const char *name, const char *prefix, uint32_t *num)
{
	size_t plen = strlen(prefix);
	unsigned long long v = 0;
	const char *p;

	if (strncmp(name, prefix, plen) || !name[plen])
		return false;
	for (p = name + plen; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*num = (uint32_t)v;
	return true;
}

static int read_procdevices(struct procdevices *pd)
{
	char err[160], *text;
	long len;
	int ret;

	len = procdev_read_file("/proc/devices", &text);
	if (len < 0)
		return (int)len;
	ret = procdev_parse(text, (size_t)len, pd, err, sizeof(err));
	free(text);
	if (ret) {
		fprintf(stderr, "blkscale-fuzz: /proc/devices: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

int resolve_batch(const char *prefix, uint32_t base, uint32_t done,
		  int32_t *majors)
{
	struct procdevices pd;
	uint32_t num, i, found = 0;
	size_t k;
	int ret;

	ret = read_procdevices(&pd);
	if (ret)
		return ret;
	for (i = 0; i < done; i++)
		majors[i] = -1;
	for (k = 0; k < pd.blk.n; k++) {
		if (!prefix_match(pd.blk.v[k].name, prefix, &num))
			continue;
		i = num - base;		/* names wrap around like the module's */
		if (i < done && majors[i] < 0) {
			majors[i] = pd.blk.v[k].major;
			found++;
		} else {
			found = UINT32_MAX;	/* a name twice, or one too many */
			break;
		}
	}
	procdev_free(&pd);
	return found == done ? 0 : -ENOENT;
}

bool prefix_listed(const char *prefix)
{
	struct procdevices pd;
	bool listed = false;
	uint32_t num;
	size_t k;

	if (read_procdevices(&pd))
		return false;
	for (k = 0; k < pd.blk.n && !listed; k++)
		listed = prefix_match(pd.blk.v[k].name, prefix, &num);
	procdev_free(&pd);
	return listed;
}

static void batch_registered(struct worker *w, struct slot *s,
			     const struct blkscale_batch *b,
			     const struct blkscale_batch *out, enum arr_kind ak,
			     const int32_t *arr)
{
	static int32_t resolved[BLKSCALE_BATCH_MAX];
	static pthread_mutex_t resolved_lock = PTHREAD_MUTEX_INITIALIZER;
	struct run *run = w->run;
	char name[BLKSCALE_NAME_MAX + 1];
	uint32_t i, done = out->done;

	if (done > b->count) {
		violation(run, "BATCH register: done %u of %u", done, b->count);
		return;
	}
	if (done == b->count ? out->stop_error != 0 :
	    (out->stop_error != -EBUSY && out->stop_error != -ENOSPC &&
	     out->stop_error != -ENOMEM))
		violation(run, "BATCH register: %u of %u, stop_error %s",
			  done, b->count, errno_name(out->stop_error));
	pthread_mutex_lock(&resolved_lock);
	if (ak != AK_VALID) {
		/* the module did not say which: /proc/devices does */
		if (resolve_batch(b->prefix, b->name_base, done, resolved)) {
			violation(run, "BATCH register: %u names of prefix %s not all in /proc/devices",
				  done, b->prefix);
			pthread_mutex_unlock(&resolved_lock);
			return;
		}
		arr = resolved;
	}
	for (i = 0; i < done; i++) {
		snprintf(name, sizeof(name), "%s%u", b->prefix,
			 b->name_base + i);
		model_add(run, s, arr[i], name);
	}
	pthread_mutex_unlock(&resolved_lock);
	w->st.registered += done;
}

static void batch_unregistered(struct worker *w, struct slot *s,
			       const struct blkscale_batch *b,
			       const struct blkscale_batch *out,
			       enum arr_kind ak, const int32_t *arr,
			       size_t nheld)
{
	struct run *run = w->run;
	uint32_t want = b->count < nheld ? b->count : (uint32_t)nheld;
	uint32_t i;

	if (out->done != want ||
	    out->stop_error != (b->count > nheld ? -ENOENT : 0)) {
		violation(run, "BATCH unregister of %u with %zu held: done %u, stop_error %s",
			  b->count, nheld, out->done,
			  errno_name(out->stop_error));
		model_resync(run, s, nheld - want, &w->st);
		return;
	}
	for (i = 0; i < want; i++) {
		if (ak == AK_VALID && arr[i] != s->held[s->nheld - 1].major)
			violation(run, "BATCH unregister: #%u was major %d, the newest held is %d",
				  i, arr[i], s->held[s->nheld - 1].major);
		model_remove(run, s, s->nheld - 1);
	}
	w->st.unregistered += want;
}

void op_batch(struct worker *w, struct slot *s)
{
	static const int errs[] = { EFAULT, EINVAL, ENOMEM, 0 };
	struct run *run = w->run;
	struct blkscale_batch b, *p;
	enum ptr_kind k = pick_struct_kind(w);
	enum arr_kind sk = pick_arr(w), mk = pick_arr(w);
	uint32_t sroom, mroom, n;
	size_t nheld, from = 0;
	bool valid, early_fault, may_fault, reg, unreg, late = false;
	uint64_t mark;
	uint32_t going;
	int ret, err, want;

	memset(&b, 0, sizeof(b));
	b.version = rng_percent(&w->rng, 95) ? BLKSCALE_UAPI_VERSION : 0;
	b.op = rng_percent(&w->rng, 50) ? BLKSCALE_BATCH_REGISTER :
	       rng_percent(&w->rng, 90) ? BLKSCALE_BATCH_UNREGISTER :
	       (uint32_t)rng_below(&w->rng, 5) * 3;	/* 0, 3, 6, 9, 12 */
	b.count = pick_count(w);
	b.done = (uint32_t)rng_next(&w->rng);
	b.stop_error = (int32_t)rng_next(&w->rng);
	b.name_base = (uint32_t)rng_next(&w->rng);
	b.flags = gen_must_be_zero(&w->rng);
	b.reserved = gen_must_be_zero(&w->rng);
	if (rng_percent(&w->rng, 88)) {
		pthread_mutex_lock(&run->lock);
		gen_prefix(b.prefix, sizeof(b.prefix), run->batch_seq++);
		pthread_mutex_unlock(&run->lock);
	} else {
		bad_prefix(w, b.prefix, sizeof(b.prefix));
	}
	n = b.count < BLKSCALE_BATCH_MAX ? b.count : BLKSCALE_BATCH_MAX;
	b.samples = arena_array(&w->arena, &w->rng, sk, n, sizeof(uint64_t),
				true, &sroom);
	b.majors = arena_array(&w->arena, &w->rng, mk, n, sizeof(int32_t),
			       false, &mroom);

	reg = b.op == BLKSCALE_BATCH_REGISTER;
	unreg = b.op == BLKSCALE_BATCH_UNREGISTER;
	valid = b.version == BLKSCALE_UAPI_VERSION && !b.flags && !b.reserved &&
		b.count > 0 &&
		b.count <= BLKSCALE_BATCH_MAX && (reg || unreg) &&
		(unreg || name_ok(b.prefix, sizeof(b.prefix),
				  BLKSCALE_PREFIX_MAX));
	early_fault = sk == AK_KERNEL || mk == AK_KERNEL;
	/* a fault once the work is done, depending on how much was done */
	may_fault = !ptr_writable(k) || (sk != AK_NONE && sk != AK_VALID) ||
		    (mk != AK_NONE && mk != AK_VALID);

	/* the answer, if it is decided before any work is done */
	want = !ptr_readable(k) ? EFAULT : !valid ? EINVAL :
	       early_fault ? EFAULT : -1;

	p = arena_place(&w->arena, &w->rng, k, &b, sizeof(b));
	pthread_mutex_lock(&s->op);
	nheld = s->nheld;
	going = b.count < nheld ? b.count : (uint32_t)nheld;
	from = nheld - going;
	/*
	 * An unregister batch is decided before any work too, once the
	 * module knows how many majors go (only ENOMEM may come first).
	 */
	if (unreg && want < 0) {
		late = true;
		want = !ptr_writable(k) || arr_faults(sk, sroom, going) ||
		       arr_faults(mk, mroom, going) ? EFAULT : 0;
	}
	model_begin(run, &mark);
	if (unreg && want == 0)
		model_mark_releasing(run, s, from, true);
	ret = ioctl(s->fd, BLKSCALE_IOC_BATCH, p);
	err = ret < 0 ? errno : 0;
	count_call(w, CMD_BATCH, ret, err);

	/* success, although what was done did not fit the arrays */
	if (want < 0 && ret == 0 && ptr_readable(k) &&
	    (arr_faults(sk, sroom, p->done) || arr_faults(mk, mroom, p->done)))
		want = EFAULT;

	if (unreg && want == 0 && ret == 0) {
		batch_unregistered(w, s, &b, p, mk,
				   (const int32_t *)(uintptr_t)b.majors, nheld);
	} else if (late && ret < 0 && err == ENOMEM) {
		model_resync(run, s, from, &w->st);
	} else if (want >= 0) {
		if ((ret < 0 ? err : 0) != want)
			violation(run, "BATCH (%s struct, op %u, count %u): got %s, expected %s",
				  ptr_kind_name(k), b.op, b.count,
				  ret < 0 ? errno_name(err) : "success",
				  errno_name(want));
		if (ret == 0) {	/* whatever it did, find out */
			model_resync(run, s, 0, &w->st);
		} else if (unreg && valid) {
			/* refused: every major must still be held */
			size_t before = s->nheld;

			model_resync(run, s, from, &w->st);
			if (before != s->nheld)
				violation(run, "BATCH unregister failed with %s but let %zu majors go",
					  errno_name(err), before - s->nheld);
			else if (err == EFAULT)
				w->st.batch_efault_kept++;
		} else if (unreg) {
			model_mark_releasing(run, s, from, false);
		}
	} else if (ret == 0) {
		batch_registered(w, s, &b, p, mk,
				 (const int32_t *)(uintptr_t)b.majors);
	} else if (err == EFAULT && may_fault) {
		if (prefix_listed(b.prefix))
			violation(run, "BATCH register failed with EFAULT but left names of %s registered",
				  b.prefix);
	} else {
		if (!errno_in(err, errs))
			violation(run, "BATCH: errno %s is not one BATCH may return",
				  errno_name(err));
		else if (err != ENOMEM)
			violation(run, "BATCH (%s struct, op %u, count %u): unexpected %s",
				  ptr_kind_name(k), b.op, b.count,
				  errno_name(err));
		if (unreg)
			model_resync(run, s, from, &w->st);
	}
	model_end(run);
	pthread_mutex_unlock(&s->op);
}

void op_char_probe(struct worker *w, struct slot *s)
{
	struct run *run = w->run;
	struct blkscale_char_probe c, *p;
	enum ptr_kind k = pick_struct_kind(w);
	enum arr_kind sk = pick_arr(w), mk = pick_arr(w);
	const int32_t *majors;
	uint32_t sroom, mroom, n, i;
	bool valid, fault;
	int ret, err, want;

	memset(&c, 0, sizeof(c));
	c.version = rng_percent(&w->rng, 95) ? BLKSCALE_UAPI_VERSION :
		    BLKSCALE_UAPI_VERSION + 1;
	if (rng_percent(&w->rng, 50))
		c.limit = 1 + rng_below(&w->rng, 16);
	else
		c.limit = pick_count(w);
	rng_fill(&w->rng, &c.count, sizeof(uint32_t) * 4);
	c.flags = gen_must_be_zero(&w->rng);
	c.reserved = gen_must_be_zero(&w->rng);
	n = c.limit < BLKSCALE_BATCH_MAX ? c.limit : BLKSCALE_BATCH_MAX;
	c.samples = arena_array(&w->arena, &w->rng, sk, n, sizeof(uint64_t),
				true, &sroom);
	c.majors = arena_array(&w->arena, &w->rng, mk, n, sizeof(int32_t),
			       false, &mroom);
	valid = c.version == BLKSCALE_UAPI_VERSION && !c.flags && !c.reserved &&
		c.limit > 0 &&
		c.limit <= BLKSCALE_BATCH_MAX;
	p = arena_place(&w->arena, &w->rng, k, &c, sizeof(c));
	ret = ioctl(s->fd, BLKSCALE_IOC_CHAR_PROBE, p);
	err = ret < 0 ? errno : 0;
	count_call(w, CMD_CHAR_PROBE, ret, err);

	if (!ptr_readable(k) || !valid || sk == AK_KERNEL || mk == AK_KERNEL) {
		want = !ptr_readable(k) ? EFAULT : !valid ? EINVAL : EFAULT;
		if ((ret < 0 ? err : 0) != want)
			violation(run, "CHAR_PROBE (%s struct, limit %u): got %s, expected %s",
				  ptr_kind_name(k), c.limit,
				  ret < 0 ? errno_name(err) : "success",
				  errno_name(want));
		return;
	}
	if (ret < 0) {
		if (err != EFAULT && err != ENOMEM)
			violation(run, "CHAR_PROBE (limit %u): unexpected %s",
				  c.limit, errno_name(err));
		else if (err == EFAULT && ptr_writable(k) &&
			 (sk == AK_NONE || sk == AK_VALID) &&
			 (mk == AK_NONE || mk == AK_VALID))
			violation(run, "CHAR_PROBE (limit %u): EFAULT with good pointers",
				  c.limit);
		return;
	}
	fault = arr_faults(sk, sroom, p->count) || arr_faults(mk, mroom, p->count);
	if (fault)
		violation(run, "CHAR_PROBE: success although %u majors did not fit",
			  p->count);
	if (p->count > c.limit ||
	    (p->count == c.limit ? p->stop_error != 0 :
	     p->stop_error != -EBUSY && p->stop_error != -ENOSPC))
		violation(run, "CHAR_PROBE of %u: count %u, stop_error %s",
			  c.limit, p->count, errno_name(p->stop_error));
	if (p->count && (p->min_major > p->max_major || !p->min_major ||
			 p->max_major >= BLKSCALE_MAJOR_LIMIT))
		violation(run, "CHAR_PROBE: majors %u..%u", p->min_major,
			  p->max_major);
	if (mk != AK_VALID || fault)
		return;
	majors = (const int32_t *)(uintptr_t)c.majors;
	for (i = 0; i < p->count; i++) {
		if (majors[i] < (int32_t)p->min_major ||
		    majors[i] > (int32_t)p->max_major) {
			violation(run, "CHAR_PROBE: major #%u is %d, outside %u..%u",
				  i, majors[i], p->min_major, p->max_major);
			break;
		}
	}
}
