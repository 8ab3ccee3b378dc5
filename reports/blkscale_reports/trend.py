"""The nights side by side: the nightly's history (one line per night
and judged figure, blkscale.results.history) as nights, and each gated
figure as a series across them with the nights its verdict changed;
blktests tests flaky on more than one night.

The history comes from a history file (results/nightly-history.jsonl,
which the nightly keeps) or is made from nights' run directories (their
manifest.json and nightly.json) by the same code the nightly uses.
"""

import os
from dataclasses import dataclass, field

from blkscale.errors import InputError
from blkscale.figures import metrics
from blkscale.results import history, runresults
from blkscale.results.manifest import FILENAME as MANIFEST
from blkscale.results.runsummary import FILENAME as SUMMARY
from blkscale.results.read import (NIGHTLY, read_manifest, read_nightly,
                                   read_summary)

from . import blktestshistory, load
from .errors import ReportError


CEILING = ", against its ceiling"


@dataclass
class Night:
    night: str
    date: str
    commit: str
    kernels: dict
    verdict: str
    statuses: dict = field(default_factory=dict)   # status -> checks


@dataclass
class Series:
    topology: str
    variant: str
    figure: str
    ceiling: bool
    points: list = field(default_factory=list)     # [(Night, line)]

    @property
    def label(self):
        """The metric's label (metrics.py), a ratio's reference, and
        whether it was judged against a ceiling."""
        base, _, ref = self.figure.removesuffix("_ceiling") \
            .partition("_vs_")
        m = metrics.BY_NAME.get(base)
        text = (m.label + (f" ({m.unit})" if m.unit != "x" else "")) \
            if m else base
        if ref:
            text += f", ratio to {ref}"
        ceiling = self.ceiling or self.figure.endswith("_ceiling")
        return text + (CEILING if ceiling else "")

    @property
    def changes(self):
        """[(line before, line)] of the nights whose verdict differs from
        the night before's."""
        lines = [line for _, line in self.points]
        return [(a, b) for a, b in zip(lines, lines[1:])
                if a["verdict"] != b["verdict"]]

    @property
    def varies(self):
        seen = {(x["median"], x["low"], x["high"], x["verdict"])
                for _, x in self.points}
        return len(seen) > 1


def _night_dir(path):
    manifest = read_manifest(path)
    if manifest is None:
        raise ReportError(path, None, f"no {MANIFEST}: not a night of "
                          "the nightly")
    nightly = read_nightly(path)
    if nightly is None:
        raise ReportError(os.path.join(path, NIGHTLY), None, "missing: the "
                          "night was never judged (blkscale nightly "
                          "--compare)")
    return history.night_lines(manifest, nightly)


def read(sources):
    """The history lines of every source: a history file, or a night's
    run directory."""
    lines = []
    for src in sources:
        try:
            lines += _night_dir(src) if os.path.isdir(src) else \
                history.read(src)
        except InputError as e:
            raise ReportError(e.path, e.field, e.problem) from None
    return lines


def nights(lines):
    """[Night] in date order, each with its checks counted by status."""
    out = {}
    for x in lines:
        n = out.setdefault(x["night"], Night(
            x["night"], x["date"] or "", x["commit"] or "",
            x["kernels"] or {}, x["night_verdict"] or "-"))
        n.statuses[x["verdict"]] = n.statuses.get(x["verdict"], 0) + 1
    return sorted(out.values(), key=lambda n: (n.date, n.night))


def _ceiling(line):
    return any(k.endswith("_ceiling") for k in (line.get("limit") or {}))


def series(lines):
    """[Series] of the gated figures, in the order first seen, each
    night's line in date order."""
    by_night = {n.night: n for n in nights(lines)}
    out = {}
    for x in lines:
        if not x["gate"]:
            continue
        key = (x["topology"], x["variant"], x["figure"], _ceiling(x))
        s = out.setdefault(key, Series(*key))
        if all(n.night != x["night"] for n, _ in s.points):
            s.points.append((by_night[x["night"]], x))
    for s in out.values():
        s.points.sort(key=lambda p: (p[0].date, p[0].night))
    return list(out.values())


def flaky(night_dirs):
    """[(test, disk, pair, [nights])] of the blktests tests judged flaky,
    most nights first, from blktests nights' run directories (each with
    its kernels' results and second boots)."""
    found = {}
    for d in night_dirs:
        summary = read_summary(d)
        if summary is None:
            raise ReportError(d, None, f"no {SUMMARY}: not a "
                              "blktests night")
        # As blktestshistory.py: a night without every kernel's results
        # (its guests died) is no night.
        if not all(runresults.exists_in(os.path.join(d, v))
                   for v in summary.variants or {}):
            continue
        run = load.load(d)
        for other in run.variants:
            if other == run.reference:
                continue
            pair = f"{run.reference} / {other}"
            for test, disk in blktestshistory.flaky_tests(
                    d, run.reference, other):
                found.setdefault((test, disk, pair), []).append(
                    run.meta.get("run") or os.path.basename(d))
    return sorted(((t, d, p, n) for (t, d, p), n in found.items()),
                  key=lambda r: (-len(r[3]), r[0], r[1]))
