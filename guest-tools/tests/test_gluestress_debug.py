"""Nightly: SCSI devices added and removed in parallel on the debug kernel.

Runs topologies/debug-glue-stress.toml through `./blkscale run`: the debug
kernel (the patched kernel with lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST,
SLUB debugging, kmemleak, sg and bsg) runs the gluestress step, which
adds and removes a scsi_debug host in a loop while LUNs of every host are
deleted and rescanned through sysfs and readers walk the glue
directories.  Fails on any splat on the console or in the kernel's whole
log, on any glue directory problem gluecheck found, on a kmemleak report,
on devices that did not come back and on too few rounds
(gluestressrun.problems, whose own test is test_gluestress_verdict.py).

Skipped unless BLKSCALE_NIGHTLY=1: about six minutes under TCG.  Needs
`make kernel-debug guest-tools guest-module-debug` and
build/initramfs/debug.cpio (`make build/initramfs/debug.cpio`).
BLKSCALE_GLUESTRESS_KEEP=DIR keeps the console, the kernel log and
results.json; BLKSCALE_GLUESTRESS_ARGS replaces the step's arguments
(e.g. "duration_s=60").
"""

import json
import os
import re

import pytest

import fuzzrun
import gluestressrun

TOPOLOGY = fuzzrun.REPO / "topologies" / "debug-glue-stress.toml"

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly test (the debug kernel under TCG for about six "
           "minutes): set BLKSCALE_NIGHTLY=1 to run it")


def topology(workdir):
    """debug-glue-stress.toml, with the step arguments asked for."""
    text = TOPOLOGY.read_text()
    args = os.environ.get("BLKSCALE_GLUESTRESS_ARGS")
    if args:
        text = re.sub(r'(?m)^gluestress = ".*"$',
                      f"gluestress = {json.dumps(args)}", text)
    path = workdir / TOPOLOGY.name
    path.write_text(text)
    return path


def keep(doc, console, dmesg):
    where = os.environ.get("BLKSCALE_GLUESTRESS_KEEP")
    if not where:
        return
    os.makedirs(where, exist_ok=True)
    for name, text in (("console.log", console), ("dmesg.log", dmesg)):
        with open(os.path.join(where, name), "w") as f:
            f.write(text)
    if doc:
        with open(os.path.join(where, "results.json"), "w") as f:
            json.dump(doc, f, indent=1)


def test_glue_directories_under_parallel_add_and_remove(tmp_path):
    topo = topology(tmp_path)
    run_s = int(re.search(r"(?m)^run_s = (\d+)$", topo.read_text())[1])
    doc, console, dmesg, output = gluestressrun.run(
        topo, "debug", tmp_path, timeout=run_s + 900)
    keep(doc, console, dmesg)
    found = gluestressrun.problems(doc, console, dmesg)
    if found:
        where = next((line.split(": ", 1)[1] for line in found
                      if line.startswith(("console: ", "dmesg.log: "))),
                     None)
        text = dmesg if where and where in dmesg else console
        context = fuzzrun.context(text, where) if where else \
            fuzzrun.post_mortem(console)
        pytest.fail("\n".join(found) + f"\n{output}\n{context}")
