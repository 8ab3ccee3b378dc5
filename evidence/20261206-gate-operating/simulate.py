#!/usr/bin/python3
"""The gated part's verdicts on simulated nights: the nightly's own rule
(bench/blkscale_bench/judging/operating.py) on paired boot ratios drawn
log-normal about a true ratio, for the spreads this host has shown.
Prints a Markdown table and writes operating.json beside this file.

    PYTHONPATH=launcher:bench evidence/20261206-gate-operating/simulate.py [NIGHTS]
"""

import json
import sys
from pathlib import Path

from blkscale_bench.judging import operating

HERE = Path(__file__).resolve().parent

LIMIT = 1.15                        # boot times, nightly-gated.toml
SPREADS = (0.12, 0.16, 0.20, 0.26)  # sd of the logs, nights of this host
TRUE = (1.0, 1.10, 1.30, 1.56)      # equal, under, a cost, the canary's


def main():
    nights = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rows, doc = [], []
    for sd in SPREADS:
        for true in TRUE:
            share, repeats = operating.rates(true, sd, nights, LIMIT,
                                             seed=round(sd * 1000 + true * 100))
            doc.append({"sd": sd, "true_ratio": true, "nights": nights,
                        "limit": LIMIT, "share": share, "repeats": repeats})
            rows.append(f"| {sd:.2f} | {true:.2f} | "
                        f"{100 * share['PASS']:.1f}% | "
                        f"{100 * share['REGRESSION']:.1f}% | "
                        f"{100 * share['INCONCLUSIVE']:.1f}% | "
                        f"{repeats['mean']:.1f} |")
    print(f"{nights} nights a row; limit {LIMIT}x; start 5, max_repeat 16")
    print("| sd of logs | true ratio | PASS | REGRESSION | INCONCLUSIVE "
          "| mean repeats |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    (HERE / "operating.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
