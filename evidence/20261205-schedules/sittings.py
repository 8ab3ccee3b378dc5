#!/usr/bin/python3
"""The patched kernel's boot to /init over stock's, sitting by sitting:
each run's median of the repeat-paired ratios beside stock's median boot
in that run, and their rank correlation (Spearman, scipy).  A ratio that
falls when stock is slow is one a baseline from another sitting cannot
be held to.

    sittings.py RUN_DIR [RUN_DIR ...]   (runs of stock and a variant of
                                         the patched kernel)
"""

import statistics
import sys

from scipy import stats as sps

from blkscale_bench import repeats

FIGURE = "kernel_to_init_s"


def sitting(run_dir):
    manifest, docs = repeats.load(run_dir)
    ref = manifest.reference
    figs = repeats.figures(manifest, docs)
    for topo, by_variant in figs.items():
        for variant, values in by_variant.items():
            if variant == ref:
                continue
            ratio = values.get(f"{FIGURE}_vs_{ref}")
            if ratio is None or not ratio.n:
                continue
            return (topo, variant, ratio.n,
                    by_variant[ref][FIGURE].median, ratio.median)
    return None


def main(runs):
    rows = []
    for run in runs:
        row = sitting(run)
        if row is None:
            continue
        rows.append(row)
        topo, variant, n, stock, ratio = row
        print(f"{run.rstrip('/').rsplit('/', 1)[-1]:28} {topo:11} "
              f"{variant:14} pairs {n:2}  stock {FIGURE} {stock:5.2f} s  "
              f"ratio {ratio:.3f}")
    for topo in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == topo]
        stock = [r[3] for r in mine]
        ratio = [r[4] for r in mine]
        line = (f"{topo}: {len(mine)} sittings, ratio {min(ratio):.3f} to "
                f"{max(ratio):.3f} (median {statistics.median(ratio):.3f})")
        if len(mine) >= 4:
            rho, p = sps.spearmanr(stock, ratio)
            line += (f"; Spearman rho against stock's boot {rho:.2f}, "
                     f"p = {p:.3f}")
        print(line)

if __name__ == "__main__":
    main(sys.argv[1:])
