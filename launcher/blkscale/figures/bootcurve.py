"""The boot curve of a sweep with [[series]] (bench's curvespec.py): per
series, curve and variant, disks against boot-to-census time and per-disk cost;
the before/after ratio at each disk count; the [[goals]] judged.

Boot to census is the host's wall time from QEMU's start until the
census record arrived (`wall_to_census_s`: firmware, kernel, probing and
settling all count); a results document without it falls back to the
guest's own `census_complete_s`, and every point names the figure it
used.  A point exists only when the census step succeeded.  Used by the
sweep's closing table and by the report: both read the same numbers.

With repeats a point is the median of its repeats (stats.py) and a
figure computed from several points (growth, marginal cost, a ratio) is
computed per repeat and then summarised; goals are judged on that spread
(verdict.py: PASS, FAIL or INCONCLUSIVE).  The growth of a curve is
judged by its marginal cost (marginal.py), not by time over disks, and
every repeat counts: one whose first segment did not rise is named, and
keeps the goal from passing.  A goal judged from one repeat has no
spread and is INCONCLUSIVE by construction; one resting on runs of a
loaded host stands only when it holds beyond what the load could
explain (loadband.py), for a pass as for a failure.
"""

from dataclasses import dataclass, field

from ..results.runresults import Results
from . import loadband, marginal, verdict as judged
from .stats import Summary, paired_ratio, per_repeat

WALL = "wall_to_census_s"
GUEST = "census_complete_s"
# Goal figures taken from one topology's run, and from a series' curve.
TOPOLOGY_FIGURES = ("boot_to_census_s", "qemu_start_s")
SERIES_FIGURES = ("marginal_growth", "marginal_cost_ms")
PASS, FAIL, INCONCLUSIVE = "PASS", "FAIL", "INCONCLUSIVE"


def boot_to_census(doc):
    """(seconds, figure name), or (None, None) without a census."""
    for figure in (WALL, GUEST):
        value = Results.of(doc).boot_figure(figure)
        if value is not None:
            return value, figure
    return None, None


def by_repeat(value):
    """{repeat: doc} of what a caller passed for a run: a results
    document (one repeat) or {repeat: document}."""
    if value is None:
        return {}
    if isinstance(value, dict) and value and \
            all(isinstance(k, int) for k in value):
        return value
    return {1: value}


@dataclass
class Point:
    topology: str
    disks: int
    seconds: float            # the median of the repeats
    figure: str
    spread: Summary = None    # seconds by repeat

    @property
    def per_disk_ms(self):
        return 1000.0 * self.seconds / self.disks

    @property
    def summary(self):
        return self.spread or Summary.of([self.seconds])


@dataclass
class Curve:
    series: str
    role: str                 # "curve", "before" or "after"
    label: str
    variant: str
    topologies: list          # what the sweep file names, in order
    points: list = field(default_factory=list)   # by disk count

    @property
    def complete(self):
        return len(self.points) == len(self.topologies)

    def _per_repeat(self, func):
        """Summary of func([(disks, seconds)]) per repeat."""
        disks = {p.topology: p.disks for p in self.points}
        return per_repeat({p.topology: p.summary for p in self.points},
                          lambda t: func([(disks[k], v)
                                          for k, v in t.items()]))

    @property
    def marginal_growth(self):
        """Marginal cost of the last segment over the first, by repeat
        (the repeats whose first segment did not rise have none:
        flat_repeats names them)."""
        return self._per_repeat(marginal.growth)

    @property
    def flat_repeats(self):
        """{repeat: ms per added disk of the first segment} of the
        repeats whose first segment did not rise: their growth is not a
        number, and a median must not quietly leave them out."""
        firsts = self._per_repeat(marginal.first_ms)
        return {k: v for k, v in firsts.values.items() if v <= 0}

    def runs(self):
        """{(topology, variant, repeat)} behind the curve's points."""
        return {(p.topology, self.variant, k) for p in self.points
                for k in p.summary.values}

    @property
    def marginal_last_ms(self):
        """ms per added disk on the last segment, by repeat."""
        return self._per_repeat(marginal.last_ms)

    @property
    def segments(self):
        """[(n1, n2, Summary of ms per added disk)] between adjacent
        points."""
        out = []
        for p, q in zip(self.points, self.points[1:]):
            if q.disks == p.disks:
                continue
            s = per_repeat({"p": p.summary, "q": q.summary},
                           lambda t, p=p, q=q: 1000.0 * (t["q"] - t["p"])
                           / (q.disks - p.disks))
            out.append((p.disks, q.disks, s))
        return out

    @property
    def quadratic(self):
        """The robust quadratic fit of the medians (marginal.py)."""
        return marginal.robust_quadratic(
            [(p.disks, p.seconds) for p in self.points])


