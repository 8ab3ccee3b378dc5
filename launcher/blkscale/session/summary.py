"""The end of a run: summary.json and a short report a person can read."""

import os

from .. import paths
from ..results import SUMMARY_SCHEMA
from ..results.atomic import write_json_atomic

TAIL_LINES = 15


def _rel(path, base):
    return os.path.relpath(path, base) if path else None


def document(run_id, topo, accel, reason, started, finished, outcomes,
             status, run_dir):
    variants = {}
    for o in outcomes:
        variants[o.variant] = {
            "outcome": o.kind, "exit_status": o.status, "message": o.message,
            "disks_expected": o.expected, "disks_found": o.found,
            "boot": o.boot,
            "steps": {s["name"]: s["verdict"] for s in o.steps},
            "results": _rel(o.results, run_dir),
            "console": _rel(o.console, run_dir),
        }
    return {
        "schema": SUMMARY_SCHEMA, "run": run_id, "started": started,
        "finished": finished,
        "topology": {"name": topo.name, "file": paths.display(topo.path)},
        "accelerator": {"name": accel, "reason": reason},
        "exit_status": status, "variants": variants,
    }


def write(run_dir, doc):
    os.makedirs(run_dir, exist_ok=True)
    path = os.path.join(run_dir, "summary.json")
    write_json_atomic(path, doc)
    return path


def _seconds(value):
    return f"{value:.2f} s" if isinstance(value, (int, float)) else "-"


def report(doc, outcomes, summary_path):
    """Lines for stdout; console tails of failures for stderr."""
    out = [f"blkscale run {doc['run']}: {doc['topology']['file']}, "
           f"accelerator {doc['accelerator']['name']} "
           f"({doc['accelerator']['reason']})"]
    errs = []
    for o in outcomes:
        if o.found:
            disks = f"disks {o.found['total']}/{o.expected['total']}"
        else:
            disks = f"disks -/{o.expected['total']}"
        boot = o.boot or {}
        out.append(f"  {o.variant:<8} {o.kind:<14} {disks:<16} "
                   f"qemu {_seconds(boot.get('qemu_start_s'))}, "
                   f"init {_seconds(boot.get('kernel_to_init_s'))}, "
                   f"census {_seconds(boot.get('census_complete_s'))}")
        if o.steps:
            out.append("           steps: " + ", ".join(
                f"{s['name']} {s['verdict']}" for s in o.steps))
        if o.kind != "ok":
            out.append(f"           {o.message}")
        where = o.results or o.console
        if where:
            out.append(f"           {paths.display(where)}")
        if o.tail and o.kind != "ok":
            tail = o.tail.rstrip().splitlines()[-TAIL_LINES:]
            errs.append(f"--- {o.variant}: console tail ---")
            errs += tail
            errs.append("---")
    if summary_path:
        out.append(f"summary: {paths.display(summary_path)}")
    return out, errs
