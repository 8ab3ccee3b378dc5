"""The boot curve of a sweep with [[series]] (curvespec.py): per series,
curve and variant, disks against boot-to-census time and per-disk cost;
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
judged by its marginal cost (marginal.py), not by time over disks.
"""

from dataclasses import dataclass, field

from blkscale.results.read import lookup, number, step_ok
from . import marginal, verdict as judged
from blkscale.stats import Summary, paired_ratio, per_repeat

WALL = "wall_to_census_s"
GUEST = "census_complete_s"
PASS, FAIL, INCONCLUSIVE = "PASS", "FAIL", "INCONCLUSIVE"


def boot_to_census(doc):
    """(seconds, figure name), or (None, None) without a census."""
    if not step_ok(doc, "census"):
        return None, None
    for figure in (WALL, GUEST):
        value = number(lookup(doc, "boot", figure))
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

    @property
    def growth(self):
        """Per-disk cost at the most disks over that at the fewest."""
        s = self.growth_summary
        return s.median if s.n else None

    def _per_repeat(self, func):
        """Summary of func([(disks, seconds)]) per repeat."""
        disks = {p.topology: p.disks for p in self.points}
        return per_repeat({p.topology: p.summary for p in self.points},
                          lambda t: func([(disks[k], v)
                                          for k, v in t.items()]))

    @property
    def growth_summary(self):
        def growth(pts):
            pts = sorted(pts)
            if len(pts) < 2 or pts[0][0] == pts[-1][0]:
                return None
            return (pts[-1][1] / pts[-1][0]) / (pts[0][1] / pts[0][0])
        return self._per_repeat(growth)

    @property
    def marginal_growth(self):
        """Marginal cost of the last segment over the first, by repeat."""
        return self._per_repeat(marginal.growth)

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


@dataclass
class BootCurve:
    series: list              # the manifest's series dicts
    curves: list              # [Curve]
    ratios: list              # [Ratio]
    verdicts: list            # [Verdict]

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
            n = number(lookup(doc, "disks", "found", "total"))
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
        values = {k: number(lookup(doc, "boot", "qemu_start_s"))
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
    return spread, "s", used


def _judge_series(goal, variant, result):
    curves = [c for c in result.curves if c.series == goal["series"]
              and c.variant == variant and c.role in ("curve", "after")]
    unit = "ms" if goal["figure"] == "marginal_cost_ms" else "x"
    if not curves:
        return None, unit, f"series {goal['series']}: no curve"
    c = curves[0]
    what = f"series {c.series}" + (f" after ({c.label})"
                                   if c.role == "after" else "")
    if not c.complete:
        return None, unit, f"{goal['figure']} of {what}: " \
            f"{len(c.points)} of {len(c.topologies)} points measured"
    first, last = c.points[0], c.points[-1]
    figures = ", ".join(sorted({p.figure for p in c.points}))
    if goal["figure"] == "marginal_growth":
        segs = c.segments
        if len(segs) < 2:
            return None, unit, f"marginal cost growth of {what}: needs " \
                "three disk counts"
        return c.marginal_growth, unit, (
            f"s per added disk {segs[-1][0]}->{segs[-1][1]} over "
            f"{segs[0][0]}->{segs[0][1]}, {what}, {figures}")
    if goal["figure"] == "marginal_cost_ms":
        segs = c.segments
        if not segs:
            return None, unit, f"marginal cost of {what}: needs two " \
                "disk counts"
        return c.marginal_last_ms, unit, (
            f"ms per added disk {segs[-1][0]}->{segs[-1][1]}, {what}, "
            f"{figures}")
    return c.growth_summary, unit, (f"per-disk cost at {last.disks} over "
                                    f"{first.disks} disks, {what}, "
                                    + figures)


def _load_spoils(goal, variant, spread, loaded):
    """Whether a time that failed its goal rests on a repeat measured on a
    loaded host: load only ever adds time, so such a fail says nothing
    about the kernel (a pass still does)."""
    if "topology" not in goal or spread is None:
        return False
    return any((goal["topology"], variant, k) in loaded
               for k in spread.values)


def analyse(sweep, docs, loaded=frozenset()):
    """sweep: the manifest's `sweep` object; docs: {(topology, variant):
    results document} of the runs that brought one; loaded: {(topology,
    variant, repeat)} of runs made on a loaded host (hostload.py)."""
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
            if "topology" in goal:
                value, unit, used = _judge_topology(goal, v, docs)
            else:
                value, unit, used = _judge_series(goal, v, result)
            spread = value if value is not None and value.n else None
            said = judged.judge(spread, max=goal["max"])
            if said == judged.FAIL and _load_spoils(goal, v, spread,
                                                    loaded):
                said = judged.INCONCLUSIVE
                used += " (over the limit on a loaded host: rerun idle)"
            result.verdicts.append(Verdict(
                goal, v, spread.median if spread else None, unit, used,
                {judged.PASS: PASS, judged.FAIL: FAIL,
                 judged.INCONCLUSIVE: INCONCLUSIVE}[said], spread))
    return result