@dataclass
class Ratio:
    series: str
    variant: str
    disks: int
    before: Point
    after: Point

    @property
    def ratio(self):
        s = self.summary
        return s.median if s.n else None

    @property
    def summary(self):
        """before / after, paired by repeat."""
        return paired_ratio(self.before.summary, self.after.summary)


@dataclass
class Verdict:
    goal: dict
    variant: str
    value: float              # None: the run brought no figure
    unit: str
    figure: str               # what was measured, in words
    verdict: str
    spread: Summary = None    # the value's repeats
    detectable: float = None  # smallest change the repeats could tell


@dataclass
class BootCurve:
    series: list              # the manifest's series dicts
    curves: list              # [Curve]
    ratios: list              # [Ratio]
    verdicts: list            # [Verdict]

    def curve_for(self, series, variant):
        """The curve a series goal is judged on: its only curve, or its
        `after` curve."""
        return next(c for c in self.curves if c.series == series and
                    c.variant == variant and c.role in ("curve", "after"))

    def curve(self, series, role, variant):
        for c in self.curves:
            if (c.series, c.role, c.variant) == (series, role, variant):
                return c
        return None


def _points(topologies, variant, docs):
    points = []
    for topo in topologies:
        runs = by_repeat(docs.get((topo, variant)))
        values, figures, disks = {}, set(), None
        for k, doc in sorted(runs.items()):
            n = Results.of(doc).disks_found_total
            seconds, figure = boot_to_census(doc)
            if n and seconds is not None:
                values[k] = seconds
                figures.add(figure)
                disks = disks or n
        if values:
            spread = Summary.of(values)
            # One figure name: the guest's clock if any repeat needed it.
            figure = GUEST if GUEST in figures else WALL
            points.append(Point(topo, disks, spread.median, figure, spread))
    return sorted(points, key=lambda p: p.disks)


def _ratios(before, after):
    at = {p.disks: p for p in reversed(after.points)}
    return [Ratio(before.series, before.variant, p.disks, p, at[p.disks])
            for p in before.points if p.disks in at]


def _judge_topology(goal, variant, docs):
    topo, figure = goal["topology"], goal["figure"]
    runs = by_repeat(docs.get((topo, variant)))
    if figure == "qemu_start_s":
        values = {k: Results.of(doc).boot_figure("qemu_start_s")
                  for k, doc in runs.items()}
        used = f"qemu_start_s of {topo}"
    else:
        found = {k: boot_to_census(doc) for k, doc in runs.items()}
        values = {k: v for k, (v, _) in found.items()}
        names = {n for _, n in found.values() if n}
        used = f"{GUEST if GUEST in names else WALL} of {topo}"
    spread = Summary.of(values)
    if not spread.n:
        used += " (no result)"
    missing = sorted(k for k, v in values.items() if v is None)
    if missing and spread.n:
        used += " (no result in repeat " + ", ".join(map(str, missing)) + ")"
    return spread, "s", used


def _judge_series(goal, variant, result, loads):
    unit = "ms" if goal["figure"] == "marginal_cost_ms" else "x"
    try:
        c = result.curve_for(goal["series"], variant)
    except StopIteration:
        return None, unit, f"series {goal['series']}: no curve", 1.0
    what = f"series {c.series}" + (f" after ({c.label})"
                                   if c.role == "after" else "")
    if goal["figure"] not in SERIES_FIGURES:
        return None, unit, f"{goal['figure']}: no longer judged (a fixed " \
            "start-up cost hides a growing cost in it)", 1.0
    if not c.complete:
        return None, unit, f"{goal['figure']} of {what}: " \
            f"{len(c.points)} of {len(c.topologies)} points measured", 1.0
    figures = ", ".join(sorted({p.figure for p in c.points}))
    factor = loadband.runs_factor(loads, c.runs()) if loads else 1.0
    segs = c.segments
    if goal["figure"] == "marginal_growth":
        if len(segs) < 2:
            return None, unit, f"marginal cost growth of {what}: needs " \
                "three disk counts", factor
        used = (f"s per added disk {segs[-1][0]}->{segs[-1][1]} over "
                f"{segs[0][0]}->{segs[0][1]}, {what}, {figures}")
        flat = c.flat_repeats
        if flat:
            used += "; first segment did not rise in " + ", ".join(
                f"repeat {k} ({v:.3g} ms/disk)" for k, v in
                sorted(flat.items()))
        return c.marginal_growth, unit, used, factor
    if not segs:
        return None, unit, f"marginal cost of {what}: needs two " \
            "disk counts", factor
    return c.marginal_last_ms, unit, (
        f"ms per added disk {segs[-1][0]}->{segs[-1][1]}, {what}, "
        f"{figures}"), factor


