"""The report's first screen: one table per topology of the run in the
shape kernel developers read performance changes in (the LKP test
robot's): a row per headline figure, a column per kernel variant with
its median and spread and, beside the reference, its ratio to it with
the ratio's interval or "cannot tell"; the nightly's verdict where the
run was judged; and a sentence per kernel a person can quote.

Every number is a stats.Summary of the figures layer
(blkscale.figures.byvariant): the same medians, intervals and per-repeat
ratios as the sweep's closing table, never recomputed here.
"""

import collections
import math
from dataclasses import dataclass, field

from blkscale.errors import InputError
from blkscale.figures import byvariant, metrics
from blkscale.figures.stats import cannot_tell, paired_ratio, ratio_text
from blkscale.results.read import read_nightly

from .errors import ReportError
from . import repeats
from .repeats import by_repeat

# What a planner comes for, in this order; the first of a tuple that any
# variant measured stands for it (kernel-to-init when no census ran).
HEADLINE = [
    ("census_complete_s", "kernel_to_init_s"),
    ("guest_slab_kib_per_disk",),
    ("qemu_rss_kib_per_disk",),
    ("block_dynamic_capacity",),
    ("block_static_collisions",),
    ("register_p50_ns",),
    ("lookup_p50_ns",),
    ("procdevices_ns_per_read_0",),
    ("procdevices_ns_per_read_200",),
]
# Figures shown in another unit than they are measured in: (unit,
# factor, decimals).
DISPLAY = {
    "procdevices_ns_per_read_0": ("µs", 1e-3, 1),
    "procdevices_ns_per_read_200": ("µs", 1e-3, 1),
}
# Shorter names than the closing table's, for the first screen.
SHORT = {
    "census_complete_s": "boot: kernel start to census",
    "kernel_to_init_s": "boot: kernel start to init",
    "guest_slab_kib_per_disk": "guest slab per disk",
    "qemu_rss_kib_per_disk": "host QEMU peak RSS per disk",
    "block_dynamic_capacity": "dynamic block majors",
    "block_static_collisions": "of them assigned in devices.txt",
    "register_p50_ns": "register_blkdev, median",
    "lookup_p50_ns": "open() of a registered major",
    "procdevices_ns_per_read_0": "/proc/devices read, 0 added majors",
    "procdevices_ns_per_read_200": "/proc/devices read, 200 added",
}
# A cell shows the worst of its metric's checks.
SEVERITY = ["pass", "no-baseline", "warn", "inconclusive", "missing",
            "run-failed", "regression"]


@dataclass
class Cell:
    value: object                  # stats.Summary of the figure
    ratio: object = None           # stats.Summary of value / reference
    verdict: str = None            # the nightly's, when it judged the run


@dataclass
class Row:
    metric: object                 # metrics.Metric
    cells: dict                    # variant -> Cell

    @property
    def name(self):
        return SHORT.get(self.metric.name, self.metric.label)

    @property
    def unit(self):
        return DISPLAY.get(self.metric.name, (self.metric.unit,))[0]

    @property
    def label(self):
        return f"{self.name} ({self.unit})"

    def fmt(self, value):
        """A value in the row's unit."""
        if self.metric.name not in DISPLAY:
            return self.metric.format(value)
        _, factor, digits = DISPLAY[self.metric.name]
        return "-" if value is None else f"{value * factor:,.{digits}f}"


@dataclass
class Block:
    topology: str
    disks: float
    reference: str
    variants: list
    kernels: dict
    rows: list = field(default_factory=list)
    coverage: str = ""             # the coverage most spreads share
    repeats: int = 0
    judged: bool = False
    sentences: list = field(default_factory=list)

    def value_text(self, s, fmt):
        """A median and its spread; the coverage only when it is not the
        one the caption states."""
        return s.text(fmt, coverage=s.coverage_text() != self.coverage)

    def ratio_text(self, s):
        return ratio_text(s, coverage=s.coverage_text() != self.coverage)


def _verdicts(run):
    """{(topology, variant, metric): status} of the nightly's checks, or
    {} when the run was not judged."""
    try:
        doc = read_nightly(run.path)
    except InputError as e:
        raise ReportError(e.path, e.field, e.problem) from None
    if doc is None:
        return {}
    return {(c.get("topology"), c.get("variant"), c.get("metric")):
            c.get("status") for c in doc["checks"] if isinstance(c, dict)}


