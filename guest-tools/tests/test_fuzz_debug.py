"""Nightly: the helper module under fuzzing on the debug kernel.

Runs topologies/debug-fuzz.toml through `./blkscale run`: the debug kernel
(the patched kernel with lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST, SLUB
debugging and kmemleak) runs the steps `selftest fuzz`.  Checks that the
fuzzer made at least 100,000 calls without a violation, that kmemleak
found nothing, and that the console shows no kernel splat other than the
WARN of unregister_blkdev() that wrong-name unregisters ask for (the
selftest's one, plus those the fuzzer counted).  The launcher stops a hung
guest after the topology's hang_s; the failure shows the first splat, or
the console tail.

Skipped unless BLKSCALE_NIGHTLY=1: about a minute and a half under TCG.
Needs `make kernel-debug guest-module-debug guest-tools` and
build/initramfs/debug.cpio (`make build/initramfs/debug.cpio`).
BLKSCALE_FUZZ_KEEP=DIR keeps the console log and results.json;
BLKSCALE_FUZZ_TIMEOUT_S and BLKSCALE_FUZZ_HANG_S replace the topology's
run_s and hang_s.
"""

import json
import os
import re

import pytest

import fuzzrun

TOPOLOGY = fuzzrun.REPO / "topologies" / "debug-fuzz.toml"
MIN_CALLS = 100_000

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly test (the debug kernel under TCG for about a minute "
           "and a half): set BLKSCALE_NIGHTLY=1 to run it")


def topology(workdir):
    """debug-fuzz.toml, with the timeouts the environment asks for."""
    text = TOPOLOGY.read_text()
    for key, env in (("run_s", "BLKSCALE_FUZZ_TIMEOUT_S"),
                     ("hang_s", "BLKSCALE_FUZZ_HANG_S")):
        if os.environ.get(env):
            text = re.sub(rf"(?m)^{key} = \d+$",
                          f"{key} = {int(os.environ[env])}", text)
    path = workdir / TOPOLOGY.name
    path.write_text(text)
    return path


def run_s(path):
    return int(re.search(r"(?m)^run_s = (\d+)$", path.read_text())[1])


def test_fuzz_and_selftest_on_debug_kernel(tmp_path):
    topo = topology(tmp_path)
    doc, console, output = fuzzrun.run(topo, "debug", tmp_path,
                                       timeout=run_s(topo) + 900)
    keep = os.environ.get("BLKSCALE_FUZZ_KEEP")
    if keep:    # a directory for the console log and the results
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, "console.log"), "w") as f:
            f.write(console)
        if doc:
            with open(os.path.join(keep, "results.json"), "w") as f:
                json.dump(doc, f, indent=1)
    fuzz = fuzzrun.check(doc, console, output, MIN_CALLS)
    assert fuzz["inject_enomem"], "debug-fuzz.toml lost --inject-enomem"
    # every wrong-name unregister met the injected -ENOMEM on re-register
    wrong = fuzz["wrong_name"]["expected_warnings"]
    assert wrong > 0 and fuzz["by_errno"].get("ENOMEM", 0) >= wrong, fuzz
    assert fuzz["kmemleak"]["verdict"] == "clean", fuzz["kmemleak"]
