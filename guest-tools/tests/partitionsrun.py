"""Helpers of the partitions step's boot tests: scsi_debug disks enough
for several pages of /proc/partitions and /proc/diskstats, booted through
`./blkscale run`."""

import json
import subprocess

import fuzzrun

# 2 hosts x 256 LUNs: /proc/partitions is 4 pages, /proc/diskstats 14.
DISKS = 512
TOPOLOGY = """\
description = "512 scsi_debug LUNs; census, then partbench"

[guest]
vcpus = 1
memory_mib = 1024
variants = ["{variant}"]

[timeouts]
boot_s = 300
run_s = 1200
hang_s = 300

[scsi_debug]
add_host = 2
max_luns = 256

[plan]
steps = ["census", "partitions"]
settle_s = 600

[plan.args]
partitions = "--iters 10 --budget-ms 500 {args}"
"""


def run(workdir, variant, args=""):
    """(exit status, results document or None, output) of one boot."""
    fuzzrun.require_built(variant)
    topo = workdir / "partitions.toml"
    topo.write_text(TOPOLOGY.format(variant=variant, args=args))
    results = workdir / "results"
    out = subprocess.run(
        [str(fuzzrun.REPO / "blkscale"), "run", str(topo), "--accel", "tcg",
         "--run-id", "parts", "--results-dir", str(results)],
        cwd=fuzzrun.REPO, capture_output=True, text=True, timeout=1800)
    doc_path = results / "parts" / variant / "results.json"
    doc = json.loads(doc_path.read_text()) if doc_path.exists() else None
    return out.returncode, doc, out.stdout + out.stderr


def step(doc, name):
    return next(s for s in doc["steps"] if s["name"] == name)
