"""Helpers of the blktests boot tests: where the checkout is, one
`./blkscale run` of a blktests topology, a second boot of the tests that
need reruns on one kernel, and the comparison of the kernels' results.

A module of its own (not conftest.py), so that it cannot be confused with
another component's conftest when the suites are collected together.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import pytest

import fuzzrun
from blkscale_reports import blktestshistory, blktestsruns

REPO = fuzzrun.REPO
# The unmodified copy beside the project that tests and CI use.
PEER_COPY = REPO.parent / "shared" / "peers" / "blktests"
# Every night's blktests run stays here: the history of flaky tests.
NIGHTS = REPO / "results" / blktestshistory.NIGHTLY


def checkout():
    """BLKTESTS_DIR, else the peer copy; skip when there is none."""
    path = os.environ.get("BLKTESTS_DIR") or (
        str(PEER_COPY) if PEER_COPY.is_dir() else "")
    if not path:
        pytest.skip("no blktests checkout (set BLKTESTS_DIR)")
    return path


# Where a hung run is kept when it is made again (run(retry_hang=True)):
# outside pytest's temporary directories, which are reclaimed.
KEPT_HANGS = Path(tempfile.gettempdir()) / "blkscale-test-failures"


def run(topology, variants, workdir, env_extra, timeout, results=None,
        run_id="bt", retry_hang=False):
    """./blkscale run into results/run_id (default: workdir/results/bt);
    returns (exit status, {variant: results or None}, stderr).

    retry_hang: a run that ends as a hang (exit 4) is kept under
    KEPT_HANGS, said in a warning, and made once more; for the quick
    checks of make test, whose subject is the blktests step and not the
    simulator (two-vCPU TCG boots have hung waiting for a virtio-scsi
    completion QEMU had signalled, rarely, for a cause not yet known).
    The nightly's suites keep every hang."""
    for v in variants:
        fuzzrun.require_built(v)
    env = dict(os.environ, **env_extra)
    results = results or workdir / "results"
    cmd = [str(REPO / "blkscale"), "run", str(topology), "--accel", "tcg",
           "--run-id", run_id, "--results-dir", str(results), "--quiet"]
    for v in variants:
        cmd += ["--variant", v]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                         env=env, timeout=timeout)
    if retry_hang and out.returncode == 4:
        kept = KEPT_HANGS / (f"{time.strftime('%Y%m%dT%H%M%S')}-{run_id}-"
                             f"{os.getpid()}")
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(results / run_id), str(kept))
        warnings.warn(f"blkscale run {run_id} hung, made again; kept in "
                      f"{kept}")
        out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                             env=env, timeout=timeout)
    docs = {}
    for v in variants:
        path = results / run_id / v / "results.json"
        docs[v] = json.loads(path.read_text()) if path.exists() else None
    return out.returncode, docs, out.stderr


def _toml_list(items):
    return "[" + ", ".join(f'"{t}"' for t in items) + "]"


def topology_with(topology, tests, path, reruns=None):
    """A copy of a blktests topology at path that runs only `tests` and
    runs each again whatever its first status (plan.blktests.rerun_tests),
    `reruns` times if given."""
    text = re.sub(r"(?m)^rerun_tests = .*\n", "", topology.read_text())
    text, n = re.subn(r"(?m)^tests = .*$", lambda _: (
        f"tests = {_toml_list(tests)}\nrerun_tests = {_toml_list(tests)}"),
        text)
    if n != 1:
        raise ValueError(f"{topology}: plan.blktests.tests: no single "
                         "'tests = [...]' line to replace")
    if reruns is not None:
        text, n = re.subn(r"(?m)^reruns = .*$", f"reruns = {reruns}", text)
        if n == 0:
            text = text.replace("\nrerun_tests = ",
                                f"\nreruns = {reruns}\nrerun_tests = ", 1)
    path.write_text(text)
    return path


def second_boot(topology, run_dir, variant, tests, env_extra, timeout,
                reruns=None):
    """Boot one kernel again to run `tests` again, the tests that failed
    only on the other one; its run lands where blktestsruns.load_run
    finds it.  Returns run()'s answer."""
    boot = blktestsruns.second_boot(run_dir, variant)
    topo = topology_with(topology, tests, run_dir / f"{boot.name}.toml",
                         reruns)
    return run(topo, [variant], None, env_extra, timeout, results=run_dir,
               run_id=boot.name)


def step(doc, name):
    for s in doc.get("steps") or []:
        if s.get("name") == name:
            return s
    return None


def statuses(doc):
    """{(test, serial or ""): status} of one variant's blktests section."""
    return {(t["test"], t.get("serial") or ""): t["status"]
            for t in (doc.get("blktests") or {}).get("tests") or []}


def regressions(reference, other):
    """Tests that passed on the reference kernel and failed on the other."""
    ref, new = statuses(reference), statuses(other)
    return sorted(k for k, s in ref.items()
                  if s == "passed" and new.get(k) == "failed")


def failed_on_both(reference, other):
    ref, new = statuses(reference), statuses(other)
    return sorted(k for k, s in ref.items()
                  if s == "failed" and new.get(k) == "failed")