def _verdict(verdicts, topo, variant, name, reference):
    """The worst status among a figure's checks: its own against the
    baseline, its ratio to the reference, its ceiling."""
    found = [verdicts.get((topo, variant, n)) for n in
             (name, metrics.cross_name(name, reference), f"{name}_ceiling")]
    found = [s for s in found if s]
    if not found:
        return None
    return max(found, key=lambda s: SEVERITY.index(s)
               if s in SEVERITY else len(SEVERITY))


def _chosen(names, by_variant):
    for name in names:
        if any(by_variant[v][name].n for v in by_variant):
            return metrics.BY_NAME[name]
    return None


def _block(run, topo, by_variant, verdicts):
    ref = run.reference
    variants = [v for v in run.variants if v in by_variant]
    kernels = dict((run.meta or {}).get("kernels") or {})
    disks = [by_variant[v]["disks_found"].median for v in variants]
    disks = [d for d in disks if d is not None]
    b = Block(topo, max(disks) if disks else None, ref, variants, kernels,
              judged=bool(verdicts))
    for names in HEADLINE:
        m = _chosen(names, by_variant)
        if m is None:
            continue
        cells = {}
        for v in variants:
            value = by_variant[v][m.name]
            ratio = None
            if v != ref and ref in by_variant and m.cross:
                ratio = by_variant[v][metrics.cross_name(m.name, ref)]
            elif v != ref and ref in by_variant:
                ratio = paired_ratio(value, by_variant[ref][m.name])
            cells[v] = Cell(value, ratio, _verdict(verdicts, topo, v, m.name,
                                                   ref))
        b.rows.append(Row(m, cells))
    spreads = [s for r in b.rows for c in r.cells.values()
               for s in (c.value, c.ratio) if s is not None and s.n > 1]
    if spreads:
        b.coverage = collections.Counter(
            s.coverage_text() for s in spreads).most_common(1)[0][0]
    b.repeats = max((c.value.n for r in b.rows for c in r.cells.values()),
                    default=0)
    # The reference first: the others' sentences are relative to it.
    b.sentences = [sentence(b, v) for v in
                   sorted(variants, key=lambda v: v != ref)]
    return b


def _value_phrase(b, row, v):
    s = row.cells[v].value
    return f"{row.name} {b.value_text(s, row.fmt)} {row.unit}"


def _change(ratio):
    """How far a ratio is from 1, either way: the order of a sentence."""
    r = ratio.median
    return abs(math.log(r)) if r and r > 0 else math.inf


def sentence(b, v):
    """One sentence on a variant: the reference's own figures; another
    variant's ratios that its repeats decide, largest change first (a
    count first, as its value against the reference's), then the figures
    they cannot tell from the reference's."""
    kernel = b.kernels.get(v)
    who = f"{v} ({kernel})" if kernel else v
    at = f"at {b.disks:,.0f} disks" if b.disks else ""
    if v == b.reference or not any(r.cells[v].ratio for r in b.rows):
        parts = [_value_phrase(b, r, v) for r in b.rows
                 if r.cells[v].value.n]
        return f"{who} {at}: " + "; ".join(parts) + "."
    counts, told, same, untold, single = [], [], [], [], []
    for r in b.rows:
        ratio = r.cells[v].ratio
        if ratio is None or not ratio.n:
            continue
        low, high = ratio.bounds
        if cannot_tell(ratio):
            untold.append(r.name)
        elif low == high == 1.0:
            same.append(r.name)
        elif r.metric.kind != metrics.EXACT and ratio.n < 2:
            single.append(f"{r.name} {r.fmt(ratio.median)}x")
        elif r.metric.kind == metrics.EXACT:
            mine = r.cells[v].value
            theirs = r.cells[b.reference].value
            counts.append(f"{r.name} {r.fmt(mine.median)} against "
                          f"{r.fmt(theirs.median)}")
        else:
            told.append((_change(ratio), f"{r.name} {b.ratio_text(ratio)}"))
    told = counts + [t for _, t in sorted(told, key=lambda t: -t[0])]
    text = f"{who} against {b.reference} {at}: "
    text += "; ".join(told) if told else \
        "no figure differs beyond the noise" if not single else \
        "nothing told"
    if untold:
        text += "; cannot tell: " + ", ".join(untold)
    if single:
        text += "; one run each, so not told from noise: " + \
            ", ".join(single)
    if same:
        text += "; the same: " + ", ".join(same)
    return text + "."


