// SPDX-License-Identifier: GPL-2.0
/*
 * blkscale_majors: lets the guest tools register block majors and time the
 * kernel's register, unregister and lookup paths.
 *
 * Each open file holds the majors it registered and releases them when it
 * is closed.  Every major is registered with a probe callback that counts
 * its calls: opening a device node of the major runs the kernel's real
 * lookup (blkdev_get_no_open -> blk_request_module -> probe), and the count
 * shows that the lookup found the entry.
 *
 * Locking: each file's mutex protects its list and is held across
 * __register_blkdev() and unregister_blkdev(), which take major_names_lock.
 * The probe runs under major_names_lock, so it must never take a file
 * mutex: it only reads the held bitmap and bumps atomic counters.
 *
 * An ioctl that fails leaves what the file holds as it was: registrations
 * whose results cannot be returned are undone, and unregistrations, which
 * cannot be undone, first make sure their results can be written.
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <blkscale/majors_uapi.h>

struct bsm_major {
	struct list_head node;
	int major;
	char name[BLKSCALE_NAME_MAX + 1];
};

struct bsm_file {
	struct mutex lock;		/* protects majors */
	struct list_head majors;	/* in registration order */
};

/* Read by the probe without locks; changed only around (un)registration. */
static DECLARE_BITMAP(bsm_held, BLKSCALE_MAJOR_LIMIT);
static atomic64_t bsm_hits[BLKSCALE_MAJOR_LIMIT];
static atomic64_t bsm_strays = ATOMIC64_INIT(0);
static atomic64_t bsm_duplicates = ATOMIC64_INIT(0);

/* Called by blk_request_module() under major_names_lock. */
static void bsm_probe(dev_t devt)
{
	unsigned int major = MAJOR(devt);

	if (major < BLKSCALE_MAJOR_LIMIT && test_bit(major, bsm_held))
		atomic64_inc(&bsm_hits[major]);
	else
		atomic64_inc(&bsm_strays);
}

static bool bsm_name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* 1..BLKSCALE_NAME_MAX allowed characters, NUL-terminated within size. */
static int bsm_check_name(const char *name, size_t size, size_t max)
{
	size_t len = strnlen(name, size);
	size_t i;

	if (len == 0 || len > max)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!bsm_name_char_ok(name[i]))
			return -EINVAL;
	return 0;
}

static struct bsm_major *bsm_find(struct bsm_file *bf, int major)
{
	struct bsm_major *m;

	list_for_each_entry_reverse(m, &bf->majors, node)
		if (m->major == major)
			return m;
	return NULL;
}

/* Take ownership of a major the kernel just registered for us. */
static void bsm_hold(struct bsm_file *bf, struct bsm_major *m)
{
	atomic64_set(&bsm_hits[m->major], 0);
	if (test_and_set_bit(m->major, bsm_held))
		atomic64_inc(&bsm_duplicates);
	list_add_tail(&m->node, &bf->majors);
}

static void bsm_drop(struct bsm_major *m)
{
	list_del(&m->node);
	kfree(m);
}

/*
 * Test only: bytes leaked on purpose per registration, so that a test can
 * show the selftest's leak check catches a leak of that size.
 */
static unsigned int leak_per_register;
module_param(leak_per_register, uint, 0600);
MODULE_PARM_DESC(leak_per_register,
		 "test only: leak this many bytes per registration");
static void *bsm_leaked;

/* Register @m->major (0 = dynamic) under @m->name; returns the major. */
static int bsm_register_one(struct bsm_major *m, u64 *ns)
{
	unsigned int leak = READ_ONCE(leak_per_register);
	u64 start;
	int ret;

	start = ktime_get_ns();
	ret = __register_blkdev(m->major, m->name, bsm_probe);
	*ns = ktime_get_ns() - start;
	if (ret < 0)
		return ret;
	if (unlikely(leak))
		bsm_leaked = kmalloc(leak, GFP_KERNEL);	/* never freed */
	if (m->major == 0)
		m->major = ret;
	return m->major;
}

/*
 * The major stops counting as held before the kernel call: the moment
 * unregister_blkdev() returns, another file may be handed the same major,
 * and that must not look like a duplicate.
 */
