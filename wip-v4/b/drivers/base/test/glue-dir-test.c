// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for glue directories: the directory named after a class
 * that holds the class's devices under a parent which has no class
 * (each SCSI disk's "block" directory under its scsi_device).
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/sysfs.h>

#include "../base.h"

#define GLUE_TEST_PARENTS	8
#define GLUE_TEST_ROUNDS	200

static struct class glue_test_class = {
	.name	= "glue_test",
	.owner	= THIS_MODULE,
};

struct glue_test {
	struct device *parent[GLUE_TEST_PARENTS];
};

static int glue_test_init(struct kunit *test)
{
	struct glue_test *t;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	for (i = 0; i < GLUE_TEST_PARENTS; i++) {
		char name[24];

		snprintf(name, sizeof(name), "glue-test-%d", i);
		t->parent[i] = root_device_register(name);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->parent[i]);
	}
	KUNIT_ASSERT_EQ(test, class_register(&glue_test_class), 0);
	test->priv = t;
	return 0;
}

static void glue_test_exit(struct kunit *test)
{
	struct glue_test *t = test->priv;
	int i;

	class_unregister(&glue_test_class);
	for (i = 0; i < GLUE_TEST_PARENTS; i++)
		root_device_unregister(t->parent[i]);
}

static struct device *glue_test_add(struct kunit *test,
				    struct device *parent, int id)
{
	struct device *dev;

	dev = device_create(&glue_test_class, parent, 0, NULL,
			    "glue-test-dev-%d", id);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	return dev;
}

/* Whether parent has a "glue_test" directory in sysfs. */
static bool glue_test_has_dir(struct device *parent)
{
	struct kernfs_node *kn;

	kn = sysfs_get_dirent(parent->kobj.sd, glue_test_class.name);
	sysfs_put(kn);
	return kn;
}

/* The device lives in its class's glue directory under parent. */
static void glue_test_expect_under(struct kunit *test, struct device *dev,
				   struct device *parent)
{
	struct kobject *glue = dev->kobj.parent;

	KUNIT_ASSERT_NOT_NULL(test, glue);
	KUNIT_EXPECT_STREQ(test, kobject_name(glue), glue_test_class.name);
	KUNIT_EXPECT_PTR_EQ(test, glue->parent, &parent->kobj);
	KUNIT_EXPECT_PTR_EQ(test, dev->parent, parent);
}

/* Two devices under one parent share one glue directory until both go. */
static void glue_test_shared(struct kunit *test)
{
	struct glue_test *t = test->priv;
	struct device *a, *b;

	a = glue_test_add(test, t->parent[0], 0);
	b = glue_test_add(test, t->parent[0], 1);
	glue_test_expect_under(test, a, t->parent[0]);
	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent, b->kobj.parent);

	device_unregister(a);
	KUNIT_EXPECT_TRUE(test, glue_test_has_dir(t->parent[0]));
	glue_test_expect_under(test, b, t->parent[0]);

	device_unregister(b);
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[0]));
}

/*
 * Devices added in turn under many parents each find their own parent's
 * directory, and a directory is removed, with none of the others, when
 * the last device under its parent goes.
 */
static void glue_test_many_parents(struct kunit *test)
{
	struct device *dev[3 * GLUE_TEST_PARENTS];
	struct glue_test *t = test->priv;
	int i, gone = GLUE_TEST_PARENTS / 2;

	for (i = 0; i < ARRAY_SIZE(dev); i++)
		dev[i] = glue_test_add(test, t->parent[i % GLUE_TEST_PARENTS],
				       i);
	for (i = 0; i < ARRAY_SIZE(dev); i++) {
		glue_test_expect_under(test, dev[i],
				       t->parent[i % GLUE_TEST_PARENTS]);
		KUNIT_EXPECT_PTR_EQ(test, dev[i]->kobj.parent,
				    dev[i % GLUE_TEST_PARENTS]->kobj.parent);
	}

	for (i = gone; i < ARRAY_SIZE(dev); i += GLUE_TEST_PARENTS) {
		device_unregister(dev[i]);
		dev[i] = NULL;
	}
	for (i = 0; i < GLUE_TEST_PARENTS; i++)
		KUNIT_EXPECT_EQ(test, glue_test_has_dir(t->parent[i]),
				i != gone);

	/* the parent's directory is made again, the others found */
	dev[gone] = glue_test_add(test, t->parent[gone], gone);
	glue_test_expect_under(test, dev[gone], t->parent[gone]);
	for (i = 0; i < ARRAY_SIZE(dev); i++)
		if (dev[i])
			device_unregister(dev[i]);
	for (i = 0; i < GLUE_TEST_PARENTS; i++)
		KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[i]));
}

