#!/usr/bin/python3
"""Boot kernels side by side, repeated, and print the series' figures.

    kernel/measure/compare.py [--repeat N] [--topology FILE] LABEL=BUILD:VARIANT ...

Each LABEL names a kernel: the VARIANT (stock, patched) of the build
directory BUILD (its kernel/out/VARIANT/bzImage and initramfs/VARIANT.cpio).
Every round boots each kernel once with `./blkscale run`; the order turns
round by round so that drift of the host hits all of them alike.  Prints,
per kernel and figure, the median of the rounds with min and max, and
writes every round's figures to --out (JSON).  Figures come from
bench/blkscale_bench/metrics.py, as the nightly takes them.
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOP / "bench"))
from blkscale_bench import metrics  # noqa: E402

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
    path = results / run_id / variant / "results.json"
    if out.returncode or not path.exists():
        print(f"{label} {run_id}: run failed ({out.returncode}): "
              f"{out.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return metrics.extract(json.loads(path.read_text()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels", nargs="+", type=kernel)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--topology", type=pathlib.Path,
                    default=TOP / "kernel" / "measure" / "majors.toml")
    ap.add_argument("--results", type=pathlib.Path,
                    default=TOP / "results" / "compare")
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat: must be at least 1")
    rounds = {label: [] for label, _, _ in args.kernels}
    for r in range(args.repeat):
        order = args.kernels if r % 2 == 0 else args.kernels[::-1]
        for label, build, variant in order:
            figs = boot(label, build, variant, args.topology, args.results,
                        f"{label}-{r}")
            if figs:
                rounds[label].append(figs)
                print(f"round {r} {label}: " + ", ".join(
                    f"{k}={figs.get(k)}" for k, _ in FIGURES), flush=True)
    print(f"\n{'figure':40}" + "".join(f"{lab:>34}" for lab in rounds))
    for key, text in FIGURES:
        row = f"{text:40}"
        for label, runs in rounds.items():
            vals = [f[key] for f in runs if f.get(key) is not None]
            if not vals:
                row += f"{'-':>34}"
                continue
            cell = (f"{statistics.median(vals):.0f} "
                    f"({min(vals):.0f}-{max(vals):.0f}, n={len(vals)})")
            row += f"{cell:>34}"
        print(row)
    if args.out:
        args.out.write_text(json.dumps(rounds, indent=1) + "\n")


if __name__ == "__main__":
    main()
