#!/usr/bin/python3
"""One line per boot record: boots, outcomes, wall time median [min-max],
load average range, and the 95% interval of the hang rate (Clopper-
Pearson, scipy).  Usage: summarize.py RECORD.tsv..."""
import csv
import sys

import numpy
from scipy.stats import binomtest

for path in sys.argv[1:]:
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        continue
    ok = sum(r["outcome"] == "ok" for r in rows)
    wall = numpy.array([float(r["wall_s"]) for r in rows])
    load = [float(r["load1_before"]) for r in rows]
    ci = binomtest(len(rows) - ok, len(rows)).proportion_ci(0.95)
    print(f"{path.rsplit('/', 1)[-1]}: {len(rows)} boots, {ok} ok, "
          f"{len(rows) - ok} not ok (95% interval of the rate "
          f"{100 * ci.low:.1f}-{100 * ci.high:.1f}%); wall "
          f"{numpy.median(wall):.1f} s [{wall.min():.1f}-{wall.max():.1f}]; "
          f"load {min(load):.1f}-{max(load):.1f}")
