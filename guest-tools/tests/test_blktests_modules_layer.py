"""The blktests modules layer of a modular kernel (modlayer.sh): Debian's
kernel keeps only a scale run's modules in its base image, and blktests
loads loop, nbd, md, dm targets, sg and file systems itself.  The layer
must carry those the kernel has, with their dependencies and a
modules.dep over all of them, and name those it has not.  A kernel built
here (its modules in the image already) gets no such layer.  Needs
`make kernel VARIANTS=debian`, which make test builds.
"""

import shutil
import subprocess

import pytest

import fuzzrun

REPO = fuzzrun.REPO
MODLAYER = REPO / "guest-tools" / "initramfs" / "blktests" / "modlayer.sh"
MODULES = REPO / "guest-tools" / "initramfs" / "modules"
COPY_MODULES = REPO / "guest-tools" / "initramfs" / "copy-modules.sh"


def _kernel(variant):
    from blkscale import paths
    kdir = paths.kernel_dir(variant)
    if not (kdir / "release").is_file():
        pytest.skip(f"not built: {kdir / 'release'} (make kernel "
                    f"VARIANTS={variant})")
    release = (kdir / "release").read_text().strip()
    return kdir / "modules" / "lib" / "modules" / release, release


def _names(text):
    return {line.split()[1] for line in text.splitlines()
            if line.startswith("blktests ")}


def _module_name(path):
    return path.rsplit("/", 1)[-1].split(".ko")[0].replace("-", "_")


def test_the_debian_kernels_layer_has_what_blktests_loads(tmp_path):
    tree, release = _kernel("debian")
    out = subprocess.run([str(MODLAYER), "debian", str(tmp_path)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    layer = out.stdout.strip().splitlines()[-1]
    root = tmp_path / "root"
    root.mkdir()
    with open(layer, "rb") as f:
        subprocess.run(["cpio", "-idm", "--quiet"], stdin=f, cwd=root,
                       check=True)
    mods = root / "lib" / "modules" / release
    dep = (mods / "modules.dep").read_text()
    shipped = {_module_name(line.split(":")[0]) for line in dep.splitlines()}
    missing = set((root / "lib" / "blkscale" / "blktests" /
                   "modules-missing").read_text().split())
    wanted = _names(MODULES.read_text())
    # Every module asked for is in the layer or named as missing.
    assert wanted - missing <= shipped
    assert "loop" in shipped and "sd_mod" in shipped and "configfs" in shipped
    # blktests reads the kernel's config where Debian keeps it.
    assert (root / "boot" / f"config-{release}").is_file()
    # Missing means the kernel has no such module, and its dependencies
    # came along (dm_flakey needs dm_mod).
    tree_dep = (tree / "modules.dep").read_text()
    in_tree = {_module_name(line.split(":")[0])
               for line in tree_dep.splitlines()}
    assert not missing & in_tree
    assert "dm_mod" in shipped
    for line in dep.splitlines():
        for f in line.replace(":", "").split():
            assert (mods / f).is_file(), f
    # The same inputs give the same archive, without rebuilding it.
    again = subprocess.run([str(MODLAYER), "debian", str(tmp_path)],
                           capture_output=True, text=True, check=True)
    assert again.stdout.strip() == layer and "BLKTESTS" not in again.stderr


def test_a_kernel_built_here_gets_no_modules_layer(monkeypatch):
    from blkscale.guestlink import layers
    _kernel("stock")
    assert not layers.modular("stock")
    _kernel("debian")
    assert layers.modular("debian")


def test_a_kernel_that_is_not_built_is_refused_in_one_line(tmp_path):
    out = subprocess.run([str(MODLAYER), "no-such-variant", str(tmp_path)],
                         capture_output=True, text=True, check=False)
    assert out.returncode != 0
    assert out.stderr.strip() == ("blktests modules layer: no-such-variant: "
                                  "no kernel build in build/kernel/out/"
                                  "no-such-variant (make kernel)")
    assert not list(tmp_path.iterdir())


def test_a_built_in_module_is_neither_copied_nor_missing(tmp_path):
    """copy-modules.sh with its own list: configfs built in (named in
    modules.builtin), loop a module, nbd absent."""
    tree, release = _kernel("debian")
    fake = tmp_path / "tree"
    (fake / "kernel" / "drivers" / "block").mkdir(parents=True)
    shutil.copy(tree / "kernel" / "drivers" / "block" / "loop.ko",
                fake / "kernel" / "drivers" / "block")
    (fake / "modules.dep").write_text("kernel/drivers/block/loop.ko:\n")
    (fake / "modules.builtin").write_text("kernel/fs/configfs/configfs.ko\n")
    script = tmp_path / "copy-modules.sh"
    shutil.copy(COPY_MODULES, script)
    (tmp_path / "modules").write_text(
        "blktests configfs\nblktests loop\nblktests nbd\n")
    out = subprocess.run([str(script), str(fake), str(tmp_path / "root"),
                          release, "blktests"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["nbd"]
    mods = tmp_path / "root" / "lib" / "modules" / release
    assert (mods / "kernel" / "drivers" / "block" / "loop.ko").is_file()
    assert "loop.ko" in (mods / "modules.dep").read_text()
