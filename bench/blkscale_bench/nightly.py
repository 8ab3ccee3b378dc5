"""Nightly: compare a sweep against the baselines, write the verdict
(results/<run>/nightly.json and nightly.xml) and print it."""

import os

from . import baseline, ceilings, clockfloor, compare, everydisk, junit, \
    metrics, repeats
from blkscale.results.atomic import write_json_atomic

XML_NAME = "nightly.xml"
JSON_NAME = "nightly.json"


def evaluate(run_dir, baselines_dir, overrides=None):
    """(verdict, failed checks, all checks) of a sweep directory; writes
    nightly.xml and nightly.json into it."""
    manifest, docs = repeats.load(run_dir)
    figures = repeats.figures(manifest, docs)
    sweep = manifest.get("sweep") or {}
    ref = sweep.get("reference", "stock")
    bases = {v: baseline.load(baselines_dir, v)
             for v in sweep.get("variants") or []}
    checks = compare.compare(manifest, figures, bases,
                             metrics.thresholds(ref, overrides))
    checks += ceilings.checks(figures, docs, ref)
    checks += everydisk.checks(docs)
    clockfloor.annotate(checks, clockfloor.sweep_floors(docs))
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
    write_json_atomic(os.path.join(run_dir, JSON_NAME), {
        "schema": {"name": "blkscale-nightly", "version": 1},
        "run": manifest.get("run"), "verdict": result,
        "baselines": {v: (d or {}).get("source") for v, d in bases.items()},
        "checks": [c.__dict__ for c in checks],
    })
    return result, failed, checks


def report_lines(result, failed, checks, run_dir):
    counted = {}
    for c in checks:
        counted[c.status] = counted.get(c.status, 0) + 1
    counts = ", ".join(f"{n} {s}" for s, n in sorted(counted.items()))
    out = [f"nightly verdict: {result} ({counts})"]
    for c in failed + compare.warnings(checks):
        out.append(f"  {c.status.upper():<11} {c.topology} {c.variant}: "
                   f"{c.message}")
    out.append(f"junit: {os.path.join(run_dir, XML_NAME)}")
    return out
