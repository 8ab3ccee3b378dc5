#!/usr/bin/python3
"""The full-read cost of /proc/partitions and /proc/diskstats against the
disk count, stock against patched, from the trimmed runs beside this file
(runs/parts-N-R/KERNEL/results.json): per kernel the median [min-max]
over the rounds; the ratio patched/stock paired by round, as the
geometric mean with its 95% interval (Student's t on the logs, scipy);
the growth exponent (slope of log ns against log disks, scipy's
linregress over the counts of one round); and the interleaved reads'
missed and repeated disks.

    evidence/20261206-proc-partitions/summarize.py
"""

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from scipy import stats

HERE = Path(__file__).resolve().parent
FILES = ("partitions", "diskstats")
KERNELS = ("stock", "patched")


def runs():
    """{(kernel, disks, round): the partitions section, with the boot's
    time to census as `census_s`} of every run."""
    out = {}
    for doc_path in sorted(HERE.glob("runs/parts-*-*/*/results.json")):
        _, disks, rnd = doc_path.parts[-3].split("-")
        kernel = doc_path.parts[-2]
        doc = json.loads(doc_path.read_text())
        if "partitions" not in doc or not doc["partitions"]:
            sys.exit(f"{doc_path}: no partitions section "
                     f"(outcome {doc.get('outcome')})")
        out[kernel, int(disks), int(rnd)] = dict(
            doc["partitions"], census_s=doc["boot"]["census_complete_s"])
    return out


def spread(values, digits=1):
    return (f"{statistics.median(values):,.{digits}f} "
            f"[{min(values):,.{digits}f}-{max(values):,.{digits}f}]")


def ratio(pairs):
    """Geometric mean of patched/stock over the rounds, with its 95%
    interval; the interval needs two rounds."""
    logs = [math.log(p / s) for s, p in pairs]
    mean = math.exp(statistics.fmean(logs))
    if len(logs) < 2:
        return f"{mean:.3f}x (one round: no interval)"
    ci = stats.ttest_1samp(logs, 0.0).confidence_interval(0.95)
    return (f"{mean:.3f}x [{math.exp(ci.low):.3f}-{math.exp(ci.high):.3f}]"
            f" over {len(logs)} rounds")


def census_rows(found, counts, rounds):
    print("boot to census complete (one vCPU), s, median [min-max]")
    for d in counts:
        cells = {k: [found[k, d, r]["census_s"] for r in rounds
                     if (k, d, r) in found] for k in KERNELS}
        pairs = [(found["stock", d, r]["census_s"],
                  found["patched", d, r]["census_s"]) for r in rounds
                 if ("stock", d, r) in found and ("patched", d, r) in found]
        print(f"  {d:>6} disks: " + ", ".join(
            f"{k} {spread(v) if v else '-'}" for k, v in cells.items())
            + f"; patched/stock {ratio(pairs) if pairs else '-'}")
    print()


def file_rows(found, name, counts, rounds):
    print(f"/proc/{name}: one full read with stdio's 1 KiB buffer, ms, "
          "median [min-max] over the rounds")
    for d in counts:
        cells = {}
        for k in KERNELS:
            ms = [found[k, d, r]["files"][name]["ns_per_read"] / 1e6
                  for r in rounds if (k, d, r) in found]
            cells[k] = spread(ms, 2) if ms else "-"
        pairs = [(found["stock", d, r]["files"][name]["ns_per_read"],
                  found["patched", d, r]["files"][name]["ns_per_read"])
                 for r in rounds
                 if ("stock", d, r) in found and ("patched", d, r) in found]
        calls = {k: found[k, d, rounds[0]]["files"][name]["read_calls"]
                 for k in KERNELS if (k, d, rounds[0]) in found}
        print(f"  {d:>6} disks: stock {cells['stock']}, patched "
              f"{cells['patched']}; patched/stock "
              f"{ratio(pairs) if pairs else '-'}; read() calls {calls}")
    for k in KERNELS:
        slopes = []
        for r in rounds:
            pts = [(math.log(d),
                    math.log(found[k, d, r]["files"][name]["ns_per_read"]))
                   for d in counts if (k, d, r) in found]
            if len(pts) >= 2:
                slopes.append(stats.linregress(*zip(*pts)).slope)
        if slopes:
            print(f"  growth exponent, {k}: {spread(slopes, 2)} "
                  f"({', '.join(f'{s:.2f}' for s in slopes)})")
    print()


def main():
    found = runs()
    counts = sorted({d for _, d, _ in found})
    rounds = sorted({r for _, _, r in found})
    print(f"{len(found)} runs: disks {counts}, rounds {rounds}\n")
    census_rows(found, counts, rounds)
    for name in FILES:
        file_rows(found, name, counts, rounds)
    print("a read while a listed disk is deleted: missed/repeated disks, "
          "per round")
    for k in KERNELS:
        for d in counts:
            row = defaultdict(list)
            for r in rounds:
                inter = found.get((k, d, r), {}).get("interleave", {})
                for n, c in inter.items():
                    row[n].append(f"{c['missed_count']}/"
                                  f"{c['repeated_count']}"
                                  if c.get("run") else "not run")
            print(f"  {k:<7} {d:>6} disks: " + "; ".join(
                f"{n} {' '.join(v)}" for n, v in row.items()))


if __name__ == "__main__":
    main()