static u64 bsm_unregister_one(struct bsm_major *m)
{
	u64 start;

	clear_bit(m->major, bsm_held);
	start = ktime_get_ns();
	unregister_blkdev(m->major, m->name);
	return ktime_get_ns() - start;
}

static long bsm_ioc_register(struct bsm_file *bf, void __user *uarg)
{
	struct blkscale_register r;
	struct bsm_major *m;
	u64 ns;
	int ret;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	if (r.version != BLKSCALE_UAPI_VERSION || r.flags || r.reserved)
		return -EINVAL;
	ret = bsm_check_name(r.name, sizeof(r.name), BLKSCALE_NAME_MAX);
	if (ret)
		return ret;
	if (r.major < 0 || r.major >= BLKSCALE_MAJOR_LIMIT)
		return -EINVAL;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->major = r.major;
	strscpy(m->name, r.name, sizeof(m->name));

	mutex_lock(&bf->lock);
	ret = bsm_register_one(m, &ns);
	if (ret < 0)
		goto out_free;
	bsm_hold(bf, m);
	r.major = m->major;
	r.ns = ns;
	if (copy_to_user(uarg, &r, sizeof(r))) {
		/* the caller cannot learn the major: do not keep it */
		bsm_unregister_one(m);
		bsm_drop(m);
		ret = -EFAULT;
		goto out_unlock;
	}
	ret = 0;
	goto out_unlock;

out_free:
	kfree(m);
out_unlock:
	mutex_unlock(&bf->lock);
	return ret;
}

/*
 * Test-only fault injection: while set, the re-registration that follows
 * a wrong-name unregister fails with -ENOMEM as a failed allocation in
 * __register_blkdev() would, without calling it.  The kernel then still
 * holds the major with bsm_probe(), and the entry must stay with the file.
 */
static bool fail_reregister;
module_param(fail_reregister, bool, 0600);
MODULE_PARM_DESC(fail_reregister,
		 "test only: fail the re-registration after a wrong-name unregister with -ENOMEM");

/*
 * unregister_blkdev() with a wrong name WARNs and keeps the entry on 6.1.
 * Whether it was kept is found out by registering the major again:
 * success means it was gone and is held again, -EBUSY that the kernel
 * kept it.  Any other error tells nothing: the major may still be
 * registered with bsm_probe(), so the entry stays (its release unregisters
 * it) and the caller gets the error.  Dropping it would leave the kernel
 * calling into this module after it is unloaded.
 */
static int bsm_unregister_wrong(struct bsm_major *m, const char *wrong,
				struct blkscale_unregister *u)
{
	u64 start;
	int ret;

	if (!strcmp(wrong, m->name))
		return -EINVAL;
	start = ktime_get_ns();
	unregister_blkdev(m->major, wrong);
	u->ns = ktime_get_ns() - start;

	if (READ_ONCE(fail_reregister))
		ret = -ENOMEM;
	else
		ret = __register_blkdev(m->major, m->name, bsm_probe);
	if (ret == -EBUSY) {
		u->kept = 1;
		return 0;
	}
	if (ret < 0)
		return ret;
	/* it was gone: held again under the same name */
	u->kept = 0;
	return 0;
}

/*
 * The fields were written a moment ago: only another thread unmapping or
 * write-protecting them meanwhile makes this fail.  The work is done then
 * and the caller learns that its results were lost, as wait4() does.
 */
static int bsm_put_unregister(struct blkscale_unregister __user *up,
			      const struct blkscale_unregister *u)
{
	if (put_user(u->kept, &up->kept) || put_user(u->ns, &up->ns))
		return -EFAULT;
	return 0;
}

