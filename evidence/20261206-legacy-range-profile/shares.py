#!/usr/bin/python3
"""From each run's profile.json: the share of the kernel's samples with
the RIP in xa_load or xas_start (the legacy-range search of the series'
allocator), and with __register_blkdev anywhere on the sampled stack;
and the wall time of one churn round (48 registers and 48 unregisters)
from results.json.  Per boot with its 95% binomial interval (scipy),
then per kernel the median [min-max] over its boots.
    evidence/20261206-legacy-range-profile/shares.py [DIR VARIANT...]
(default: this directory and its four kernels)."""

import glob
import json
import os
import sys
from statistics import median

from scipy.stats import binomtest

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("stock", "patched", "stock-6.12", "patched-6.12")


def boots(here, variant):
    """Each boot's (label, profile, churn record): churn48-VARIANT is the
    first, churn48-VARIANT-rN the repeats."""
    dirs = [os.path.join(here, f"churn48-{variant}")] + sorted(
        glob.glob(os.path.join(here, f"churn48-{variant}-r[0-9]")))
    for d in dirs:
        base = os.path.join(d, variant)
        with open(os.path.join(base, "profile.json")) as f:
            prof = json.load(f)
        with open(os.path.join(base, "results.json")) as f:
            churn = json.load(f)["majors"]["block"]["churn"]
        yield os.path.basename(d), prof, churn


def share(k, n):
    ci = binomtest(k, n).proportion_ci(0.95)
    return 100 * k / n, f"{100 * k / n:5.1f}% [{100 * ci.low:.1f}-{100 * ci.high:.1f}]"


def spread(values, fmt):
    return (f"{fmt.format(median(values))} [{fmt.format(min(values))}-"
            f"{fmt.format(max(values))}]")


def main(here=HERE, variants=VARIANTS):
    for v in variants:
        searches, registers, rounds = [], [], []
        for label, prof, churn in boots(here, v):
            n = prof["states"]["kernel"]
            own = {r["symbol"]: r["samples"] for r in prof["self"]}
            inc = {r["symbol"]: r["samples"] for r in prof["inclusive"]}
            s, s_text = share(own.get("xa_load", 0) +
                              own.get("xas_start", 0), n)
            r, r_text = share(inc.get("__register_blkdev", 0), n)
            us = churn["ns"] / churn["rounds"] / 1e3
            searches.append(s)
            registers.append(r)
            rounds.append(us)
            print(f"{label:22s} round {us:6.1f} us  kernel samples {n:4d}"
                  f"  xa_load+xas_start {s_text}  __register_blkdev on "
                  f"the stack {r_text}")
        print(f"{v:22s} median [min-max] of {len(rounds)} boots: round "
              f"{spread(rounds, '{:.1f}')} us, xa_load+xas_start "
              f"{spread(searches, '{:.1f}')}%, __register_blkdev "
              f"{spread(registers, '{:.1f}')}%\n")


if __name__ == "__main__":
    if len(sys.argv) > 2:
        main(os.path.abspath(sys.argv[1]), sys.argv[2:])
    else:
        main()
