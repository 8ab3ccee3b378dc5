"""Where things are, relative to the repository (never absolute paths)."""

import os
from pathlib import Path


def _checkout():
    """The checkout this package lives in (launcher/blkscale/paths.py:
    two levels above launcher/); an installed package works on the
    checkout it is started in, the current directory."""
    here = Path(__file__).resolve().parents[2]
    return here if (here / "launcher" / "blkscale").is_dir() else Path.cwd()


REPO = _checkout()


def build_dir():
    """The build directory: $BUILD (as the Makefile exports it) or build/."""
    value = os.environ.get("BUILD", "build")
    path = Path(value)
    return path if path.is_absolute() else REPO / path


def kernel_dir(variant):
    return build_dir() / "kernel" / "out" / variant


def initramfs(variant):
    return build_dir() / "initramfs" / f"{variant}.cpio"


def results_dir():
    return REPO / "results"


def qemu_binary():
    """The QEMU to run; BLKSCALE_QEMU overrides it (tests use a fake)."""
    return os.environ.get("BLKSCALE_QEMU", "qemu-system-x86_64")


def display(path):
    """A path as people read it: relative to the repository if inside."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)
