"""blktests side by side: every test of every topology that ran the
blktests step, one column per kernel variant, differences first.

The reference variant is the run's (stock).  Where the guests ran failed
tests again (results.json blktests.reruns, with a second boot's beside
the run), the verdict is the reruns' (blkscale/figures/blktests.py): regression,
flaky, fails on both, fixed, with both kernels' pass counts; a test flaky
for three nights in a row of the nightly's history says so.  Without
reruns, a test that passes on the reference and fails on another variant
is a regression, one that fails everywhere a known failure that the docs
must explain (reports/README.md)."""

from pathlib import Path

from blkscale.figures import blktests as verdicts

from . import blktestshistory
from . import blktestsruns as bv
from .table import Table, fmt

# What the page sorts by: regressions and what cannot be told from one,
# then other differences, then failures, then not run.
_ORDER = {"regression": 0, "not rerun": 1, "flaky": 1, "difference": 1,
          "fixed": 2, "fails on both": 2, "failed": 2, "not run": 3,
          "passed": 4, "pass": 4}


def _tests(doc):
    """{(test, disk): test entry} of one results document."""
    section = (doc or {}).get("blktests") or {}
    out = {}
    for t in section.get("tests") or []:
        if isinstance(t, dict) and t.get("test"):
            out[(t["test"], t.get("serial") or t.get("device") or "")] = t
    return out


def compare(docs, reference):
    """Rows of (kind, test, disk, {variant: entry or None}); kind is
    "regression" (passed on the reference, failed elsewhere),
    "difference", or the status every variant agrees on."""
    per_variant = {v: _tests(d) for v, d in docs.items()}
    keys = sorted({k for tests in per_variant.values() for k in tests})
    rows = []
    for key in keys:
        entries = {v: per_variant[v].get(key) for v in docs}
        statuses = {v: (e or {}).get("status") for v, e in entries.items()}
        ref = statuses.get(reference)
        if ref == "passed" and any(s == "failed" for v, s in statuses.items()
                                   if v != reference):
            kind = "regression"
        elif len(set(statuses.values())) > 1:
            kind = "difference"
        else:
            kind = ref or "missing"
        rows.append((kind, key[0], key[1], entries))
    rows.sort(key=_sort_key)
    return rows


def _sort_key(row):
    return (_ORDER.get(row[0], 5), row[1], row[2])


def _all_docs(run, docs):
    """{variant: [results.json, its second boot's]} for the verdicts."""
    out = {v: [d] for v, d in docs.items()}
    if run.layout == "run" and run.path:
        for v in docs:
            more = bv.read_results(bv.second_boot(run.path, v) / v)
            if more:
                out[v].append(more)
    return out


def rerun_verdicts(run, docs, reference):
    """{(test, disk): [Verdict against the reference, per other variant]},
    empty when no variant ran tests again; with each flaky test's nights
    in a row when the run is a night of the nightly."""
    if not any("reruns" in d["blktests"] for d in docs.values()):
        return {}, {}
    every = _all_docs(run, docs)
    out, streaks = {}, {}
    for other in docs:
        if other == reference:
            continue
        for v in verdicts.judge(every, reference, other):
            out.setdefault((v.test, v.disk), []).append(v)
        if blktestshistory.is_nightly(run.path):
            night = Path(run.path)
            streaks.update(blktestshistory.flaky_streaks(
                blktestshistory.nights(night, [reference, other]),
                reference, other))
    return out, streaks


def _rerun_cell(verdicts, streak):
    judged = [v for v in verdicts if v.runs or v.verdict == "not rerun"]
    if not judged:
        return "-"
    text = "; ".join(v.summary() for v in judged)
    if streak >= blktestshistory.NIGHTS_NAMED:
        text += f"; flaky {streak} nights in a row"
    return text


def _cell(entry):
    if not entry:
        return "-"
    runtime = entry.get("runtime_s")
    return entry.get("status", "?") + (f" ({fmt(runtime, 1)} s)"
                                       if runtime is not None else "")


def _why(entries):
    reasons = []
    for v, e in entries.items():
        if e and e.get("status") != "passed" and e.get("reason"):
            reasons.append(f"{v}: {e['reason']}")
    return "; ".join(reasons) or "-"


def tables(run):
    """The side-by-side table and the per-variant counts, or {}."""
    variants = list(run.variants)
    side = Table("blktests", "blktests, test by test",
                 ["Topology", "Test", "Disk", "Verdict", "Reruns", *variants,
                  "Why"])
    counts = Table("blktests_summary", "blktests results",
                   ["Topology", "Variant", "Passed", "Failed", "Not run",
                    "Total", "Wall (s)", "Modules not in the kernel"])
    for topo in run.topologies:
        docs = {v: run.entry(topo, v).doc for v in variants
                if run.entry(topo, v) and (run.entry(topo, v).doc or {})
                .get("blktests", {}).get("tests") is not None}
        if not docs:
            continue
        for v, doc in docs.items():
            s = doc["blktests"].get("summary") or {}
            counts.rows.append([topo, v, fmt(s.get("passed")),
                                fmt(s.get("failed")), fmt(s.get("not_run")),
                                fmt(s.get("total")),
                                fmt(doc["blktests"].get("wall_s"), 1),
                                " ".join(doc["blktests"].get(
                                    "modules_missing") or []) or "-"])
        reference = run.reference if run.reference in docs else variants[0]
        verdicts, streaks = rerun_verdicts(run, docs, reference)
        rows = []
        for kind, test, disk, entries in compare(docs, reference):
            mine = verdicts.get((test, disk), [])
            judged = [v.verdict for v in mine if v.runs]
            if judged:
                kind = min(judged, key=lambda k: _ORDER.get(k, 5))
            rows.append((kind, test, disk, entries,
                         _rerun_cell(mine, streaks.get((test, disk), 0))))
        rows.sort(key=_sort_key)
        for kind, test, disk, entries, reruns in rows:
            side.rows.append([topo, test, disk or "-", kind, reruns,
                              *[_cell(entries.get(v)) for v in variants],
                              _why(entries)])
    if not counts.rows:
        return {}
    return {"blktests_summary": counts, "blktests": side}
