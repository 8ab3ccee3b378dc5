"""Shared helpers: the real CLI in a subprocess, a fake build, a fake QEMU."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BLKSCALE = REPO / "blkscale"
FAKE_QEMU = HERE / "fake_qemu.py"
TOPOLOGIES = REPO / "topologies"

sys.path.insert(0, str(REPO / "launcher"))


def shipped_topologies():
    return sorted(p.stem for p in TOPOLOGIES.glob("*.toml"))


def run_cli(*args, env=None, cwd=REPO, timeout=600, **kwargs):
    """./blkscale ARGS as a user runs it; returns CompletedProcess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(BLKSCALE), *map(str, args)], cwd=cwd,
                          env=full_env, capture_output=True, text=True,
                          timeout=timeout, **kwargs)


@pytest.fixture
def fake_build(tmp_path):
    """A build directory with stand-in kernels and base initramfs images.

    The fake QEMU never reads them; they only have to exist.
    """
    build = tmp_path / "build"
    for variant in ("stock", "patched"):
        kdir = build / "kernel" / "out" / variant
        kdir.mkdir(parents=True)
        (kdir / "bzImage").write_bytes(b"not a kernel " + variant.encode())
        (kdir / "release").write_text(f"6.1.0-{variant}\n")
        (kdir / "config").write_text("CONFIG_NR_CPUS=8\n")
    initramfs = build / "initramfs"
    initramfs.mkdir()
    for variant in ("stock", "patched"):
        # An empty newc archive: just the trailer, padded like GNU cpio.
        (initramfs / f"{variant}.cpio").write_bytes(
            b"070701" + b"0" * 8 * 4 + b"00000001" + b"0" * 8 * 6
            + b"0000000b" + b"0" * 8 + b"TRAILER!!!\0" + b"\0" * 3)
    return build


@pytest.fixture
def fake_env(tmp_path, fake_build):
    """Environment for a run against the fake QEMU, with private temp and
    results directories so that leftovers can be detected."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return {
        "BUILD": str(fake_build),
        "BLKSCALE_QEMU": str(FAKE_QEMU),
        "TMPDIR": str(tmp),
        "FAKE_QEMU_LOG": str(tmp_path / "qemu-runs.log"),
    }


def fake_runs(env):
    """(pid, accel) of every fake QEMU started with this environment."""
    log = Path(env["FAKE_QEMU_LOG"])
    if not log.exists():
        return []
    return [tuple(line.split()) for line in log.read_text().splitlines()]


def pid_alive(pid):
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def all_files(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))
