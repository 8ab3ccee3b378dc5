"""Shared set-up of the bench tests: a fake launcher, fake topologies and
a fake build directory, so that sweeps run in seconds without QEMU."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from blkscale.paths import REPO

FAKE_LAUNCHER = Path(__file__).resolve().parent / "fake_launcher.py"


class BenchEnv:
    def __init__(self, tmp):
        self.tmp = tmp
        self.results = tmp / "results"
        self.log = tmp / "launcher.log"
        self.topos = tmp / "topologies"
        self.topos.mkdir()
        for name, disks in (("small", 8), ("big", 400)):
            (self.topos / f"{name}.toml").write_text(
                f"# disks = {disks}\n")
        build = tmp / "build"
        for v in ("stock", "patched"):
            d = build / "kernel" / "out" / v
            d.mkdir(parents=True)
            (d / "release").write_text(f"6.1.0-{v}\n")
        qemu = tmp / "qemu"
        qemu.write_text("#!/bin/sh\necho 'QEMU emulator version 7.2.99'\n")
        qemu.chmod(0o755)
        self.env = dict(os.environ, BLKSCALE_LAUNCHER=str(FAKE_LAUNCHER),
                        FAKE_LOG=str(self.log), BUILD=str(build),
                        BLKSCALE_QEMU=str(qemu))
        self.sweep = self.write_sweep("fake", ["small", "big"])

    def write_sweep(self, name, topologies, extra=""):
        path = self.tmp / f"{name}.toml"
        topos = ", ".join(f'"{self.topos / t}.toml"' for t in topologies)
        path.write_text(f'description = "test sweep"\n'
                        f'topologies = [{topos}]\n'
                        f'variants = ["stock", "patched"]\n{extra}')
        return path

    def argv(self, command, *args, run_id="r1", sweep=None):
        return [str(REPO / "blkscale"), command, "--sweep",
                str(sweep or self.sweep), "--results-dir", str(self.results),
                "--run-id", run_id, *args]

    def run(self, command, *args, run_id="r1", sweep=None, **env):
        return subprocess.run(self.argv(command, *args, run_id=run_id,
                                        sweep=sweep),
                              env=dict(self.env, **env), capture_output=True,
                              text=True, timeout=120, cwd=REPO)

    def run_plain(self, command, *args, **env):
        """A subcommand without the sweep options (e.g. baseline)."""
        return subprocess.run([str(REPO / "blkscale"), command, *args],
                              env=dict(self.env, **env), capture_output=True,
                              text=True, timeout=120, cwd=REPO)

    def manifest(self, run_id="r1"):
        with open(self.results / run_id / "manifest.json") as f:
            return json.load(f)

    def calls(self):
        if not self.log.exists():
            return []
        return self.log.read_text().splitlines()


@pytest.fixture
def bench_env(tmp_path):
    return BenchEnv(tmp_path)
