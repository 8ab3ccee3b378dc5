"""`blkscale report RUN_DIR --disks N`: what N disks should cost on each
kernel the run measured, from the curves fitted to it (fit.py), each
with its 95% prediction interval (predict.py), and whether N lies
outside the disk counts measured.  A run without a curve gets no
number: it says why."""

from . import analysis, fit, predict, series

# (label, unit, divisor) of what is answered; the boot figure is the one
# the capacity plan models (analysis.probe_choice).
MEMORY = [("guest_slab_kib", "guest slab", "MiB", analysis.KIB_PER_MIB),
          ("guest_used_kib", "guest RAM in use", "MiB",
           analysis.KIB_PER_MIB),
          ("qemu_peak_rss_kib", "host QEMU peak RSS", "MiB",
           analysis.KIB_PER_MIB)]


def _line(label, choice, n, unit, divisor):
    f = choice.chosen
    iv = predict.interval(f, n)
    value = f.predict(n) / divisor
    where = (f"{iv[0] / divisor:,.1f} to {iv[1] / divisor:,.1f}"
             if iv else "no interval: the fit has no degree of freedom")
    return (f"  {label}: {value:,.1f} {unit} (95% prediction interval "
            f"{where}; {f.model} fit on {len(f.points)} points)")


def _range(choices, n):
    counts = sorted({c for ch in choices for c in ch.counts})
    low, high = counts[0], counts[-1]
    if low <= n <= high:
        return f"{n:,} disks is within the measured range ({low:,} to " \
               f"{high:,})"
    side = f"{n / high:.1f}x the largest" if n > high else \
        f"below the smallest, {low:,}"
    return (f"{n:,} disks is OUTSIDE the measured range ({low:,} to "
            f"{high:,}; {side}): an extrapolation, which the residuals "
            "on the measured points cannot vouch for")


def answer(a, n):
    """(lines, answered): the text to print, and whether any kernel got
    a prediction."""
    out, answered = [], False
    for v in a.run.variants:
        key, label, probe = analysis.probe_choice(a, v)
        wall = a.boot.get(("wall_to_census_s", v))
        rows = []
        if probe:
            rows.append(_line(label, probe, n, "s", 1))
            seen = analysis.measured_at(a.run, v, n, key)
            if seen != "-":
                rows.append(f"  measured at {n:,} disks ({label}, s): "
                            f"{seen}")
        if wall and wall.chosen and key != "wall_to_census_s":
            rows.append(_line(dict(series.BOOT_SERIES)["wall_to_census_s"],
                              wall, n, "s", 1))
        used = [c for c in (probe, wall) if c and c.chosen]
        for k, lbl, unit, div in MEMORY:
            c = a.memory.get((k, v))
            if c and c.chosen:
                rows.append(_line(lbl, c, n, unit, div))
                used.append(c)
        if not rows:
            continue
        answered = True
        kernel = (a.run.meta.get("kernels") or {}).get(v)
        out.append(f"{v}" + (f" ({kernel})" if kernel else "") + ": "
                   + _range(used, n))
        out += rows
    if not answered:
        reasons = {c.reason for c in list(a.boot.values())
                   + list(a.memory.values()) if c.reason}
        out.append(f"no prediction for {n:,} disks: a prediction needs a "
                   "curve, and this run has none: "
                   + ("; ".join(sorted(reasons)) or "no model fits")
                   + f" (bench/sweeps/scale.toml measures "
                   f"{fit.MIN_COUNTS} or more)")
    return out, answered
