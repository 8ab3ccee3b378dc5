"""Copy a sweep directory with one variant's times multiplied: what the
nightly's judging says of a known slowdown, with the run's real noise.

    python3 -m blkscale_bench.slowdown RUN_DIR OUT_DIR --factor 1.35 \\
        [--variant patched] [--boot-only] [--idle]
    ./blkscale nightly --compare OUT_DIR

Every time of every repeat of the variant is multiplied (boot, register
and lookup costs, /proc/devices reads; --boot-only: the boot's alone);
counts and memory are left intact.  --idle sets every run's recorded
host load to none, as if the host had been idle.  Nothing judged is
written into the copy.
"""

import argparse
import os
import shutil
import sys
from copy import deepcopy

from blkscale.results import runresults
from blkscale.results.manifest import Manifest
from blkscale.results.manifest import path_in as manifest_path

JUDGED = ("nightly.json", "nightly.xml")


def slower(doc, factor, boot_only=False):
    """Every time figure of a results document `factor` times longer
    (boot_only: the boot's)."""
    for key, value in list((doc.get("boot") or {}).items()):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            doc["boot"][key] = value * factor
    if boot_only:
        return doc
    block = (doc.get("majors") or {}).get("block") or {}
    for curve in ("register", "lookup"):
        for point in block.get(curve) or []:
            point["p50_ns"] *= factor
    for point in (doc.get("procdevices") or {}).get("points") or []:
        point["ns_per_read"] *= factor
        point["ns_per_line"] *= factor
    return doc


def copy(run_dir, out_dir, variant, factor, idle=False, boot_only=False):
    """The copy, its manifest's runs of `variant` slowed by `factor`."""
    shutil.copytree(run_dir, out_dir)
    for name in JUDGED:
        try:
            os.unlink(os.path.join(out_dir, name))
        except FileNotFoundError:
            pass
    manifest = Manifest.reopen(out_dir)
    for entry in manifest.record.runs:
        if entry.get("variant") != variant or not entry.get("results"):
            continue
        path = os.path.join(out_dir, entry["results"])
        doc = slower(deepcopy(runresults.read(path).to_json()), factor,
                     boot_only)
        runresults.Results.from_json(doc, path).write(path)
    if idle:
        manifest.edit_runs(_idle)


def _idle(entry):
    if entry.get("host_load"):
        entry["host_load"].update(others_cpu_share=0.0, steal_share=0.0,
                                  loaded=False)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m blkscale_bench.slowdown",
        description="copy a sweep with one variant's times multiplied")
    parser.add_argument("run_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--factor", type=float, required=True)
    parser.add_argument("--variant", default="patched")
    parser.add_argument("--boot-only", action="store_true",
                        help="multiply the boot's times only")
    parser.add_argument("--idle", action="store_true",
                        help="record every run's host load as idle")
    args = parser.parse_args(argv)
    if not os.path.isfile(manifest_path(args.run_dir)):
        print(f"{manifest_path(args.run_dir)}: missing: not a "
              "sweep run directory", file=sys.stderr)
        return 2
    if os.path.exists(args.out_dir):
        print(f"{args.out_dir}: exists", file=sys.stderr)
        return 2
    if args.factor <= 0:
        print("--factor: must be positive", file=sys.stderr)
        return 2
    copy(args.run_dir, args.out_dir, args.variant, args.factor, args.idle,
         args.boot_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
