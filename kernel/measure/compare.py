#!/usr/bin/python3
"""Boot kernels side by side, repeated, and print the series' figures.

    PYTHONPATH=launcher kernel/measure/compare.py [--repeat N]
        [--topology FILE] LABEL=BUILD:VARIANT ...

(PYTHONPATH puts the checkout's blkscale package on the import path; an
installed one needs none.)

Each LABEL names a kernel: the VARIANT (stock, patched) of the build
directory BUILD (its kernel/out/VARIANT/bzImage and initramfs/VARIANT.cpio).
Every round boots each kernel once with `./blkscale run`; the order turns
round by round so that drift of the host hits all of them alike.  Prints,
per kernel and figure, the median of the rounds with min and max (the 95%
interval of the median from 5 rounds), then each kernel's ratio to the
first one, taken round by round, with its spread; writes every round's
figures to --out (JSON), whose tables --from FILE prints again.  Figures
come from launcher/blkscale/figures/metrics.py, as the nightly takes them.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

from blkscale.figures import metrics
from blkscale.figures.stats import Summary, paired_ratio
from blkscale.paths import REPO as TOP
from blkscale.results import runresults

FIGURES = [
    ("block_dynamic_capacity", "dynamic block majors"),
    ("block_static_collisions", "of them assigned in devices.txt"),
    ("register_p50_ns", "register_blkdev(0) p50, ns"),
    ("lookup_p50_ns", "open() of a node, p50, ns"),
    ("procdevices_ns_per_read_0", "/proc/devices read, 0 added, ns"),
    ("procdevices_ns_per_read_200", "/proc/devices read, 200 added, ns"),
    ("procdevices_ns_per_read_max", "/proc/devices read, all taken, ns"),
]


def kernel(spec):
    label, sep, rest = spec.partition("=")
    build, sep2, variant = rest.rpartition(":")
    if not sep or not sep2 or not label or not build or not variant:
        raise argparse.ArgumentTypeError(
            f"{spec}: KERNEL: expected LABEL=BUILD:VARIANT")
    return label, pathlib.Path(build).resolve(), variant


def boot(label, build, variant, topology, results, run_id):
    env = dict(os.environ, BUILD=str(build))
    out = subprocess.run(
        [str(TOP / "blkscale"), "run", str(topology), "--variant", variant,
         "--accel", "tcg", "--run-id", run_id, "--results-dir",
         str(results), "--quiet"], cwd=TOP, env=env, capture_output=True,
        text=True)
    doc = runresults.read_in(results / run_id / variant)
    if out.returncode or doc is None:
        print(f"{label} {run_id}: run failed ({out.returncode}): "
              f"{out.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return metrics.extract(doc)


def by_round(runs, key):
    """Summary of one figure over the rounds a kernel completed."""
    return Summary.of({r: f.get(key) for r, f in runs})


def cell(summary, fmt):
    """median (min-max, n), or the 95% interval of the median from 5."""
    if not summary.n:
        return "-"
    low, high = summary.bounds
    return (f"{summary.median:{fmt}} ({low:{fmt}}-{high:{fmt}}, "
            f"n={summary.n})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels", nargs="*", type=kernel)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--topology", type=pathlib.Path,
                    default=TOP / "kernel" / "measure" / "majors.toml")
    ap.add_argument("--results", type=pathlib.Path,
                    default=TOP / "results" / time.strftime(
                        "compare-%Y%m%d-%H%M%S", time.gmtime()),
                    help="where the runs go (default: a new "
                         "results/compare-<time>)")
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--from", dest="saved", type=pathlib.Path,
                    metavar="FILE", help="print the tables of a file "
                    "--out wrote; boot nothing")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat: must be at least 1")
    if args.saved:
        return print_tables(load_saved(ap, args.saved))
    if not args.kernels:
        ap.error("name at least one kernel: LABEL=BUILD:VARIANT")
    rounds = {label: [] for label, _, _ in args.kernels}
    for r in range(args.repeat):
        order = args.kernels if r % 2 == 0 else args.kernels[::-1]
        for label, build, variant in order:
            figs = boot(label, build, variant, args.topology, args.results,
                        f"{label}-{r}")
            if figs:
                rounds[label].append((r, figs))
                print(f"round {r} {label}: " + ", ".join(
                    f"{k}={figs.get(k)}" for k, _ in FIGURES), flush=True)
    if args.out:
        args.out.write_text(json.dumps(
            {label: {str(r): f for r, f in runs}
             for label, runs in rounds.items()}, indent=1) + "\n")
    print_tables(rounds)


def load_saved(ap, path):
    """{label: [(round, figures)]} of a file --out wrote."""
    try:
        doc = json.loads(path.read_text())
        return {label: [(int(r), f) for r, f in runs.items()]
                for label, runs in doc.items()}
    except (OSError, ValueError, AttributeError) as e:
        ap.error(f"--from: {path}: not a file --out wrote ({e})")


def print_tables(rounds):
    print(f"\n{'figure':40}" + "".join(f"{lab:>34}" for lab in rounds))
    for key, text in FIGURES:
        row = f"{text:40}"
        for runs in rounds.values():
            row += f"{cell(by_round(runs, key), '.0f'):>34}"
        print(row)
    # Each kernel against the first, round by round (paired).
    first = next(iter(rounds))
    print(f"\nratio to {first}, paired by round")
    for key, text in FIGURES:
        row = f"{text:40}{'':>34}"
        for label, runs in list(rounds.items())[1:]:
            ratio = paired_ratio(by_round(runs, key),
                                 by_round(rounds[first], key))
            row += f"{cell(ratio, '.3f'):>34}"
        print(row)


if __name__ == "__main__":
    main()
