#!/bin/bash
# Build the v4 commit stack in a dev worktree of the pristine kernel repo.
set -eu
L=/work/main/build/linux
W=/work/main/build/v4-linux
G=(-c user.name="blkscale developers" -c user.email=blkscale@localhost)
if [ ! -e $W/.git ]; then git -C $L worktree add -q --detach $W 7dc27a784; fi
cd $W
git checkout -q --detach 7dc27a784
# 1: device_move fix only
cp /tmp/blk/v4/a/drivers/base/core.c drivers/base/core.c
python3 - <<'PY'
p='drivers/base/core.c'
s=open(p).read()
s=s.replace('''	struct kobject *new_parent_kobj;

	dev = get_device(dev);
	if (!dev)
		return -EINVAL;

	device_pm_lock();
	new_parent = get_device(new_parent);''','''	struct kobject *new_parent_kobj, *old_glue_dir;

	dev = get_device(dev);
	if (!dev)
		return -EINVAL;

	device_pm_lock();
	old_glue_dir = get_glue_dir(dev);
	new_parent = get_device(new_parent);''')
s=s.replace('''			cleanup_glue_dir(dev, new_parent_kobj);
			put_device(new_parent);
			goto out;
		}
	}
	switch (dpm_order) {''','''			cleanup_glue_dir(dev, new_parent_kobj);
			put_device(new_parent);
			goto out;
		}
	}
	/* drop the reference get_device_parent() took for the old parent */
	cleanup_glue_dir(dev, old_glue_dir);

	switch (dpm_order) {''')
open(p,'w').write(s)
PY
git add -A && git "${G[@]}" commit -q -F /tmp/blk/v4/msg/1-move.txt
# 2: the tree
cp /tmp/blk/v4/b/drivers/base/core.c drivers/base/core.c
cp /tmp/blk/v4/b/drivers/base/base.h drivers/base/base.h
cp /tmp/blk/v4/b/drivers/base/class.c drivers/base/class.c
git add -A && git "${G[@]}" commit -q -F /tmp/blk/v4/msg/2-tree.txt
# 3: KUnit
cp /tmp/blk/v4/b/drivers/base/test/* drivers/base/test/
git add -f drivers/base/test/glue-dir-test.c
git add -A && git "${G[@]}" commit -q -F /tmp/blk/v4/msg/3-kunit.txt
# the majors series on top
git "${G[@]}" cherry-pick a047103f7^..dcd671d4d >/dev/null
git log --oneline | head -14
