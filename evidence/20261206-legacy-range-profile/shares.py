#!/usr/bin/python3
"""From each run's profile.json: the share of the kernel's samples with
the RIP in xa_load or xas_start (the legacy-range search of the series'
allocator), and with __register_blkdev anywhere on the sampled stack,
each with its 95% binomial interval (scipy), and the wall time of one
churn round (48 registers and 48 unregisters) from results.json.
    evidence/20261206-legacy-range-profile/shares.py"""

import json
import os

from scipy.stats import binomtest

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("stock", "patched", "stock-6.12", "patched-6.12")


def share(k, n):
    ci = binomtest(k, n).proportion_ci(0.95)
    return f"{100 * k / n:5.1f}% [{100 * ci.low:.1f}-{100 * ci.high:.1f}]"


def main():
    for v in VARIANTS:
        base = os.path.join(HERE, f"churn48-{v}", v)
        with open(os.path.join(base, "profile.json")) as f:
            prof = json.load(f)
        with open(os.path.join(base, "results.json")) as f:
            churn = json.load(f)["majors"]["block"]["churn"]
        n = prof["states"]["kernel"]
        own = {r["symbol"]: r["samples"] for r in prof["self"]}
        inc = {r["symbol"]: r["samples"] for r in prof["inclusive"]}
        search = own.get("xa_load", 0) + own.get("xas_start", 0)
        print(f"{v:13s} round {churn['ns'] / churn['rounds'] / 1e3:6.1f} us"
              f"  kernel samples {n:4d}  xa_load+xas_start "
              f"{share(search, n)}  __register_blkdev on the stack "
              f"{share(inc.get('__register_blkdev', 0), n)}")


if __name__ == "__main__":
    main()
