"""Helpers of the blktests boot tests: where the checkout is, one
`./blkscale run` of a blktests topology, and the comparison of the
kernels' results.

A module of its own (not conftest.py), so that it cannot be confused with
another component's conftest when the suites are collected together.
"""

import json
import os
import subprocess

import pytest

import fuzzrun

REPO = fuzzrun.REPO
# The unmodified copy beside the project that tests and CI use.
PEER_COPY = REPO.parent / "shared" / "peers" / "blktests"


def checkout():
    """BLKTESTS_DIR, else the peer copy; skip when there is none."""
    path = os.environ.get("BLKTESTS_DIR") or (
        str(PEER_COPY) if PEER_COPY.is_dir() else "")
    if not path:
        pytest.skip("no blktests checkout (set BLKTESTS_DIR)")
    return path


def run(topology, variants, workdir, env_extra, timeout):
    """./blkscale run; returns (exit status, {variant: results or None},
    stderr)."""
    for v in variants:
        fuzzrun.require_built(v)
    env = dict(os.environ, **env_extra)
    results = workdir / "results"
    cmd = [str(REPO / "blkscale"), "run", str(topology), "--accel", "tcg",
           "--run-id", "bt", "--results-dir", str(results), "--quiet"]
    for v in variants:
        cmd += ["--variant", v]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                         env=env, timeout=timeout)
    docs = {}
    for v in variants:
        path = results / "bt" / v / "results.json"
        docs[v] = json.loads(path.read_text()) if path.exists() else None
    return out.returncode, docs, out.stderr


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