static long bsm_ioc_unregister(struct bsm_file *bf, void __user *uarg)
{
	struct blkscale_unregister __user *up = uarg;
	struct blkscale_unregister u;
	struct bsm_major *m;
	int ret;

	if (copy_from_user(&u, uarg, sizeof(u)))
		return -EFAULT;
	if (u.version != BLKSCALE_UAPI_VERSION || u.reserved)
		return -EINVAL;
	if (u.flags & ~BLKSCALE_UNREG_WRONG_NAME)
		return -EINVAL;
	if (u.major <= 0 || u.major >= BLKSCALE_MAJOR_LIMIT)
		return -EINVAL;
	ret = bsm_check_name(u.name, sizeof(u.name), BLKSCALE_NAME_MAX);
	if (ret)
		return ret;
	/*
	 * A major once released cannot be taken back (somebody else may be
	 * given it at once), so the results must be writable before: zero
	 * them now, and a fault leaves the major held.
	 */
	if (put_user(0, &up->kept) || put_user(0, &up->ns))
		return -EFAULT;

	mutex_lock(&bf->lock);
	m = bsm_find(bf, u.major);
	if (!m) {
		ret = -ENOENT;
		goto out_unlock;
	}
	u.kept = 0;
	if (u.flags & BLKSCALE_UNREG_WRONG_NAME) {
		ret = bsm_unregister_wrong(m, u.name, &u);
		if (ret)
			goto out_unlock;
	} else {
		if (strcmp(u.name, m->name)) {
			ret = -EINVAL;
			goto out_unlock;
		}
		u.ns = bsm_unregister_one(m);
		bsm_drop(m);
	}
	ret = bsm_put_unregister(up, &u);

out_unlock:
	mutex_unlock(&bf->lock);
	return ret;
}

/* Register up to b->count dynamic majors; stop at the first failure. */
static void bsm_batch_register(struct bsm_file *bf, struct blkscale_batch *b,
			       u64 *samples, s32 *majors)
{
	struct bsm_major *m;
	u32 i;
	int ret;

	for (i = 0; i < b->count; i++) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m) {
			b->stop_error = -ENOMEM;
			return;
		}
		snprintf(m->name, sizeof(m->name), "%s%u", b->prefix,
			 b->name_base + i);
		ret = bsm_register_one(m, &samples[i]);
		if (ret < 0) {
			kfree(m);
			b->stop_error = ret;
			return;
		}
		bsm_hold(bf, m);
		majors[i] = ret;
		b->done++;
	}
}

/* Unregister up to b->count majors, the most recently registered first. */
static void bsm_batch_unregister(struct bsm_file *bf, struct blkscale_batch *b,
				 u64 *samples, s32 *majors)
{
	struct bsm_major *m;
	u32 i;

	for (i = 0; i < b->count; i++) {
		if (list_empty(&bf->majors)) {
			b->stop_error = -ENOENT;
			return;
		}
		m = list_last_entry(&bf->majors, struct bsm_major, node);
		samples[i] = bsm_unregister_one(m);
		majors[i] = m->major;
		bsm_drop(m);
		b->done++;
	}
}

/* Undo the registrations of a batch whose results cannot be returned. */
static void bsm_batch_undo(struct bsm_file *bf, u32 done)
{
	struct bsm_major *m;

	while (done--) {
		m = list_last_entry(&bf->majors, struct bsm_major, node);
		bsm_unregister_one(m);
		bsm_drop(m);
	}
}

static int bsm_batch_check(struct blkscale_batch *b)
{
	size_t max_digits = BLKSCALE_NAME_MAX - BLKSCALE_PREFIX_MAX;

	if (b->version != BLKSCALE_UAPI_VERSION || b->flags || b->reserved)
		return -EINVAL;
	if (b->count == 0 || b->count > BLKSCALE_BATCH_MAX)
		return -EINVAL;
	if (b->op == BLKSCALE_BATCH_UNREGISTER)
		return 0;
	if (b->op != BLKSCALE_BATCH_REGISTER)
		return -EINVAL;
	/* the prefix plus any u32 must fit in a name */
	BUILD_BUG_ON(max_digits < 10);
	return bsm_check_name(b->prefix, sizeof(b->prefix),
			      BLKSCALE_PREFIX_MAX);
}

/* How many majors an unregister batch of @count will let go. */
static u32 bsm_batch_unregister_count(struct bsm_file *bf, u32 count)
{
	struct bsm_major *m;
	u32 n = 0;

	list_for_each_entry(m, &bf->majors, node)
		if (++n == count)
			break;
	return n;
}

/*
 * Zero everything an unregister batch returns, before anything is let
 * go: a fault found afterwards could no longer be undone.
 */