def blocks(run):
    """[Block] of the run, one per topology with results, in run order."""
    docs = by_repeat(run)
    figures = byvariant.figures(docs, run.reference)
    verdicts = _verdicts(run)
    return [_block(run, t, figures[t], verdicts) for t in run.topologies
            if t in figures]


def _count(n, one, many=None):
    return f"{n} {one if n == 1 else many or one + 's'}"


def runs_line(run):
    """How the runs behind the tables ended, in one sentence."""
    entries = run.entries
    outcomes = collections.Counter(e.outcome for e in entries)
    topologies = len({e.topology for e in entries})
    variants = len({e.variant for e in entries})
    text = (f"{_count(len(entries), 'run')} of "
            f"{_count(topologies, 'topology', 'topologies')} on "
            f"{_count(variants, 'kernel')}: ")
    if set(outcomes) == {"ok"}:
        text += "all ended ok"
    else:
        text += ", ".join(f"{n} {o}" for o, n in outcomes.most_common())
    short = [e for e in run.with_results()
             if e.disks is not None and e.disks <
             e.doc.disks_expected.get("total", e.disks)]
    text += "; every disk found" if not short else \
        f"; {len(short)} run(s) found fewer disks than declared"
    if run.layout == "sweep":
        loaded = len(repeats.loaded_runs(run))
        unknown = sum(1 for r in run.meta.get("runs") or []
                      if not r.get("superseded") and
                      (r.get("host_load") or {}).get("loaded") is None)
        text += f"; {loaded} run(s) on a loaded host (see Runs)" if loaded \
            else "" if unknown else "; no run on a loaded host"
        text += f"; host load not recorded for {unknown} run(s)" \
            if unknown else ""
    return text + "."


def caption(b):
    """What the brackets and ratios of a block mean."""
    if b.repeats < 2:
        spread = ("one run per variant: no figure has a spread and no "
                  "ratio can be told from noise")
    elif b.repeats >= 5:
        spread = (f"median of {b.repeats} repeats [interval of the median, "
                  f"{b.coverage} coverage, from order statistics]")
    else:
        spread = (f"median of {b.repeats} repeats [min-max, which holds the "
                  f"median with {b.coverage} probability]")
    return (f"{b.topology}, {b.disks:,.0f} disks: {spread}; under each "
            f"variant its ratio to {b.reference}, taken per repeat, or "
            "\"cannot tell\" when the ratio's interval holds 1"
            + ("; the nightly's verdict on each figure" if b.judged else ""))


def _round(x):
    return None if x is None else round(x, 6)


def records(blocks_):
    """One flat record per topology, figure and variant: the CSV and JSON
    beside the page."""
    out = []
    for b in blocks_:
        for r in b.rows:
            for v, c in r.cells.items():
                value = c.value.to_json() or {}
                ratio = c.ratio.to_json() if c.ratio is not None and \
                    c.ratio.n else None
                out.append({
                    "topology": b.topology, "disks": b.disks,
                    "figure": r.metric.name, "label": r.name,
                    "unit": r.metric.unit, "variant": v,
                    "kernel": b.kernels.get(v), "reference": b.reference,
                    "repeats": value.get("n"), "median": value.get("median"),
                    "low": _round((c.value.bounds or (None, None))[0]),
                    "high": _round((c.value.bounds or (None, None))[1]),
                    "coverage": _round(c.value.coverage)
                    if c.value.n > 1 else None,
                    "ratio": None if ratio is None else ratio["median"],
                    "ratio_low": None if ratio is None else
                    _round(c.ratio.bounds[0]),
                    "ratio_high": None if ratio is None else
                    _round(c.ratio.bounds[1]),
                    "ratio_text": None if ratio is None else
                    ratio_text(c.ratio),
                    "verdict": c.verdict})
    return out
