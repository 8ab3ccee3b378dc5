"""BLKSCALE_REQUIRE_ALL=1 turns skips for missing requirements into
failures; skips for an optional host (root, /dev/kvm) stay skips."""

import os
import subprocess
import sys

from launchertest import HERE, REPO

PROBE = HERE / "require_all_probe.py"


def run_probe(**env):
    full = {k: v for k, v in os.environ.items()
            if k != "BLKSCALE_REQUIRE_ALL"}
    full.update(env)
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfs",
                          "-p", "no:cacheprovider", str(PROBE)], cwd=REPO,
                         env=full, capture_output=True, text=True,
                         timeout=120)
    return out.returncode, out.stdout.strip().splitlines()[-1], out.stdout


def test_skips_stay_skips_by_default():
    status, last, out = run_probe()
    assert status == 0, out
    assert "1 passed, 4 skipped" in last


def test_require_all_fails_missing_requirements():
    status, last, out = run_probe(BLKSCALE_REQUIRE_ALL="1")
    assert status != 0
    assert "2 failed, 1 passed, 2 skipped" in last, out
    assert "BLKSCALE_REQUIRE_ALL=1: a requirement is missing: not built: " \
           "build/kernel/out/stock/bzImage" in out
    assert "blkscale_no_such_module" in out
