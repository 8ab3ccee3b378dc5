"""The end of a run: its summary (written by blkscale.results.runsummary)
and a short report a person can read."""

import os

from .. import paths
from ..results import SUMMARY_SCHEMA
from ..results import udevfigures
from ..results.runsummary import Summary
from . import partlines, pathlines, repeats

TAIL_LINES = 15


def _rel(path, base):
    return os.path.relpath(path, base) if path else None


def _entry(o, run_dir):
    return {
        "outcome": o.kind, "exit_status": o.status, "message": o.message,
        "disks_expected": o.expected, "disks_found": o.found,
        "boot": o.boot,
        "steps": {s["name"]: s["verdict"] for s in o.steps},
        "results": _rel(o.results, run_dir),
        "console": _rel(o.console, run_dir),
        "clocksource": o.clocksource, "kernel_console": o.kernel_console,
        "udev": o.udev,
    }


def document(run_id, topo, accel, reason, started, finished, runs,
             status, run_dir, repeat=1, made=None):
    """The Summary of a run; runs: [(repeat, Outcome)] in the order they
    ran.  One repeat: an entry per variant.  Several: every run under
    `runs`, and per variant its figures over the repeats and its ratios
    to the reference.
    made: the command and the project's commit (provenance.describe())."""
    made = made or {"command": None, "git": None}
    doc = {
        "schema": SUMMARY_SCHEMA, "run": run_id, "started": started,
        "finished": finished, "command": made["command"],
        "git": made["git"],
        "topology": {"name": topo.name, "file": paths.display(topo.path)},
        "accelerator": {"name": accel, "reason": reason},
        "exit_status": status,
    }
    if repeat == 1:
        doc["variants"] = {o.variant: _entry(o, run_dir) for _, o in runs}
        return Summary(doc)
    names = list(dict.fromkeys(o.variant for _, o in runs))
    ref = repeats.reference(names)
    doc["repeat"] = repeat
    doc["reference"] = ref
    doc["runs"] = [dict(variant=o.variant, repeat=k, **_entry(o, run_dir))
                   for k, o in runs]
    doc["variants"] = {v: repeats.variant_entry(runs, v, ref) for v in names}
    return Summary(doc)


def _seconds(value):
    return f"{value:.2f} s" if isinstance(value, (int, float)) else "-"


def report(doc, runs, summary_path):
    """Lines for stdout; console tails of failures for stderr.  runs:
    [(repeat, Outcome)]; with several repeats every run that failed has
    its lines, then the variants' medians and ratios."""
    out = [f"blkscale run {doc.run_id}: {doc.topology_file}, "
           f"accelerator {doc.accelerator} ({doc.accelerator_reason})"]
    errs = []
    repeat = doc.repeat
    for k, o in runs:
        if repeat > 1 and o.kind == "ok":
            continue
        if o.found:
            disks = f"disks {o.found['total']}/{o.expected['total']}"
        else:
            disks = f"disks -/{o.expected['total']}"
        boot = o.boot or {}
        label = o.variant if repeat == 1 else f"{o.variant} #{k}"
        out.append(f"  {label:<8} {o.kind:<14} {disks:<16} "
                   f"qemu {_seconds(boot.get('qemu_start_s'))}, "
                   f"init {_seconds(boot.get('kernel_to_init_s'))}, "
                   f"census {_seconds(boot.get('census_complete_s'))}")
        if o.clocksource or o.kernel_console:
            out.append(f"           clocksource {o.clocksource or '-'}, "
                       f"console {o.kernel_console or '-'}")
        if o.steps:
            out.append("           steps: " + ", ".join(
                f"{s['name']} {s['verdict']}" for s in o.steps))
            # A skipped step is no failure, but the run says why.
            out += [f"           {s['name']} skipped: {s.get('message')}"
                    for s in o.steps if s["verdict"] == "skipped"]
            out += partlines.lines(o.results, o.steps)
            out += pathlines.lines(o.results, o.steps)
        if o.udev:
            out.append("           " + udevfigures.line(o.udev))
            out.append("           " + udevfigures.links_line(o.udev))
        if o.kind != "ok":
            out.append(f"           {o.message}")
        where = o.results or o.console
        if where:
            out.append(f"           {paths.display(where)}")
        if o.tail and o.kind != "ok":
            tail = o.tail.rstrip().splitlines()[-TAIL_LINES:]
            errs.append(f"--- {label}: console tail ---")
            errs += tail
            errs.append("---")
    if repeat > 1:
        names = list(doc.variants)
        out.append(f"  median of {repeat} repeats [min-max, or the 95% "
                   "interval from 5], order alternating:")
        out += repeats.report_lines(runs, names)
        out += repeats.udev_lines(runs, names)
        clocks = dict.fromkeys(f"{o.variant} {o.clocksource}/"
                               f"{o.kernel_console}" for _, o in runs
                               if o.clocksource or o.kernel_console)
        if clocks:
            out.append("  clocksource/console: " + ", ".join(clocks))
    if summary_path:
        out.append(f"summary: {paths.display(summary_path)}")
    return out, errs
