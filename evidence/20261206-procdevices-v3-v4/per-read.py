#!/usr/bin/python3
"""/proc/devices read at the most majors held, v3's runs against v4's:
the time of one full read (ns_per_read), the same read in reference
steps (ref_per_read: the read over the in-guest reference loop timed
around it, guest-tools/src/README.md), what one reference step took
(their quotient: the host's speed), median [min-max] over the runs, the
lines read and the kernel configs the runs record.
    evidence/20261206-procdevices-v3-v4/per-read.py"""

import glob
import json
import os
from statistics import median

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RUNS = {
    "v3 (evidence/20261205-schedules)":
        "evidence/20261205-schedules/**/{topo}/{variant}/*/results.json",
    "v4 (evidence/20261206-night/20261206-stress500-baseline)":
        "evidence/20261206-night/20261206-stress500-baseline/{topo}/"
        "{variant}/*/results.json",
}
TOPOLOGIES = ("stress-500", "stress-500-1cpu")
VARIANTS = ("stock", "patched", "patched-again")


def last_point(path):
    """The point at the most majors held, with the run's kernel config."""
    with open(path) as f:
        doc = json.load(f)
    points = (doc.get("procdevices") or {}).get("points")
    if not points:
        return None
    return dict(points[-1], config=doc["kernel"]["config_sha256"][:12])


def main():
    for label, pattern in RUNS.items():
        print(label)
        for topo in TOPOLOGIES:
            for variant in VARIANTS:
                found = glob.glob(os.path.join(REPO, pattern.format(
                    topo=topo, variant=variant)), recursive=True)
                pts = [p for p in map(last_point, found) if p]
                if not pts:
                    continue
                steps = [p["ref_per_read"] for p in pts]
                step_ns = [p["ns_per_read"] / p["ref_per_read"] for p in pts]
                print(f"  {topo:16s} {variant:14s} n={len(pts):2d}  read "
                      f"{median(p['ns_per_read'] for p in pts) / 1e6:.3f} ms"
                      f"  {median(steps) / 1e3:.1f}k steps "
                      f"[{min(steps) / 1e3:.1f}-{max(steps) / 1e3:.1f}]  "
                      f"{median(step_ns):.2f} ns/step  lines "
                      f"{sorted({p['lines'] for p in pts})}  config "
                      f"{sorted({p['config'] for p in pts})}")


if __name__ == "__main__":
    main()
