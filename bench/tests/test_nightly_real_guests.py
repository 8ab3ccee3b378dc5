"""The nightly end to end with real guests: the smoke topology on the
patched kernel, three repeats, judged against baselines made from a
separate sweep.  All repeats fine: PASS.  A kernel panic in repeat 2
(the test-only `fault` step), or a census one disk short in repeat 2
(QEMU started without one disk): REGRESSION, exit 1, and the JUnit case
names the repeat.  A few seconds per boot under TCG; needs `make kernel
initramfs` (skipped without, a failure under BLKSCALE_REQUIRE_ALL=1)."""

import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from blkscale import paths
from blkscale.paths import REPO

HERE = REPO / "bench" / "tests"
VARIANT = "patched"
# The census of a short run waits this long for the missing disk.
SETTLE_S = 10


def _need_built():
    needed = [paths.kernel_dir(VARIANT) / "bzImage",
              paths.initramfs(VARIANT)]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        pytest.skip(f"not built: {', '.join(missing)} (make kernel "
                    "initramfs)")


class Nightly:
    def __init__(self, tmp):
        text = (REPO / "topologies" / "smoke.toml").read_text()
        text = re.sub(r"(?m)^settle_s = \d+$", f"settle_s = {SETTLE_S}",
                      text)
        self.topology = tmp / "smoke.toml"
        self.topology.write_text(text)
        panic = text.replace('steps = ["census"]',
                             'steps = ["census", "fault"]')
        assert '"fault"' in panic
        self.panic = tmp / "smoke-panic.toml"
        self.panic.write_text(panic + '\n[plan.args]\nfault = "panic"\n')
        self.sweep = tmp / "smoke-nightly.toml"
        self.sweep.write_text(
            'description = "smoke, three repeats, patched"\n'
            f'topologies = ["{self.topology}"]\n'
            f'variants = ["{VARIANT}"]\nrepeat = 3\n')
        self.results = tmp / "results"
        self.baselines = tmp / "baselines"

    def run(self, command, run_id, *args, **env):
        full = {"BLKSCALE_LAUNCHER": str(HERE / "fault_launcher.py"),
                "FAULT_TOPOLOGY": str(self.panic), **env}
        return subprocess.run(
            [str(REPO / "blkscale"), command, "--sweep", str(self.sweep),
             "--results-dir", str(self.results), "--run-id", run_id, *args],
            env=dict(os.environ, **full), capture_output=True, text=True,
            cwd=REPO, timeout=1800)

    def nightly(self, run_id, **env):
        out = self.run("nightly", run_id, "--baselines",
                       str(self.baselines), **env)
        root = ET.parse(self.results / run_id / "nightly.xml").getroot()
        return out, root


@pytest.fixture(scope="module")
def nightly(tmp_path_factory):
    _need_built()
    n = Nightly(tmp_path_factory.mktemp("nightly"))
    out = n.run("bench", "base")
    assert out.returncode == 0, out.stdout + out.stderr
    out = subprocess.run([str(REPO / "blkscale"), "baseline",
                          str(n.results / "base"), "--baselines",
                          str(n.baselines)], capture_output=True, text=True,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr
    return n


def _bad(root):
    """{case name: (tag, message)} of failing or erroring cases."""
    out = {}
    for case in root.iter("testcase"):
        for tag in ("failure", "error"):
            node = case.find(tag)
            if node is not None:
                out[case.get("name")] = (tag, node.get("message"),
                                         node.text or "")
    return out


def test_every_repeat_fine_is_green(nightly):
    out, root = nightly.nightly("green")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "nightly verdict: PASS" in out.stdout
    assert _bad(root) == {}
    names = {c.get("name") for c in root.iter("testcase")}
    assert {"run repeat 1", "run repeat 2", "run repeat 3",
            "disks_found", "steps_failed"} <= names


def test_a_panic_in_repeat_two_fails(nightly):
    out, root = nightly.nightly("panic", FAULT="panic", FAULT_REPEAT="2")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "nightly verdict: REGRESSION" in out.stdout
    bad = _bad(root)
    tag, message, text = bad["run repeat 2"]
    assert tag == "error" and message.startswith("repeat 2: panic: ")
    assert "Kernel panic" in text        # the console tail
    assert "run repeat 1" not in bad and "run repeat 3" not in bad


def test_a_census_one_disk_short_fails(nightly):
    out, root = nightly.nightly("short", FAULT="short", FAULT_REPEAT="2")
    assert out.returncode == 1, out.stdout + out.stderr
    bad = _bad(root)
    tag, message, _ = bad["disks_found"]
    assert tag == "failure" and message == "disks_found: repeat 2: 7 < 8 x 1"
    assert "run repeat 1" not in bad and "run repeat 3" not in bad
