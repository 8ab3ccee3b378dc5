#!/usr/bin/python3
"""Per topology and kernel: seconds from kernel start to every disk
present (the census step's start: /init waited for them) and to the
census' end, median [min-max] of the repeats; and the series' ratio to
the kernel it applies to, paired by repeat (geometric mean and its 95%
t-interval, scipy).
    summarize.py results/driver-core-v4-sweep [results/driver-core-v4-65536-*]
"""
import json
import math
import statistics
import sys
from pathlib import Path

from scipy import stats

PAIRS = [("driver-core", "stock"), ("driver-core-sg", "stock-sg")]


def census(path):
    doc = json.loads(path.read_text())
    for step in doc["steps"]:
        if step["name"] == "census" and step["verdict"] == "ok":
            return step["start_s"], step["end_s"]
    return None


def runs(top):
    """{(topology, variant): {repeat: (present, done)}}"""
    out = {}
    for f in sorted(Path(top).glob("*/*/*/results.json")):
        topo, variant, repeat = f.parts[-4:-1]
        out.setdefault((topo, variant), {})[repeat] = census(f)
    for f in sorted(Path(top).glob("*/results.json")):
        variant = f.parts[-2]
        out.setdefault(("sim-65536", variant), {})[top] = census(f)
    return out


def spread(values):
    return (f"{statistics.median(values):.1f} [{min(values):.1f}-"
            f"{max(values):.1f}]" if len(values) > 1 else f"{values[0]:.1f}")


def ratio(a, b):
    logs = [math.log(x / y) for x, y in zip(a, b)]
    mean = statistics.fmean(logs)
    if len(logs) < 2:
        return f"{math.exp(mean):.3f}x"
    half = stats.t.ppf(0.975, len(logs) - 1) * stats.sem(logs)
    return (f"{math.exp(mean):.3f}x [{math.exp(mean - half):.3f}-"
            f"{math.exp(mean + half):.3f}]")


def main(dirs):
    table = {}
    for d in dirs:
        for key, reps in runs(d).items():
            table.setdefault(key, {}).update(reps)
    for topo in sorted({t for t, _ in table}, key=lambda t: int(t.split("-")[1])):
        print(f"{topo}: seconds from kernel start, median [min-max]")
        for (series, base) in PAIRS:
            for v in (base, series):
                reps = table.get((topo, v))
                if not reps or None in reps.values():
                    print(f"  {v:15} -")
                    continue
                present = [r[0] for r in reps.values()]
                done = [r[1] for r in reps.values()]
                print(f"  {v:15} disks present {spread(present):22} census done {spread(done)}")
            a, b = table.get((topo, series)), table.get((topo, base))
            if a and b and None not in a.values() and None not in b.values():
                keys = sorted(set(a) & set(b)) or [None]
                if keys == [None]:
                    pa, pb = list(a.values()), list(b.values())
                else:
                    pa, pb = [a[k] for k in keys], [b[k] for k in keys]
                print(f"  {series}/{base}: disks present "
                      f"{ratio([x[0] for x in pa], [x[0] for x in pb])}, census done "
                      f"{ratio([x[1] for x in pa], [x[1] for x in pb])}")


if __name__ == "__main__":
    main(sys.argv[1:])
