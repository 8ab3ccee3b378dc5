"""Per-call costs in reference steps (guest-tools/src/lib/refloop.h)
gate; where a run has them, the same costs in ns only advise.  Runs
from before the reference have no figure in steps and are judged as
they were.

The committed A/A night's repeats are given figures in steps as a
reference that follows the host's speed would leave them: the same for
both kernels within 1%, whatever the ns figures did.  Its lookup in ns
(three of nine boots in a slow spell) then advises, and the canary's
register cost laid on the steps alone is still named."""

import json

from blkscale.figures import ceilings, compare, metrics
from blkscale.figures.stats import Summary

from test_nightly_canary_aa import EVIDENCE, _failed, _judge, _renamed

# Per-call costs in steps, about what the tools measure at stress-500
# (a step about 5.5 ns when the host is fast).
STEPS = {"register_ref": 110.0, "lookup_ref": 720.0}
STEP_NS = 5.5
# The canary's register cost (evidence/20261205-nightly-gates).
REGISTER_COST = 1.46


def _with_steps(cost=1.0):
    """An edit of results documents giving each the figures in steps,
    1% apart from one repeat to the next; register times cost."""
    seen = []

    def edit(doc):
        wobble = 1 + 0.01 * (len(seen) % 3 - 1)
        seen.append(doc)
        block = doc["majors"]["block"]
        for key, value in STEPS.items():
            value *= wobble * (cost if key == "register_ref" else 1)
            block[key] = {"blocks": 2, "median": value, "min": value,
                          "max": value}
        for point in doc["procdevices"]["points"]:
            point["ref_per_read"] = point["ns_per_read"] / STEP_NS * wobble
    return edit


def _edit_variant(run, variant, edit):
    for path in sorted(run.glob(f"*/{variant}/*/results.json")):
        doc = json.loads(path.read_text())
        edit(doc)
        path.write_text(json.dumps(doc))


def _checks(doc, variant):
    return {c["metric"]: c for c in doc["checks"]
            if c["variant"] == variant and c["topology"] == "stress-500"}


def test_a_committed_run_has_no_figures_in_steps():
    path = EVIDENCE / "stress-500" / "patched-again" / "3" / "results.json"
    values = metrics.extract(json.loads(path.read_text()))
    assert values["register_p50_ns"] and values["lookup_p50_ns"]
    for m in metrics.METRICS:
        if m.normalized:
            assert values[m.normalized] is None, m.normalized


def test_figures_in_steps_are_read():
    path = EVIDENCE / "stress-500" / "patched-again" / "3" / "results.json"
    doc = json.loads(path.read_text())
    _with_steps()(doc)
    values = metrics.extract(doc)
    assert values["register_p50_ref"] == STEPS["register_ref"] * 0.99
    assert values["lookup_p50_ref"] == STEPS["lookup_ref"] * 0.99
    assert values["procdevices_ref_per_read_200"] == \
        values["procdevices_ns_per_read_200"] / STEP_NS * 0.99


def _ratios(**ratios):
    return {"t": {"stock": {}, "patched": {
        metrics.cross_name(k, "stock"): Summary.of(v)
        for k, v in ratios.items()}}}


def test_ns_ratio_gates_alone_and_advises_beside_steps():
    slow = [1.45, 1.55, 1.5]          # a spell on one kernel's boots
    alone = {c.metric: c for c in ceilings.checks(
        _ratios(lookup_p50_ns=slow), {}, "stock")}
    assert alone["lookup_p50_ns_vs_stock"].status == compare.REGRESSION

    beside = {c.metric: c for c in ceilings.checks(
        _ratios(lookup_p50_ns=slow, lookup_p50_ref=[1.0, 1.01, 0.99]),
        {}, "stock")}
    ns = beside["lookup_p50_ns_vs_stock"]
    assert ns.status == compare.WARN and not ns.failed
    assert ns.limit["gate"] is False
    steps = beside["lookup_p50_ref_vs_stock"]
    assert steps.status == compare.PASS and steps.limit["gate"] is True

    canary = {c.metric: c for c in ceilings.checks(
        _ratios(register_p50_ns=[1.0, 1.02, 1.01],
                register_p50_ref=[1.45, 1.47, 1.46]), {}, "stock")}
    assert canary["register_p50_ref_vs_stock"].status == compare.REGRESSION


