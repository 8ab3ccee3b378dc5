"""The "Boot curve" section: the sweep's [[series]] and [[goals]] as
tables.  The numbers come from the figures layer
(launcher/blkscale/figures/bootcurve.py), as the sweep's closing table's
do, so that the two can never disagree."""

from blkscale.figures import bootcurve as curve
from blkscale.figures import loadband
from blkscale.figures.stats import ratio_text

from .table import Table, fmt

from .repeats import by_repeat

SECTION = "bootcurve"


def plot_id(series_name):
    return f"bootcurve-{series_name}"


def curve_label(c):
    return c.label if c.role == "curve" else f"{c.role}: {c.label}"


def _points(result):
    t = Table("bootcurve_points", "Boot curve: measured points",
              ["Series", "Curve", "Variant", "Disks", "Topology",
               "Boot to census (s)", "Figure", "Per disk (ms)",
               "Repeats", "Spread (s)"],
              note="Boot to census is the median of the repeats; the "
                   "spread is min-max, or the 95% interval of the median "
                   "from 5 repeats on.")
    for c in result.curves:
        for p in c.points:
            t.rows.append([c.series, curve_label(c), c.variant, fmt(p.disks),
                           p.topology, fmt(p.seconds, 2), p.figure,
                           fmt(p.per_disk_ms, 2), fmt(p.summary.n),
                           _spread(p.summary, lambda x: f"{x:.2f}")])
    return t


def _spread(summary, f):
    """[low-high] of a stats.Summary: the interval, else min-max."""
    return (summary.spread_text(f) if summary is not None else "") or "-"


def _growth(result):
    t = Table("bootcurve_growth", "Per-disk cost along each curve",
              ["Series", "Curve", "Variant", "Points measured",
               "Fewest disks", "Most disks", "Per disk at fewest (ms)",
               "Per disk at most (ms)",
               "Added-disk cost, last / first segment",
               "ms per added disk, last segment",
               "Quadratic share at most disks (robust fit)"])
    for c in result.curves:
        first = c.points[0] if c.points else None
        last = c.points[-1] if c.points else None
        t.rows.append([c.series, curve_label(c), c.variant,
                       f"{len(c.points)} of {len(c.topologies)}",
                       fmt(first.disks if first else None),
                       fmt(last.disks if last else None),
                       fmt(first.per_disk_ms if first else None, 2),
                       fmt(last.per_disk_ms if last else None, 2),
                       _summary(c.marginal_growth, lambda x: f"{x:.2f}x"),
                       _summary(c.marginal_last_ms, lambda x: f"{x:.2f}"),
                       _share(c.quadratic)])
    return t


def _summary(s, f):
    return s.text(f) if s is not None and s.n else "-"


def _share(q):
    if q is None or q["quadratic_share"] is None:
        return "-"
    return f"{100 * max(q['quadratic_share'], 0.0):.0f}%"


def _ratios(result):
    t = Table("bootcurve_ratios", "Before against after at each disk count",
              ["Series", "Variant", "Disks", "Before", "Before (s)", "After",
               "After (s)", "Before / after", "Before / after, spread"])
    labels = {s["name"]: {c["role"]: c["label"] for c in s["curves"]}
              for s in result.series}
    for r in result.ratios:
        t.rows.append([r.series, r.variant, fmt(r.disks),
                       labels[r.series]["before"], fmt(r.before.seconds, 2),
                       labels[r.series]["after"], fmt(r.after.seconds, 2),
                       "-" if r.ratio is None else f"{r.ratio:.2f}x",
                       ratio_text(r.summary) if r.summary.n > 1 else "-"])
    return t


def _value(v):
    if v.value is None:
        return "-"
    if v.unit == "x":
        return f"{v.value:.2f}x"
    return f"{v.value:.2f} {v.unit}"


def _goals(result):
    t = Table("bootcurve_goals", "Goals",
              ["Goal", "Variant", "Figure used", "Value", "Limit",
               "Verdict", "Spread of the repeats"],
              note="PASS: the whole spread (min-max of the repeats, or the "
                   "95% interval of the median from 5 repeats) is within "
                   "the limit; FAIL: all of it is beyond; INCONCLUSIVE: it "
                   "straddles the limit, more repeats are needed.")
    for v in result.verdicts:
        limit = v.goal["max"]
        t.rows.append([v.goal["name"], v.variant, v.figure, _value(v),
                       f"{limit:g}x" if v.unit == "x" else
                       f"{limit:g} {v.unit}",
                       v.verdict,
                       _spread(v.spread, (lambda x: f"{x:.2f}x")
                               if v.unit == "x" else
                               (lambda x: f"{x:.2f}"))])
    return t


def analyse(run, a):
    """Fill the section's tables, notes and plot list into the analysis;
    returns the bench's BootCurve (None for a run without a sweep)."""
    sweep = (run.meta or {}).get("sweep") if run.layout == "sweep" else None
    if not sweep or not (sweep.get("series") or sweep.get("goals")):
        a.notes[SECTION] = (
            "This run names no boot curve: a sweep file with [[series]] "
            "and [[goals]] makes one (bench/sweeps/bootcurve.toml).")
        return None
    result = curve.analyse(sweep, by_repeat(run),
                           loadband.Loads(run.meta, sweep.get(
                               "max_host_load",
                               loadband.DEFAULT_MAX_HOST_LOAD)))
    if result.series:
        a.tables["bootcurve_points"] = _points(result)
        a.tables["bootcurve_growth"] = _growth(result)
        if any(c["role"] == "before" for s in result.series
               for c in s["curves"]):
            a.tables["bootcurve_ratios"] = _ratios(result)
    if result.verdicts:
        a.tables["bootcurve_goals"] = _goals(result)
    a.section_plots[SECTION] = [plot_id(s["name"]) for s in result.series]
    a.notes[SECTION] = (
        f"Boot to census is {curve.WALL}, the host's time from QEMU's start "
        "until the census record arrived (firmware, kernel, probing and "
        f"settling all count); a run without it uses {curve.GUEST}, the "
        "guest's uptime, and the Figure column says so. Per disk is that "
        "time divided by the disks found.")
    return result
