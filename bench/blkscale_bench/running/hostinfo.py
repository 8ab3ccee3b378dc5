"""What makes a sweep's figures reproducible: the project's commit, the
kernels, QEMU and the host they ran on."""

import datetime
import os
import subprocess

from blkscale.hostfacts import host_cpu
from blkscale.paths import REPO


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


def _output(argv, cwd=None):
    try:
        out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                             timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def git_state():
    """{commit, dirty}: dirty when tracked files differ from the commit."""
    commit = _output(["git", "rev-parse", "HEAD"], cwd=REPO)
    status = _output(["git", "status", "--porcelain", "--untracked-files=no"],
                     cwd=REPO)
    return {"commit": commit.strip() if commit else None,
            "dirty": bool(status.strip()) if status is not None else None}


def qemu_version():
    """First line of `qemu --version` of the QEMU the launcher will use."""
    qemu = os.environ.get("BLKSCALE_QEMU", "qemu-system-x86_64")
    out = _output([qemu, "--version"])
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