def _points(by_count):
    return {"procdevices": {"points": [
        dict({"registered": r, "ns_per_read": ns},
             **({} if steps is None else {"ref_per_read": steps}))
        for r, ns, steps in by_count]}}


def test_procdevices_per_count_in_steps():
    docs = {("t", "stock"): {1: _points([(100, 100, 20), (300, 200, 40)]),
                             2: _points([(100, 110, 21), (300, 210, 41)])},
            ("t", "patched"): {1: _points([(100, 150, 18), (300, 300, None)]),
                               2: _points([(100, 160, 19), (300, 310, None)])}}
    got = {c.metric: c for c in ceilings.checks(
        {"t": {"stock": {}, "patched": {}}}, docs, "stock")}
    # at 100 both have steps: the ns ratio (1.5x) only warns
    assert got["procdevices_ns_per_read_at_100_vs_stock"].status == \
        compare.WARN
    assert got["procdevices_ref_per_read_at_100_vs_stock"].status == \
        compare.PASS
    # at 300 patched has none: the ns ratio gates as before
    assert got["procdevices_ns_per_read_at_300_vs_stock"].status == \
        compare.REGRESSION
    assert "procdevices_ref_per_read_at_300_vs_stock" not in got


def test_a_night_without_steps_is_judged_on_ns(tmp_path):
    """The committed night as it was: its figures in steps are not
    measured (no check, no failure) and its lookup in ns, three boots in
    a slow spell, still keeps it INCONCLUSIVE."""
    run = _renamed(EVIDENCE, tmp_path / "aa", "patched-again")
    out, doc = _judge(run, "nightly-aa.toml")
    assert out.returncode == 3, out.stdout + out.stderr
    checks = _checks(doc, "patched-again")
    assert not any("_ref" in m for m in checks)
    lookup = checks["lookup_p50_ns_vs_stock"]
    assert lookup["status"] == "inconclusive" and lookup["limit"]["gate"]


def test_the_a_a_night_in_steps_judges_ns_as_advice(tmp_path):
    run = _renamed(EVIDENCE, tmp_path / "aa", "patched-again",
                   _with_steps())
    _edit_variant(run, "stock", _with_steps())
    out, doc = _judge(run, "nightly-aa.toml")
    # the same night without steps stays INCONCLUSIVE on lookup in ns
    assert out.returncode == 0, out.stdout + out.stderr
    assert doc["verdict"] == "PASS"
    checks = _checks(doc, "patched-again")
    for m in ("register_p50_ref", "lookup_p50_ref",
              "procdevices_ref_per_read_0", "procdevices_ref_per_read_200"):
        assert checks[f"{m}_vs_stock"]["status"] == "pass", m
    for m in ("register_p50_ns", "lookup_p50_ns"):
        assert checks[f"{m}_vs_stock"]["limit"]["gate"] is False, m


def test_the_canary_cost_in_steps_is_named(tmp_path):
    run = _renamed(EVIDENCE, tmp_path / "canary", "canary",
                   _with_steps(REGISTER_COST), source="patched-again")
    _edit_variant(run, "stock", _with_steps())
    out, doc = _judge(run, "nightly-canary.toml")
    assert out.returncode == 1, out.stdout
    assert ("stress-500", "register_p50_ref_vs_stock") in \
        _failed(doc, "canary")


def test_summary_tells_advisory_figures_from_undecided_ones():
    from blkscale_bench.judging import nightly as judging
    gating = compare.Check("stress-500", "patched-again",
                           "kernel_to_init_s_vs_stock", compare.INCONCLUSIVE,
                           1.0, 1.05, {"max_ratio": 1.15}, "undecided")
    advisory = compare.Check("stress-500", "patched-again",
                             "lookup_p50_ns_vs_stock", compare.INCONCLUSIVE,
                             1.0, 1.1, {"max_ratio": 1.2, "gate": False},
                             "advises")
    lines = judging.report_lines("INCONCLUSIVE", [], [gating, advisory],
                                 "r")
    assert lines[0] == "nightly verdict: INCONCLUSIVE (1 advisory, " \
        "1 inconclusive)"
    assert lines[1].split()[0] == "INCONCLUSIVE" and \
        lines[1].endswith("undecided")
    assert lines[2].split()[0] == "ADVISORY" and lines[2].endswith("advises")
