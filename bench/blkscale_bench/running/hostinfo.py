"""What makes a sweep's figures reproducible: the project's commit, the
kernels, QEMU and the host they ran on."""

import datetime
import os

from blkscale.hostfacts import host_cpu
from blkscale.paths import REPO
from blkscale.provenance import command_output, git_state


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


def qemu_version():
    """First line of `qemu --version` of the QEMU the launcher will use."""
    qemu = os.environ.get("BLKSCALE_QEMU", "qemu-system-x86_64")
    out = command_output([qemu, "--version"])
    return out.splitlines()[0].strip() if out else None


def build_dir():
    value = os.environ.get("BUILD", "build")
    return value if os.path.isabs(value) else os.path.join(REPO, value)


def kernel_release(variant):
    """The release the build system recorded for a variant, if built."""
    path = os.path.join(build_dir(), "kernel", "out", variant, "release")
    try:
        with open(path) as f:
            return f.read().strip() or None
    except OSError:
        return None


def collect(variants):
    return {
        "git": git_state(),
        "qemu_version": qemu_version(),
        "host_cpu": host_cpu(),
        "host_cpus": os.cpu_count(),
        "kernels": {v: kernel_release(v) for v in variants},
    }
