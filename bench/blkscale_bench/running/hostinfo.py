"""What makes a sweep's figures reproducible: the project's commit, the
kernels, QEMU and the host they ran on."""

import datetime
import os

from blkscale import qemubinary as binary
from blkscale.hostfacts import host_cpu
from blkscale.paths import REPO, qemu_binary
from blkscale.provenance import git_state

from . import continuation


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


def qemu_version(qemu=None):
    """First line of `qemu --version` of the QEMU the runs start (None:
    the distro's, which a topology starts unless it chooses another)."""
    return binary.version_of(qemu or qemu_binary())


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


def qemu_facts(qemu=None):
    """What a manifest says of the QEMU its runs start: `qemu_version`,
    and `qemu` (binary.shown(), its patches too) when the sweep chose
    the binary."""
    return {"qemu_version": qemu_version(qemu),
            "qemu": binary.shown(qemu) if qemu else None}


def collect(variants, qemu=None):
    """qemu: the binary every run starts, None when each topology
    chooses its own (`qemu` is then null: see each run's)."""
    return {
        "git": git_state(),
        **qemu_facts(qemu),
        "host_cpu": host_cpu(),
        "host_cpus": os.cpu_count(),
        "kernels": {v: kernel_release(v) for v in variants},
        # What a sweep continued in a later sitting must still boot.
        "builds": continuation.fingerprints(variants),
    }
