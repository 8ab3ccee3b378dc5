"""Nightly: compare a sweep against the baselines, write the verdict
(results/<run>/nightly.json and nightly.xml), add the night to the
history beside it (results/nightly-history.jsonl) and print it.

The verdict is PASS only when every planned run ended ok (runcheck.py),
every count is right in every repeat, and every gating time and goal is
decided within its limit.  REGRESSION when anything failed; otherwise
INCONCLUSIVE when a gating time or goal could not be decided, even with
the repeats the nightly added (power.py).
"""

import os

from blkscale.figures import (bootcurve, ceilings, clockfloor, compare,
                              everydisk, layoutnote, loadband, metrics)
from blkscale.results import history
from blkscale.results.atomic import write_json_atomic
from blkscale.results.read import NIGHTLY

from .. import repeats
from . import baseline, junit, runcheck

XML_NAME = "nightly.xml"
JSON_NAME = NIGHTLY
PASS, REGRESSION, INCONCLUSIVE = "PASS", "REGRESSION", "INCONCLUSIVE"


def loads_of(manifest):
    sweep = manifest.get("sweep") or {}
    return loadband.Loads(manifest, sweep.get("max_host_load",
                                              loadband.DEFAULT_MAX_HOST_LOAD))


def goal_checks(manifest, docs, loads):
    """The sweep's [[goals]] as checks: FAIL is a regression,
    INCONCLUSIVE an undecided figure."""
    sweep = manifest.get("sweep") or {}
    if not sweep.get("goals"):
        return []
    result = bootcurve.analyse(sweep, docs, loads)
    out = []
    status = {bootcurve.PASS: compare.PASS, bootcurve.FAIL:
              compare.REGRESSION, bootcurve.INCONCLUSIVE:
              compare.INCONCLUSIVE}
    for v in result.verdicts:
        topo = v.goal.get("topology") or f"series {v.goal.get('series')}"
        value = "-" if v.value is None else f"{v.value:.4g} {v.unit}"
        out.append(compare.Check(
            topo, v.variant, f"goal: {v.goal['name']}", status[v.verdict],
            None, v.value, {"max_ceiling": v.goal["max"], "gate": True},
            f"goal {v.goal['name']}: {value} ({v.figure}), max "
            f"{v.goal['max']:g}: {v.verdict}",
            v.spread.to_json() if v.spread else None,
            repeats=v.spread.n if v.spread else 0, kind=metrics.TIME,
            undecided=v.verdict == bootcurve.INCONCLUSIVE,
            # judged by order statistics: one more repeat at a time
            needed=(v.spread.n if v.spread else 0) + 1))
    return out


