#!/usr/bin/python3
"""The spread of the A/A pair's paired ratios in each schedule's run.

For each run directory: per gated figure, the median paired ratio
(patched-again over the run's reference, stock or patched, by repeat), the standard deviation of the
logs of the ratios with its 90% interval (chi-square, scipy), the
one-sided 95% half-width the nightly's decision would have at 10
repeats, and the repeats that decide a 1.15x limit at that spread when
the pair is truly equal; then the host's load and the pairs' wall time.
Last, for each schedule, the boot times' spread pooled over its runs
and the smallest limit an equal pair passes 95% of the time in 10 and
in 16 repeats: the size this host resolves.

    spread.py RESULTS_DIR/RUN [RESULTS_DIR/RUN ...]
"""

import math
import statistics
import sys

from scipy import stats as sps

from blkscale.figures import onesided
from blkscale_bench import repeats

# Each a ratio to the run's reference, paired by repeat.
FIGURES = ("kernel_to_init_s", "census_complete_s", "register_p50_ref",
           "lookup_p50_ref", "procdevices_ref_per_read_0")
VARIANT = "patched-again"   # the judged half of the A/A pair
LIMIT = 1.15
BOOT = FIGURES[:2]


def sd_interval(sd, n, level=0.90):
    """The interval of a normal sample's standard deviation."""
    lo, hi = sps.chi2.ppf([(1 + level) / 2, (1 - level) / 2], n - 1)
    return sd * math.sqrt((n - 1) / lo), sd * math.sqrt((n - 1) / hi)


def repeats_to_decide(sd, most=100):
    """Repeats whose one-sided bound of a true 1.0 lies within LIMIT."""
    for n in range(2, most + 1):
        if onesided.half_width(n, sd) < math.log(LIMIT):
            return n
    return None


def resolvable(sd, n, power=0.95):
    """The smallest limit whose one-sided bound an equal pair (true
    ratio 1) stays under with probability `power` in n repeats."""
    return math.exp((float(sps.t.ppf(onesided.LEVEL, n - 1))
                     + float(sps.norm.ppf(power))) * sd / math.sqrt(n))


def report(run_dir, pooled):
    manifest, docs = repeats.load(run_dir)
    ref = manifest.reference
    (topology, by_variant), = repeats.figures(manifest, docs).items()
    figs = {name[:-len(f"_vs_{ref}")]: value
            for name, value in by_variant[VARIANT].items()
            if name.endswith(f"_vs_{ref}")}
    runs = [r for r in manifest.get("runs") or [] if not r.get("superseded")]
    shares = [r["host_load"]["others_cpu_share"] for r in runs
              if (r.get("host_load") or {}).get("others_cpu_share")
              is not None]
    walls = {}
    for r in runs:
        walls.setdefault(r["repeat"], []).append(r["wall_s"])
    schedule = manifest["sweep"].get("schedule", "alternate")
    together = schedule != "alternate"
    pair_wall = [max(w) if together else sum(w) for w in walls.values()]
    print(f"{run_dir.rstrip('/').rsplit('/', 1)[-1]}: {topology}, "
          f"{VARIANT} against {ref}, schedule {schedule}, "
          f"{len(walls)} pairs, others' CPU share median "
          f"{statistics.median(shares):.2f} [{min(shares):.2f}-"
          f"{max(shares):.2f}], wall per pair median "
          f"{statistics.median(pair_wall):.0f} s")
    for name in FIGURES:
        s = figs.get(name)
        if s is None or s.n < 2:
            print(f"  {name:30} missing")
            continue
        logs = [math.log(v) for v in s.values.values()]
        sd = statistics.stdev(logs)
        lo, hi = sd_interval(sd, len(logs))
        hw = math.exp(onesided.half_width(10, sd))
        need = repeats_to_decide(sd)
        if name in BOOT:
            pooled.setdefault((topology, schedule, name), []).append(
                (len(logs), sd))
        print(f"  {name:30} n {s.n:2}  median {s.median:.3f} "
              f"[{s.min:.3f}-{s.max:.3f}]  sd(log) {sd:.4f} "
              f"(90% {lo:.4f}-{hi:.4f})  bound at 10: x{hw:.3f}  "
              f"decides {LIMIT}x in {need or '>100'}")


def summary(pooled):
    print("pooled by schedule: sd(log) of the paired boot ratios, and the "
          "smallest limit an equal pair passes 95% of the time")
    for (topology, schedule, name), parts in sorted(pooled.items()):
        dof = sum(n - 1 for n, _ in parts)
        sd = math.sqrt(sum((n - 1) * s * s for n, s in parts) / dof)
        print(f"  {topology:15} {schedule:16} {name:18} runs {len(parts)}"
              f"  sd(log) "
              f"{sd:.4f}  limit at 10 repeats {resolvable(sd, 10):.3f}x, "
              f"at 16 {resolvable(sd, 16):.3f}x")


if __name__ == "__main__":
    found = {}
    for arg in sys.argv[1:]:
        report(arg, found)
    summary(found)
