"""Helpers of the fuzz tests: boot a topology with the fuzz step through
`./blkscale run` and read what the kernel said on the console.

A module of its own (not conftest.py), so that it cannot be confused with
another component's conftest when the suites are collected together.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("BUILD", REPO / "build"))
if not BUILD.is_absolute():
    BUILD = REPO / BUILD

# First lines of kernel problem reports on the console.
SPLAT = re.compile(
    r"BUG:|BUG [a-z0-9_-]+ \(|WARNING:|Oops|general protection fault|"
    r"kernel BUG|possible circular locking|inconsistent lock state|"
    r"possible recursive locking|list_add corruption|list_del corruption|"
    r"Poison overwritten|Redzone overwritten|UBSAN:|KASAN:|"
    r"INFO: task .* blocked|kmemleak: \d+ new suspected|"
    r"Kernel panic - not syncing")
EXPECTED_WARN = re.compile(r"WARNING: CPU: \d+ PID: \d+ at (?:\S+ )?"
                           r"unregister_blkdev\+0x")


def require_built(variant):
    """Skip unless the variant's kernel and guest image exist."""
    for need, how in ((BUILD / "kernel" / "out" / variant / "bzImage",
                       "make kernel-debug" if variant == "debug" else
                       "make kernel-blktests" if variant.endswith("-blktests")
                       else "make kernel"),
                      (BUILD / "initramfs" / f"{variant}.cpio",
                       f"make build/initramfs/{variant}.cpio")):
        if not need.is_file():
            pytest.skip(f"{need} is missing ({how})")


def run(topology, variant, workdir, timeout):
    """./blkscale run; returns (results document or None, console, output).

    The launcher enforces the topology's timeouts (run_s, hang_s) and
    stops a hung guest itself; `timeout` only bounds the launcher.
    """
    require_built(variant)
    results = workdir / "results"
    out = subprocess.run(
        [str(REPO / "blkscale"), "run", str(topology), "--variant", variant,
         "--accel", "tcg", "--run-id", "fuzz", "--results-dir", str(results),
         "--quiet"], cwd=REPO, capture_output=True, text=True,
        timeout=timeout)
    vdir = results / "fuzz" / variant
    console = vdir / "console.log"
    text = console.read_text(errors="replace") if console.exists() else ""
    doc_path = vdir / "results.json"
    doc = json.loads(doc_path.read_text()) if doc_path.exists() else None
    output = f"exit status {out.returncode}\n{out.stdout}{out.stderr}"
    return doc, text, output


def splats(console):
    """Problem lines, and how many were unregister_blkdev's WARN."""
    expected, other = 0, []
    for line in console.splitlines():
        if not SPLAT.search(line):
            continue
        if EXPECTED_WARN.search(line):
            expected += 1
        else:
            other.append(line.strip())
    return expected, other


def context(console, line, before=5, after=30):
    """The console around a problem line, for the failure message."""
    lines = console.splitlines()
    for i, text in enumerate(lines):
        if line in text:
            return "\n".join(lines[max(0, i - before):i + after])
    return line


def post_mortem(console):
    """The first kernel problem on the console, else its last lines."""
    if not console:
        return "(no console log)"
    _, other = splats(console)
    if other:
        return context(console, other[0])
    return "console tail:\n" + "\n".join(console.splitlines()[-40:])


def check(doc, console, output, min_calls):
    """The fuzz and selftest verdicts, and a console without splats."""
    assert doc is not None, f"no results.json: {output}\n" \
        f"{post_mortem(console)}"
    steps = {s["name"]: s for s in doc["steps"]}
    fuzz = doc.get("fuzz")
    assert isinstance(fuzz, dict), f"no fuzz section; steps: {steps}"
    assert fuzz["calls"] >= min_calls, fuzz
    assert fuzz["violations"] == [], fuzz["violations"]
    assert fuzz["ok"] and steps["fuzz"]["verdict"] == "ok", fuzz["errors"]
    assert fuzz["proc_devices_restored"]
    # files closed, module unloaded and loaded again, a node of every
    # major the run held opened on both sides (reload.c)
    reload = fuzz["reload"]
    assert reload["done"] and reload["majors_ever_held"] > 0, reload
    assert reload["nodes_opened"] == 2 * reload["majors_ever_held"], reload
    assert fuzz["kmsg"]["problems"] == 0, fuzz["kmsg"]

    selftest = doc.get("selftest")
    assert isinstance(selftest, dict), f"no selftest section; steps: {steps}"
    assert selftest["failed"] == 0 and steps["selftest"]["verdict"] == "ok", [
        t for t in selftest["tests"] if t["status"] == "fail"]

    expected, other = splats(console)
    assert not other, context(console, other[0])
    # the selftest's wrong-name test, and the fuzzer's rationed ones
    allowed = 1 + fuzz["wrong_name"]["expected_warnings"]
    assert 1 <= expected <= allowed, (
        f"{expected} WARNs of unregister_blkdev, {allowed} asked for")
    return fuzz
