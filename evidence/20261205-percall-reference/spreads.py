#!/usr/bin/python3
"""Raw ns against reference-step figures across boots: per kernel and
figure the median, min-max and max/min, and the same for the paired
ratio of the two kernels boot by boot, with the nightly's one-sided 95%
upper bound of that ratio (launcher/blkscale/figures/onesided.py).
    PYTHONPATH=launcher spreads.py TSV [RESULTS_DIR]
(from the repository's top; TSV: boots.sh's; default results/)"""
import csv
import json
import math
import statistics
import sys
from pathlib import Path

from blkscale.figures import onesided
from scipy import stats


def curve_median(block, name):
    values = [p["p50_ns"] for p in block.get(name) or []]
    return statistics.median(values) if values else None


def point(doc, registered, key):
    points = (doc.get("procdevices") or {}).get("points") or []
    if registered == "max":
        chosen = points[-1:] if points else []
    else:
        chosen = [p for p in points if p.get("registered") == registered]
    return chosen[0].get(key) if chosen else None


def figures(doc):
    """{figure: (raw ns, reference steps)} of one results document."""
    block = (doc.get("majors") or {}).get("block") or {}
    ref = lambda key: (block.get(key) or {}).get("median")
    out = {
        "register": (curve_median(block, "register"), ref("register_ref")),
        "lookup": (curve_median(block, "lookup"), ref("lookup_ref")),
    }
    for r in (0, 200, "max"):
        out[f"procdevices_{r}"] = (point(doc, r, "ns_per_read"),
                                   point(doc, r, "ref_per_read"))
    loop = (doc.get("majors") or {}).get("refloop") or {}
    out["reference_run_ns"] = ((loop.get("ns") or {}).get("p50_ns"), None)
    return out


def describe(values):
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return "-"
    lo, hi = min(values), max(values)
    return (f"median {statistics.median(values):.4g}, {lo:.4g}-{hi:.4g}, "
            f"max/min {hi / lo:.3f}, gstd {stats.gstd(values):.3f}")


def upper_bound(ratios):
    """The one-sided 95% upper bound of the paired ratios' mean log."""
    logs = [math.log(r) for r in ratios]
    if len(logs) < 2:
        return "-"
    hw = onesided.half_width(len(logs), statistics.stdev(logs))
    return f"{math.exp(statistics.mean(logs) + hw):.4g}"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    results = Path(sys.argv[2] if len(sys.argv) == 3 else "results")
    boots = []
    with open(sys.argv[1]) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            path = results / row["run_id"] / row["variant"] / "results.json"
            if row["exit"] != "0" or not path.is_file():
                print(f"{row['run_id']}: exit {row['exit']}, left out")
                continue
            boots.append((row, figures(json.loads(path.read_text()))))
    print("boot  variant        load before/after   " +
          "  ".join(f"{n} raw/ref" for n in boots[0][1]) if boots else "")
    for row, fig in boots:
        cells = "  ".join(f"{r:.4g}/{s:.4g}" if s is not None else
                          f"{r:.4g}" for r, s in fig.values()
                          if r is not None)
        print(f"{row['boot']:>4}  {row['variant']:<14} "
              f"{row['load_before']} / {row['load_after']}  {cells}")
    # the ratio is of the second over the first kernel the TSV names
    variants = list(dict.fromkeys(row["variant"] for row, _ in boots))
    names = list(boots[0][1]) if boots else []
    print()
    for name in names:
        for which, label in ((0, "ns"), (1, "reference steps")):
            if all(fig[name][which] is None for _, fig in boots):
                continue
            for v in variants + ["both"]:
                vals = [fig[name][which] for row, fig in boots
                        if v == "both" or row["variant"] == v]
                print(f"{name:<18} {label:<16} {v:<14} {describe(vals)}")
            if len(variants) == 2:
                a, b = variants
                by_boot = {}
                for row, fig in boots:
                    by_boot.setdefault(row["boot"], {})[row["variant"]] = \
                        fig[name][which]
                ratios = [p[b] / p[a] for p in by_boot.values()
                          if p.get(a) and p.get(b)]
                print(f"{name:<18} {label:<16} {b}/{a} paired "
                      f"{describe(ratios)}, upper bound "
                      f"{upper_bound(ratios)}")
        print()


if __name__ == "__main__":
    main()