/*
 * A device moved to another parent goes into that parent's glue
 * directory, and the one it left goes when nothing else is in it.
 */
static void glue_test_move(struct kunit *test)
{
	struct glue_test *t = test->priv;
	struct device *a, *b, *c;

	a = glue_test_add(test, t->parent[0], 0);
	b = glue_test_add(test, t->parent[0], 1);
	c = glue_test_add(test, t->parent[1], 2);

	KUNIT_ASSERT_EQ(test, device_move(a, t->parent[1], DPM_ORDER_NONE), 0);
	glue_test_expect_under(test, a, t->parent[1]);
	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent, c->kobj.parent);
	glue_test_expect_under(test, b, t->parent[0]);

	/* the last device in a directory moves out: the directory goes */
	KUNIT_ASSERT_EQ(test, device_move(b, t->parent[2], DPM_ORDER_NONE), 0);
	glue_test_expect_under(test, b, t->parent[2]);
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[0]));

	/* and back, where the directory is made again */
	KUNIT_ASSERT_EQ(test, device_move(b, t->parent[0], DPM_ORDER_NONE), 0);
	glue_test_expect_under(test, b, t->parent[0]);
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[2]));

	device_unregister(a);
	device_unregister(b);
	device_unregister(c);
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[0]));
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[1]));
}

/*
 * A class registered again, at the same address, makes its directories
 * in its new registration, whose tree starts empty.
 */
static void glue_test_register_again(struct kunit *test)
{
	struct glue_test *t = test->priv;
	struct device *a, *b;

	a = glue_test_add(test, t->parent[0], 0);
	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent->kset,
			    &glue_test_class.p->glue_dirs);
	device_unregister(a);

	class_unregister(&glue_test_class);
	KUNIT_ASSERT_EQ(test, class_register(&glue_test_class), 0);

	a = glue_test_add(test, t->parent[0], 1);
	b = glue_test_add(test, t->parent[0], 2);
	glue_test_expect_under(test, a, t->parent[0]);
	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent, b->kobj.parent);
	KUNIT_EXPECT_PTR_EQ(test, a->kobj.parent->kset,
			    &glue_test_class.p->glue_dirs);
	device_unregister(a);
	device_unregister(b);
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[0]));
}

struct glue_test_worker {
	struct device *parent;
	struct completion done;
	int id;
	int failed;
};

static int glue_test_churn(void *data)
{
	struct glue_test_worker *w = data;
	int i;

	for (i = 0; i < GLUE_TEST_ROUNDS; i++) {
		struct device *dev;

		dev = device_create(&glue_test_class, w->parent, 0, NULL,
				    "glue-test-churn-%d", w->id);
		if (IS_ERR(dev)) {
			w->failed++;
			continue;
		}
		device_unregister(dev);
	}
	complete(&w->done);
	return 0;
}

/*
 * Two threads add and remove a device each under one parent, so the
 * directory they share is made, found and removed under them: the last
 * device going while the other is being added is the race that
 * cleanup_glue_dir() checks the directory's reference count for.
 */
static void glue_test_concurrent(struct kunit *test)
{
	struct glue_test_worker w[2];
	struct glue_test *t = test->priv;
	struct task_struct *task;
	int i, started;

	for (started = 0; started < ARRAY_SIZE(w); started++) {
		w[started].parent = t->parent[0];
		w[started].id = started;
		w[started].failed = 0;
		init_completion(&w[started].done);
		task = kthread_run(glue_test_churn, &w[started],
				   "glue-test-%d", started);
		if (IS_ERR(task))
			break;
	}
	/* w is on this stack: every thread started must end first */
	for (i = 0; i < started; i++) {
		wait_for_completion(&w[i].done);
		KUNIT_EXPECT_EQ(test, w[i].failed, 0);
	}
	KUNIT_ASSERT_EQ(test, started, (int)ARRAY_SIZE(w));
	KUNIT_EXPECT_FALSE(test, glue_test_has_dir(t->parent[0]));
}

static struct kunit_case glue_dir_test_cases[] = {
	KUNIT_CASE(glue_test_shared),
	KUNIT_CASE(glue_test_many_parents),
	KUNIT_CASE(glue_test_move),
	KUNIT_CASE(glue_test_register_again),
	KUNIT_CASE(glue_test_concurrent),
	{}
};

static struct kunit_suite glue_dir_test_suite = {
	.name		= "driver-core-glue-dir",
	.init		= glue_test_init,
	.exit		= glue_test_exit,
	.test_cases	= glue_dir_test_cases,
};

kunit_test_suite(glue_dir_test_suite);

MODULE_DESCRIPTION("KUnit tests for the driver core's glue directories");
MODULE_LICENSE("GPL");