static int bsm_batch_zero_results(struct blkscale_batch __user *ub,
				  void __user *usamples, void __user *umajors,
				  u32 n)
{
	if (put_user(0, &ub->done) || put_user(0, &ub->stop_error))
		return -EFAULT;
	if (usamples && clear_user(usamples, n * sizeof(u64)))
		return -EFAULT;
	if (umajors && clear_user(umajors, n * sizeof(s32)))
		return -EFAULT;
	return 0;
}

/* Only the out fields are written: the caller may keep the rest read-only. */
static int bsm_batch_put_results(struct blkscale_batch __user *ub,
				 const struct blkscale_batch *b,
				 void __user *usamples, void __user *umajors,
				 const u64 *samples, const s32 *majors)
{
	if (usamples &&
	    copy_to_user(usamples, samples, b->done * sizeof(*samples)))
		return -EFAULT;
	if (umajors && copy_to_user(umajors, majors, b->done * sizeof(*majors)))
		return -EFAULT;
	if (put_user(b->done, &ub->done) ||
	    put_user(b->stop_error, &ub->stop_error))
		return -EFAULT;
	return 0;
}

/*
 * A register batch that cannot return its results is undone.  An
 * unregister batch cannot be undone, so its results are zeroed before
 * (bsm_batch_zero_results()); after that only another thread changing
 * the mapping meanwhile makes the copy fail, and the majors stay gone.
 */
static long bsm_ioc_batch(struct bsm_file *bf, void __user *uarg)
{
	struct blkscale_batch __user *ub = uarg;
	struct blkscale_batch b;
	void __user *usamples;
	void __user *umajors;
	u64 *samples;
	s32 *majors;
	int ret;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	ret = bsm_batch_check(&b);
	if (ret)
		return ret;
	usamples = u64_to_user_ptr(b.samples);
	umajors = u64_to_user_ptr(b.majors);
	if ((usamples && !access_ok(usamples, b.count * sizeof(u64))) ||
	    (umajors && !access_ok(umajors, b.count * sizeof(s32))))
		return -EFAULT;

	samples = kvcalloc(b.count, sizeof(*samples), GFP_KERNEL);
	majors = kvcalloc(b.count, sizeof(*majors), GFP_KERNEL);
	if (!samples || !majors) {
		ret = -ENOMEM;
		goto out_free;
	}

	b.done = 0;
	b.stop_error = 0;
	mutex_lock(&bf->lock);
	if (b.op == BLKSCALE_BATCH_REGISTER) {
		bsm_batch_register(bf, &b, samples, majors);
		ret = bsm_batch_put_results(ub, &b, usamples, umajors,
					    samples, majors);
		if (ret)
			bsm_batch_undo(bf, b.done);
	} else {
		ret = bsm_batch_zero_results(ub, usamples, umajors,
					     bsm_batch_unregister_count(bf, b.count));
		if (ret)
			goto out_unlock;
		bsm_batch_unregister(bf, &b, samples, majors);
		ret = bsm_batch_put_results(ub, &b, usamples, umajors,
					    samples, majors);
	}

out_unlock:
	mutex_unlock(&bf->lock);
out_free:
	kvfree(majors);
	kvfree(samples);
	return ret;
}

/*
 * Dynamic char majors until exhaustion, for comparison with block.  All of
 * them are released before anything is copied out: a slow or faulting user
 * page must not keep a hundred char majors away from the rest of the
 * system.
 */