def evaluate(run_dir, baselines_dir, overrides=None, gate_times=None,
             baselines_of=None):
    """(verdict, failed checks, all checks) of a sweep directory; writes
    nightly.xml and nightly.json into it.  gate_times: the topologies
    whose boot times gate (None: all); baselines_of: {variant: the
    variant whose baseline judges it} (the sweep's `baselines`)."""
    manifest, docs, broken = repeats.load_all(run_dir)
    figures = repeats.figures(manifest, docs)
    sweep = manifest.get("sweep") or {}
    ref = sweep.get("reference", "stock")
    loads = loads_of(manifest)
    of = baselines_of or {}
    bases = {v: baseline.load(baselines_dir, of.get(v, v))
             for v in sweep.get("variants") or []}
    checks = runcheck.checks(manifest, run_dir, broken, docs)
    checks += compare.compare(manifest, figures, bases,
                              metrics.thresholds(ref, overrides), docs,
                              loads, gate_times)
    # judged by the baseline the reference is judged by: at 1.0 of it
    same = {v for v in bases if v != ref and of.get(v, v) == of.get(ref, ref)}
    checks += ceilings.checks(figures, docs, ref, loads, gate_times, same)
    checks += ceilings.absolute(sweep.get("ceilings"), figures, loads, docs)
    checks += everydisk.checks(docs)
    checks += goal_checks(manifest, docs, loads)
    clockfloor.annotate(checks, clockfloor.sweep_floors(docs))
    layoutnote.annotate(checks, docs)
    stopped = manifest.get("decide_stopped")
    if stopped:
        checks.append(compare.Check(
            "sweep", "all", "deciding", compare.WARN, limit={},
            message=f"adding repeats stopped at repeat {stopped['repeat']} "
                    f"({stopped.get('reason')}): the runs the signal "
                    "stopped are left out, those that ended count; what "
                    "the rest would have decided is undecided"))
    if manifest.get("status") != "complete":
        checks.append(compare.Check(
            "sweep", "all", "complete", compare.RUN_FAILED,
            message=f"the sweep is {manifest.get('status')}: "
                    f"{manifest.get('partial_reason') or 'it never ended'}"))
    result, failed = compare.verdict(checks)
    props = {"verdict": result, "git_commit": (manifest.get("git") or {})
             .get("commit"), "accelerator": manifest.get("accelerator")}
    for v, doc in bases.items():
        if doc:
            props[f"baseline_{v}_run"] = doc["source"].get("run")
    tree = junit.document(manifest.get("run"), checks,
                          manifest.get("finished"), props)
    junit.write(os.path.join(run_dir, XML_NAME), tree)
    doc = {
        "schema": {"name": "blkscale-nightly", "version": 3},
        "run": manifest.get("run"), "verdict": result,
        "baselines": {v: (d or {}).get("source") for v, d in bases.items()},
        "repeats": {t: runcheck.planned_repeats(manifest, t)
                    for t in sweep.get("topologies") or {}},
        "loaded_runs": sorted(list(k) for k in loads.marked()),
        # Runs of an older manifest that recorded no host load count as
        # unloaded; they are named so that a reader can doubt them.
        "load_unrecorded_runs": sorted(list(k) for k in loads.unrecorded),
        "checks": [c.__dict__ for c in checks],
    }
    write_json_atomic(os.path.join(run_dir, JSON_NAME), doc)
    # The nights side by side: this night's figures and verdicts join the
    # history beside the nights' directories (blkscale report --history).
    history.record(os.path.join(os.path.dirname(os.path.abspath(run_dir)),
                                history.FILENAME),
                   history.night_lines(manifest, doc))
    return result, failed, checks


def timing_lines(checks):
    """For each judged time or per-call cost (a gating ratio, ceiling
    or goal with repeats): its verdict, its repeats, and the true values
    at which those repeats would fail and pass."""
    rows = [c for c in checks if c.kind in (metrics.TIME, metrics.CALL)
            and (c.limit or {}).get("gate", True)]
    if not rows:
        return []
    out = ["judged times: verdict, repeats, the true value at which these "
           "repeats fail and at which they pass"]
    for c in rows:
        power = compare.power_text(c) or "no spread"
        need = ""
        if c.status == compare.INCONCLUSIVE:
            need = "; no number of repeats decides it" if c.needed is None \
                else f"; {c.needed} repeats would decide it"
            if c.at_par is not None and c.at_par > c.repeats:
                need += f"; {c.at_par} would pass it at par"
        out.append(f"  {c.status.upper():<12} {c.topology} {c.variant} "
                   f"{c.metric} ({compare.limit_text(c.limit)}): "
                   f"{c.repeats} repeats, {power}{need}")
    return out


def status_label(c):
    """A check's status as the summary counts it: an undecided figure
    that only advises (a cost in ns where the run has it in steps, a
    time of a topology whose times do not gate) is `advisory`, never
    one of the inconclusive figures the verdict waits for."""
    if c.status == compare.INCONCLUSIVE and \
            not (c.limit or {}).get("gate", True):
        return "advisory"
    return c.status


def report_lines(result, failed, checks, run_dir):
    counted = {}
    for c in checks:
        label = status_label(c)
        counted[label] = counted.get(label, 0) + 1
    counts = ", ".join(f"{n} {s}" for s, n in sorted(counted.items()))
    out = [f"nightly verdict: {result} ({counts})"]
    for c in failed + compare.warnings(checks):
        out.append(f"  {status_label(c).upper():<11} {c.topology} "
                   f"{c.variant}: {c.message}")
    out += timing_lines(checks)
    out.append(f"junit: {os.path.join(run_dir, XML_NAME)}")
    return out
