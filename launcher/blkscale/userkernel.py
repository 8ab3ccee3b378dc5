"""A kernel given by path (`run --kernel PATH [--modules DIR]`) as a
one-off variant named after its release.

It gets what a declared variant gets from the build: a directory under
build/kernel/out/ (bzImage, release, config when one lies beside it,
the modules tree with a modules.dep of our own) and its guest image,
made by guest-tools/initramfs/mkinitramfs.sh.  No helper module is built
for it, so the steps that need one are skipped and say why.
"""

import os
import shutil
import struct
import subprocess
from pathlib import Path

from . import paths
from .errors import UsageError
from .names import VARIANT

MKINITRAMFS = paths.REPO / "guest-tools" / "initramfs" / "mkinitramfs.sh"
# The real-mode header: "HdrS" at 0x202, the version string's offset (less
# 0x200) at 0x20e (Documentation/arch/x86/boot.rst).
HEADER_MAGIC = b"HdrS"


def bzimage_release(path):
    """The release (first word of the version string) of a bzImage."""
    try:
        with open(path, "rb") as f:
            head = f.read(0x10000)
    except OSError as e:
        raise UsageError(f"--kernel: {path}: {e.strerror}") from None
    if len(head) < 0x210 or head[0x202:0x206] != HEADER_MAGIC:
        raise UsageError(f"--kernel: {path}: not an x86 bzImage (no HdrS "
                         "header)")
    offset = struct.unpack_from("<H", head, 0x20e)[0] + 0x200
    text = head[offset:offset + 256].split(b"\0", 1)[0]
    release = text.split(b" ", 1)[0].decode("ascii", "replace")
    if not release or not VARIANT.fullmatch(release.lower()):
        raise UsageError(f"--kernel: {path}: release {release!r} cannot "
                         "name a variant")
    return release.lower()


def _modules_tree(modules, release):
    """The directory holding modules.* files: DIR itself or
    DIR/lib/modules/RELEASE."""
    if modules is None:
        return None
    d = Path(modules)
    for cand in (d, d / "lib" / "modules" / release, d / release):
        if cand.is_dir() and any(cand.glob("kernel")):
            return cand
    raise UsageError(f"--modules: {modules}: no kernel/ tree of {release} "
                     "(give lib/modules/RELEASE or a root holding it)")


def _config_beside(kernel, release):
    """Debian's layout: /boot/config-RELEASE beside /boot/vmlinuz-RELEASE."""
    cand = Path(kernel).parent / f"config-{release}"
    return cand if cand.is_file() else None


def prepare(kernel, modules=None):
    """Make the one-off variant for the kernel at path; its name."""
    kernel = os.path.abspath(kernel)
    release = bzimage_release(kernel)
    tree = _modules_tree(modules, release)
    out = paths.kernel_dir(release)
    if out.is_dir() and (out / "bzImage").is_file() and \
            not (out / "userkernel").is_file():
        raise UsageError(f"--kernel: release {release} is the name of a "
                         "built variant; boot it with --variant")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "userkernel").write_text(kernel + "\n")
    if tree is not None:
        dest = out / "modules" / "lib" / "modules" / release
        dest.parent.mkdir(parents=True)
        # Hard links where the file system allows: the tree is large.
        if subprocess.run(["cp", "-al", str(tree), str(dest)],
                          stderr=subprocess.DEVNULL).returncode != 0:
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(tree, dest, symlinks=True)
        for link in ("build", "source"):
            if (dest / link).is_symlink():
                (dest / link).unlink()
        _run(["depmod", "-b", str(out / "modules"), release],
             "depmod on --modules")
    config = _config_beside(kernel, release)
    if config is not None:
        shutil.copyfile(config, out / "config")
    (out / "release").write_text(release + "\n")
    (out / "base").write_text(f"file {kernel}\n")
    (out / "patches").write_text("")
    shutil.copyfile(kernel, out / "bzImage")
    image = paths.initramfs(release)
    image.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, BUILD=str(paths.build_dir()))
    _run([str(MKINITRAMFS), release, str(image)], "the guest image",
         env=env)
    return release


def _run(argv, what, env=None):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env)
    if r.returncode != 0:
        last = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
        raise UsageError(f"--kernel: {what} failed: {last}")