static long bsm_ioc_char_probe(void __user *uarg)
{
	struct blkscale_char_probe c;
	char name[BLKSCALE_NAME_MAX + 1];
	void __user *usamples;
	void __user *umajors;
	u64 *samples;
	s32 *majors;
	dev_t dev;
	u64 start;
	u32 major;
	u32 i;
	int ret;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (c.version != BLKSCALE_UAPI_VERSION || c.flags || c.reserved)
		return -EINVAL;
	if (c.limit == 0 || c.limit > BLKSCALE_BATCH_MAX)
		return -EINVAL;
	usamples = u64_to_user_ptr(c.samples);
	umajors = u64_to_user_ptr(c.majors);
	if ((c.samples && !access_ok(usamples, c.limit * sizeof(u64))) ||
	    (c.majors && !access_ok(umajors, c.limit * sizeof(s32))))
		return -EFAULT;

	samples = kvcalloc(c.limit, sizeof(*samples), GFP_KERNEL);
	majors = kvcalloc(c.limit, sizeof(*majors), GFP_KERNEL);
	if (!samples || !majors) {
		ret = -ENOMEM;
		goto out_free;
	}

	c.count = 0;
	c.stop_error = 0;
	c.min_major = 0;
	c.max_major = 0;
	for (i = 0; i < c.limit; i++) {
		snprintf(name, sizeof(name), "bsmchr%u", i);
		start = ktime_get_ns();
		ret = alloc_chrdev_region(&dev, 0, 1, name);
		samples[i] = ktime_get_ns() - start;
		if (ret) {
			c.stop_error = ret;
			break;
		}
		major = MAJOR(dev);
		majors[i] = major;
		if (!c.count || major < c.min_major)
			c.min_major = major;
		if (!c.count || major > c.max_major)
			c.max_major = major;
		c.count++;
	}
	for (i = 0; i < c.count; i++)
		unregister_chrdev_region(MKDEV(majors[i], 0), 1);

	ret = 0;
	if (c.majors &&
	    copy_to_user(umajors, majors, c.count * sizeof(*majors)))
		ret = -EFAULT;
	if (!ret && c.samples &&
	    copy_to_user(usamples, samples, c.count * sizeof(*samples)))
		ret = -EFAULT;
	if (!ret && copy_to_user(uarg, &c, sizeof(c)))
		ret = -EFAULT;

out_free:
	kvfree(majors);
	kvfree(samples);
	return ret;
}

static long bsm_ioc_probe_hits(struct bsm_file *bf, void __user *uarg)
{
	struct blkscale_probe_hits h;

	if (copy_from_user(&h, uarg, sizeof(h)))
		return -EFAULT;
	if (h.version != BLKSCALE_UAPI_VERSION || h.flags || h.reserved)
		return -EINVAL;
	if (h.major <= 0 || h.major >= BLKSCALE_MAJOR_LIMIT)
		return -EINVAL;

	mutex_lock(&bf->lock);
	h.held = bsm_find(bf, h.major) ? 1 : 0;
	mutex_unlock(&bf->lock);
	h.hits = atomic64_read(&bsm_hits[h.major]);
	h.strays = atomic64_read(&bsm_strays);
	h.duplicates = atomic64_read(&bsm_duplicates);
	return copy_to_user(uarg, &h, sizeof(h)) ? -EFAULT : 0;
}

/*
 * Empty timed regions: the same two ktime_get_ns() calls as around
 * __register_blkdev(), with nothing between them.  The samples go to a
 * kernel buffer first, so no page fault lands inside a region.
 */
static long bsm_ioc_clock_empty(void __user *uarg)
{
	struct blkscale_clock_empty __user *uc = uarg;
	struct blkscale_clock_empty c;
	void __user *usamples;
	u64 *samples;
	u64 start;
	u32 i;
	int ret = 0;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (c.version != BLKSCALE_UAPI_VERSION || c.flags || c.reserved)
		return -EINVAL;
	if (c.pairs == 0 || c.pairs > BLKSCALE_CLOCK_PAIRS_MAX || !c.samples)
		return -EINVAL;
	usamples = u64_to_user_ptr(c.samples);
	if (!access_ok(usamples, c.pairs * sizeof(u64)))
		return -EFAULT;

	samples = kvcalloc(c.pairs, sizeof(*samples), GFP_KERNEL);
	if (!samples)
		return -ENOMEM;
	c.min = U64_MAX;
	c.max = 0;
	for (i = 0; i < c.pairs; i++) {
		/* outside the regions: a long run must not hog the CPU */
		if (!(i % 1024))
			cond_resched();
		start = ktime_get_ns();
		samples[i] = ktime_get_ns() - start;
	}
	for (i = 0; i < c.pairs; i++) {
		c.min = min(c.min, samples[i]);
		c.max = max(c.max, samples[i]);
	}
	if (copy_to_user(usamples, samples, c.pairs * sizeof(*samples)) ||
	    put_user(c.min, &uc->min) || put_user(c.max, &uc->max))
		ret = -EFAULT;
	kvfree(samples);
	return ret;
}

