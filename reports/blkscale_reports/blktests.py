"""blktests side by side: every test of every topology that ran the
blktests step, one column per kernel variant, differences first.

The reference variant is the run's (stock); a test that passes there and
fails on another variant is a regression, one that fails everywhere is a
known failure that the docs must explain (reports/README.md)."""

from .table import Table, fmt

# What the page sorts by: differences, then failures, then not run.
_ORDER = {"difference": 0, "failed": 1, "not run": 2, "passed": 3}


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
    rows.sort(key=lambda r: (0 if r[0] == "regression"
                             else _ORDER.get(r[0], 4), r[1], r[2]))
    return rows


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
                 ["Topology", "Test", "Disk", "Verdict", *variants, "Why"])
    counts = Table("blktests_summary", "blktests results",
                   ["Topology", "Variant", "Passed", "Failed", "Not run",
                    "Total", "Wall (s)"])
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
                                fmt(doc["blktests"].get("wall_s"), 1)])
        reference = run.reference if run.reference in docs else variants[0]
        for kind, test, disk, entries in compare(docs, reference):
            side.rows.append([topo, test, disk or "-", kind,
                              *[_cell(entries.get(v)) for v in variants],
                              _why(entries)])
    if not counts.rows:
        return {}
    return {"blktests_summary": counts, "blktests": side}