def _band(goal, variant, spread, loads, factor):
    """(low, high, factor) of a goal's repeats under the host's load: a
    time of one topology can only have been slowed; a figure of a curve
    (a ratio or a difference of its points) moved either way."""
    if "topology" in goal:
        if loads is None:
            return spread, spread, 1.0
        return loadband.absolute_band(spread, loads, goal["topology"],
                                      variant)
    lows = Summary.of({k: v / factor for k, v in spread.values.items()})
    highs = Summary.of({k: v * factor for k, v in spread.values.items()})
    return lows, highs, factor


def _judge_goal(goal, v, docs, result, loads):
    """The Verdict of one goal for variant v."""
    factor = 1.0
    if "topology" in goal:
        value, unit, used = _judge_topology(goal, v, docs)
        topologies = [goal["topology"]]
    else:
        value, unit, used, factor = _judge_series(goal, v, result, loads)
        series = next((s for s in result.series
                       if s["name"] == goal["series"]), {})
        topologies = [t for c in series.get("curves") or []
                      for t in c["topologies"]]
    # Every repeat that brought any of the goal's runs must bring its
    # figure: a repeat with a hole cannot be left out of a pass.
    planned = len({k for t in topologies
                   for k in by_repeat(docs.get((t, v)))})
    spread = value if value is not None and value.n else None
    said, detect = judged.FAIL, None
    if goal.get("figure") not in TOPOLOGY_FIGURES + SERIES_FIGURES:
        said = judged.INCONCLUSIVE      # a manifest older than the figure
    elif spread is not None:
        low, high, factor = _band(goal, v, spread, loads, factor)
        said = judged.judge_band(low, high, max=goal["max"])
        detect = judged.detectable(spread, factor)
        if spread.n < 2:
            used += " (one repeat: no spread, cannot decide)"
        elif factor > 1.0 and said == judged.INCONCLUSIVE and \
                judged.judge(spread, max=goal["max"]) != judged.INCONCLUSIVE:
            used += (" (loaded host: within what the load could explain, "
                     f"{factor:.2f}x; rerun idle)")
        # A repeat without the figure, or a curve repeat whose first
        # segment did not rise, keeps the goal from passing.
        if planned and spread.n < planned and said == judged.PASS:
            said = judged.INCONCLUSIVE
        if goal.get("figure") == "marginal_growth" and said == judged.PASS \
                and result.curve_for(goal["series"], v).flat_repeats:
            said = judged.INCONCLUSIVE
    return Verdict(goal, v, spread.median if spread else None, unit, used,
                   {judged.PASS: PASS, judged.FAIL: FAIL,
                    judged.INCONCLUSIVE: INCONCLUSIVE}[said], spread, detect)


def analyse(sweep, docs, loads=None):
    """sweep: the manifest's `sweep` object; docs: {(topology, variant):
    {repeat: results document}} of the runs that brought one; loads:
    loadband.Loads of the sweep (None: nothing known about load)."""
    variants = sweep.get("variants") or []
    result = BootCurve(sweep.get("series") or [], [], [], [])
    for s in result.series:
        for v in variants:
            by_role = {}
            for spec in s["curves"]:
                c = Curve(s["name"], spec["role"], spec["label"], v,
                          list(spec["topologies"]),
                          _points(spec["topologies"], v, docs))
                result.curves.append(c)
                by_role[c.role] = c
            if "before" in by_role and "after" in by_role:
                result.ratios += _ratios(by_role["before"], by_role["after"])
    for goal in sweep.get("goals") or []:
        for v in variants:
            result.verdicts.append(_judge_goal(goal, v, docs, result, loads))
    return result