/*
 * rcu_barrier() waits for call_rcu() callbacks only; kfree_rcu() batches
 * have their own barrier since 6.12 (Kbuild looks for it).  Without it,
 * what kfree_rcu() queued may still be pending, and the bits say so.
 */
static long bsm_ioc_rcu_barrier(u32 __user *uarg)
{
	u32 done = BLKSCALE_BARRIER_RCU;

	rcu_barrier();
#ifdef BLKSCALE_HAVE_KVFREE_RCU_BARRIER
	kvfree_rcu_barrier();
	done |= BLKSCALE_BARRIER_KVFREE_RCU;
#endif
	return put_user(done, uarg);
}

static long bsm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct bsm_file *bf = file->private_data;
	void __user *uarg = (void __user *)arg;

	/* the fd may have been passed to a process without the capability */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	switch (cmd) {
	case BLKSCALE_IOC_VERSION:
		return put_user(BLKSCALE_UAPI_VERSION, (u32 __user *)uarg);
	case BLKSCALE_IOC_REGISTER:
		return bsm_ioc_register(bf, uarg);
	case BLKSCALE_IOC_UNREGISTER:
		return bsm_ioc_unregister(bf, uarg);
	case BLKSCALE_IOC_BATCH:
		return bsm_ioc_batch(bf, uarg);
	case BLKSCALE_IOC_CHAR_PROBE:
		return bsm_ioc_char_probe(uarg);
	case BLKSCALE_IOC_PROBE_HITS:
		return bsm_ioc_probe_hits(bf, uarg);
	case BLKSCALE_IOC_CLOCK_EMPTY:
		return bsm_ioc_clock_empty(uarg);
	case BLKSCALE_IOC_RCU_BARRIER:
		return bsm_ioc_rcu_barrier(uarg);
	default:
		return -ENOTTY;
	}
}

static int bsm_open(struct inode *inode, struct file *file)
{
	struct bsm_file *bf;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	bf = kzalloc(sizeof(*bf), GFP_KERNEL);
	if (!bf)
		return -ENOMEM;
	mutex_init(&bf->lock);
	INIT_LIST_HEAD(&bf->majors);
	file->private_data = bf;
	return 0;
}

/* Everything a file registered goes away with it, newest first. */
static int bsm_release(struct inode *inode, struct file *file)
{
	struct bsm_file *bf = file->private_data;
	struct bsm_major *m;

	while (!list_empty(&bf->majors)) {
		m = list_last_entry(&bf->majors, struct bsm_major, node);
		bsm_unregister_one(m);
		bsm_drop(m);
	}
	mutex_destroy(&bf->lock);
	kfree(bf);
	return 0;
}

static const struct file_operations bsm_fops = {
	.owner = THIS_MODULE,
	.open = bsm_open,
	.release = bsm_release,
	.unlocked_ioctl = bsm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice bsm_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = BLKSCALE_DEV_NAME,
	.fops = &bsm_fops,
	.mode = 0600,
};

/*
 * Open files pin the module (fops.owner), so by the time it is unloaded
 * every file has been released and with it every major it registered.
 */
static int __init bsm_init(void)
{
	/* the same layout for 32-bit callers: see majors_uapi.h */
	BUILD_BUG_ON(sizeof(struct blkscale_register) % 8);
	BUILD_BUG_ON(sizeof(struct blkscale_unregister) % 8);
	BUILD_BUG_ON(sizeof(struct blkscale_batch) % 8);
	BUILD_BUG_ON(sizeof(struct blkscale_char_probe) % 8);
	BUILD_BUG_ON(sizeof(struct blkscale_probe_hits) % 8);
	BUILD_BUG_ON(sizeof(struct blkscale_clock_empty) % 8);
	return misc_register(&bsm_misc);
}

static void __exit bsm_exit(void)
{
	misc_deregister(&bsm_misc);
}

module_init(bsm_init);
module_exit(bsm_exit);

MODULE_DESCRIPTION("blkscale: register block majors and time the kernel's paths");
MODULE_LICENSE("GPL");
