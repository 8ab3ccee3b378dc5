"""The boot curve of a sweep with [[series]] (curvespec.py): per series,
curve and variant, disks against boot-to-census time and per-disk cost;
the before/after ratio at each disk count; the [[goals]] judged.

Boot to census is the host's wall time from QEMU's start until the
census record arrived (`wall_to_census_s`: firmware, kernel, probing and
settling all count); a results document without it falls back to the
guest's own `census_complete_s`, and every point names the figure it
used.  A point exists only when the census step succeeded.  Used by the
sweep's closing table and by the report: both read the same numbers.
"""

from dataclasses import dataclass, field

from blkscale.results.read import lookup, number, step_ok

WALL = "wall_to_census_s"
GUEST = "census_complete_s"
PASS, FAIL = "PASS", "FAIL"


def boot_to_census(doc):
    """(seconds, figure name), or (None, None) without a census."""
    if not step_ok(doc, "census"):
        return None, None
    for figure in (WALL, GUEST):
        value = number(lookup(doc, "boot", figure))
        if value is not None:
            return value, figure
    return None, None


@dataclass
class Point:
    topology: str
    disks: int
    seconds: float
    figure: str

    @property
    def per_disk_ms(self):
        return 1000.0 * self.seconds / self.disks


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
        if len(self.points) < 2 or \
                self.points[0].disks == self.points[-1].disks:
            return None
        return self.points[-1].per_disk_ms / self.points[0].per_disk_ms


@dataclass
class Ratio:
    series: str
    variant: str
    disks: int
    before: Point
    after: Point

    @property
    def ratio(self):
        return self.before.seconds / self.after.seconds \
            if self.after.seconds else None


@dataclass
class Verdict:
    goal: dict
    variant: str
    value: float              # None: the run brought no figure
    unit: str
    figure: str               # what was measured, in words
    verdict: str


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
        doc = docs.get((topo, variant))
        disks = number(lookup(doc, "disks", "found", "total"))
        seconds, figure = boot_to_census(doc)
        if disks and seconds is not None:
            points.append(Point(topo, disks, seconds, figure))
    return sorted(points, key=lambda p: p.disks)


def _ratios(before, after):
    at = {p.disks: p for p in reversed(after.points)}
    return [Ratio(before.series, before.variant, p.disks, p, at[p.disks])
            for p in before.points if p.disks in at]


def _judge_topology(goal, variant, docs):
    topo, figure = goal["topology"], goal["figure"]
    doc = docs.get((topo, variant))
    if figure == "qemu_start_s":
        value = number(lookup(doc, "boot", "qemu_start_s"))
        used = f"qemu_start_s of {topo}"
    else:
        value, name = boot_to_census(doc)
        used = f"{name or WALL} of {topo}"
    if value is None:
        used += " (no result)"
    return value, "s", used


def _judge_series(goal, variant, result):
    curves = [c for c in result.curves if c.series == goal["series"]
              and c.variant == variant and c.role in ("curve", "after")]
    if not curves:
        return None, "x", f"series {goal['series']}: no curve"
    c = curves[0]
    what = f"series {c.series}" + (f" after ({c.label})"
                                   if c.role == "after" else "")
    if not c.complete:
        return None, "x", f"per-disk cost growth of {what}: " \
            f"{len(c.points)} of {len(c.topologies)} points measured"
    first, last = c.points[0], c.points[-1]
    figures = sorted({p.figure for p in c.points})
    return c.growth, "x", (f"per-disk cost at {last.disks} over "
                           f"{first.disks} disks, {what}, "
                           + ", ".join(figures))


def analyse(sweep, docs):
    """sweep: the manifest's `sweep` object; docs: {(topology, variant):
    results document} of the runs that brought one."""
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
            ok = value is not None and value <= goal["max"]
            result.verdicts.append(Verdict(goal, v, value, unit, used,
                                           PASS if ok else FAIL))
    return result
