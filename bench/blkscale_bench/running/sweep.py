"""Run a sweep: every topology on every variant, one launcher child each.

Runs go topology by topology (all variants and repeats of one topology
back to back, the variants' order alternating between repeats: order.py),
so the stock/patched ratios compare runs made minutes apart.
The first run's accelerator is used for the rest: a sweep never mixes
TCG and KVM figures, and the launcher's KVM probe boot runs only once.
A sweep with `hosts` hands the same runs out to libvirt hosts instead,
a topology's runs (a unit) to one host at a time (fanout.py).
"""

import datetime
import os
import subprocess
import sys

from blkscale import qemubinary as qemu_binary
from blkscale.errors import InputError
from blkscale.figures import hostload
from blkscale.libvirt.backend import LibvirtBackend
from blkscale.results import runresults
from blkscale.results.manifest import Manifest
from blkscale.results.manifest import path_in as manifest_path
from blkscale.results.runresults import Results

from .. import repeats
from ..errors import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE,
                      BenchError)
from ..sweepfile import display
from . import (continuation, fanout, hostinfo, launch, order, together,
               workqueue)
from .progress import Progress
from .signals import forwarding

STAGING = continuation.STAGING
LAUNCHER_USAGE = 2


def default_run_id(sweep_name):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y%m%d-%H%M%S")
    return f"{stamp}-{sweep_name}"


def validate_topologies(sweep):
    """Let the launcher refuse bad topologies before anything boots."""
    argv = [*launch.launcher_command(), "validate"] + \
        [str(t.path) for t in sweep.topologies]
    out = subprocess.run(argv, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines()
        raise BenchError(sweep.path, "topologies",
                         lines[0] if lines else
                         f"launcher validate exited {out.returncode}")


def check_qemu(sweep):
    """The path of the binary the sweep's `qemu` or --qemu chose (None:
    each topology's own), refused in one line before anything runs: a
    patched binary not built, not an executable, or another binary than
    the one libvirt hosts start."""
    if sweep.qemu is None:
        return None

    def refuse(problem):
        raise BenchError(sweep.qemu_where, sweep.qemu_field, problem)

    path = qemu_binary.resolve(sweep.qemu, refuse=refuse)
    if sweep.hosts and not LibvirtBackend.starts(path):
        refuse(f"{qemu_binary.display(path)}: the libvirt hosts "
               f"({sweep.hosts_field}) start their own QEMU, the launcher's "
               "libvirt backend takes no other; use distro, or run without "
               "hosts")
    return path


def _last_line(path):
    try:
        with open(path, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.strip()]
    except OSError:
        return ""
    return lines[-1] if lines else ""


def _entry(run_dir, topo, variant, argv, status, killed, stopping, out_dir,
           started, wall_s, launched, repeat=1, host_load=None):
    rel = os.path.relpath(out_dir, run_dir)
    doc = launch.results_of(out_dir)
    results = Results.of(doc)
    if killed:
        outcome, message = "killed", "did not stop after the signal"
    elif status == EXIT_INTERRUPTED or (stopping and status != 0
                                        and doc is None):
        outcome, message = "interrupted", "stopped by a signal"
    elif launched:
        outcome = launched.get("outcome", "failed")
        message = launched.get("message", "")
    elif status == 0:
        outcome, message = "ok", ""
    else:
        outcome = "launcher-error"
        message = _last_line(os.path.join(out_dir, "launcher.log")) or \
            f"launcher exited {status}"
    console = os.path.join(out_dir, "console.log")
    return {
        "topology": topo.name,
        "topology_file": topo.display,
        "variant": variant,
        "repeat": repeat,
        "exit_status": status,
        "outcome": outcome,
        "message": message,
        "results": runresults.path_in(rel) if doc is not None else None,
        "console": f"{rel}/console.log" if os.path.isfile(console) else None,
        "launcher_log": f"{rel}/launcher.log",
        "command": argv,
        "started": started,
        "wall_s": round(wall_s, 3),
        "disks_expected": launched.disks_expected_total,
        "disks_found": launched.disks_found_total,
        "boot": results.boot or launched.get("boot"),
        "kernel_release": results.kernel_release,
        "accelerator": results.accelerator,
        "vcpus": results.vcpus,
        "qemu_version": results.qemu_version,
        "qemu": _run_qemu(results.qemu_binary),
        "host_load": host_load,
    }


def _run_qemu(record):
    """The run's binary as its results.json names it: kind and path."""
    if not record:
        return None
    path = record.get("path")
    return {"kind": record.get("kind"),
            "path": qemu_binary.display(path) if path else None}


def _display_argv(argv):
    """The launcher command with paths relative to the repository."""
    return [display(a) if os.path.isabs(a) else a for a in argv]


def _figures(run_dir):
    """Every figure as median, spread and interval over the repeats, for
    the manifest (None when a results file cannot be read)."""
    try:
        return repeats.to_json(repeats.figures(*repeats.load(run_dir)))
    except InputError:
        return None


def run(sweep, results_dir, run_id, command, stream=None):
    """Run the sweep; returns (exit status, manifest document)."""
    run_dir = os.path.join(results_dir, run_id)
    if os.path.exists(run_dir):
        raise BenchError(run_dir, None, "exists; choose another --run-id")
    qemu = check_qemu(sweep)
    validate_topologies(sweep)
    facts = _usable_hosts(sweep) if sweep.hosts else None
    os.makedirs(run_dir)
    meta = hostinfo.collect(sweep.variants, qemu)
    if sweep.hosts:
        meta["hosts"] = fanout.manifest_hosts(sweep.hosts, facts)
        meta["moves"] = []
    manifest = Manifest.start(run_dir, run_id, command, sweep, meta,
                              hostinfo.now_iso())
    with continuation.holding(run_dir):
        return _execute(sweep, run_dir, manifest, stream, facts,
                        order.plan(sweep.topologies, sweep.variants,
                                   sweep.repeat))


def continue_run(sweep, results_dir, run_id, command, stream=None):
    """Make the runs an interrupted sweep has not made, into its own
    directory (continuation.py says when it may); returns (exit status,
    manifest document).  A run that failed in an earlier sitting still
    fails the sweep."""
    run_dir = os.path.join(results_dir, run_id)
    manifest = Manifest.reopen(run_dir)
    if manifest is None:
        raise BenchError(run_dir, None, "not a sweep run directory: "
                         "nothing to continue")
    qemu = check_qemu(sweep)
    validate_topologies(sweep)
    why = continuation.why_not(manifest.doc, sweep,
                               hostinfo.qemu_facts(qemu),
                               continuation.in_use(run_dir))
    if why:
        raise BenchError(manifest_path(run_dir), None,
                         f"cannot continue: {why}; start a new sweep")
    with continuation.holding(run_dir):
        return _continue(sweep, run_dir, manifest, command, stream)


def _continue(sweep, run_dir, manifest, command, stream):
    sittings = manifest.doc.setdefault("sittings", [])
    continuation.set_aside_stopped(run_dir, manifest.doc, sweep,
                                   len(sittings) + 2)
    earlier = [e["exit_status"] for e in manifest.doc["runs"]
               if not e.get("superseded")]
    plan = continuation.remaining(manifest.doc, sweep)
    sittings.append({"continued": hostinfo.now_iso(), "command": command,
                     "git": hostinfo.git_state(), "runs_made": len(earlier),
                     "runs_left": len(plan)})
    manifest.doc["partial_reason"] = None
    manifest.doc["finished"] = None
    manifest.resume()
    print(f"blkscale bench: continuing {manifest.doc['run']}: "
          f"{len(earlier)} runs "
          f"made, {len(plan)} to make", file=stream or sys.stderr)
    status, record = _execute(sweep, run_dir, manifest, stream, None, plan)
    if status == EXIT_OK and any(earlier):
        status = EXIT_FAILED
    return status, record


def extend(sweep, run_dir, rounds, stream=None):
    """Run rounds of added repeats into an existing sweep directory (the
    nightly deciding its times): rounds [(repeat, [Topology])], each
    recorded in the manifest before any runs, then run in order, the
    variants' order alternating as order.py has it.  A signal stops the
    round it hits (its stopped runs are left out, drop_round) and the
    rounds after it (never started).  Returns (exit status, manifest
    document)."""
    manifest = Manifest.reopen(run_dir)
    if manifest is None:
        raise BenchError(manifest_path(run_dir), None,
                         "missing: not a sweep run directory")
    check_qemu(sweep)
    indices = manifest.add_rounds(
        [(r, [t.name for t in topos]) for r, topos in rounds],
        hostinfo.now_iso())
    accel = manifest.record.accelerator
    if sweep.accel == "auto" and accel:
        sweep.accel = accel                 # never mix TCG and KVM
    worst = EXIT_OK
    for at, (index, (repeat, topologies)) in enumerate(zip(indices, rounds)):
        plan = [p for p in order.plan(topologies, sweep.variants, repeat)
                if p.repeat == repeat]
        before = manifest.run_count
        manifest.resume()
        manifest.round_status(index, "running")
        status, _ = _execute(sweep, run_dir, manifest, stream, None, plan)
        worst = max(worst, status)
        if status in (EXIT_OK, EXIT_FAILED):
            manifest.round_status(index, "done")
            continue
        if status == EXIT_INTERRUPTED:
            manifest.drop_round(before, repeat)
            manifest.round_status(index, "stopped", "interrupted")
            manifest.finish(hostinfo.now_iso(), None)
        else:
            manifest.round_status(index, "done")
        for later in indices[at + 1:]:
            manifest.round_status(later, "stopped", "never started: an "
                                  "earlier round was stopped")
        return status, manifest.record
    return worst, manifest.record


def _execute(sweep, run_dir, manifest, stream, facts, plan):
    staging = os.path.join(run_dir, STAGING)
    os.makedirs(staging, exist_ok=True)
    with forwarding() as state:
        if sweep.hosts:
            planned, statuses, refused, unfinished = _run_hosts(
                sweep, run_dir, staging, manifest, stream, state, facts)
        else:
            planned, statuses, refused = _run_here(
                sweep, run_dir, staging, manifest, stream, state, plan)
            unfinished = None
    try:
        os.rmdir(staging)
    except OSError:
        pass
    reason = None
    if state.stopping:
        reason = f"interrupted by {state.signame}"
    elif refused:
        reason = f"the launcher refused a run: {refused}"
    elif unfinished:
        reason = unfinished
    elif len(statuses) < planned:
        reason = "not every run was made"
    manifest.set_figures(_figures(run_dir))
    manifest.finish(hostinfo.now_iso(), reason)
    if state.stopping:
        status = EXIT_INTERRUPTED
    elif refused:
        status = EXIT_USAGE
    elif any(statuses) or unfinished:
        status = EXIT_FAILED
    else:
        status = EXIT_OK
    return status, manifest.record


def _usable_hosts(sweep):
    """The launcher's facts of every host; BenchError when none of them
    can run a guest (nothing has started then)."""
    facts = fanout.host_facts(sweep.hosts)
    if not any(f.get("ok") for f in facts.values()):
        first = sweep.hosts[0].uri
        raise BenchError(sweep.hosts_where, sweep.hosts_field + "[0]",
                         f"{first}: {facts[first].get('problem')}"
                         + (" (and no other host can run)"
                            if len(sweep.hosts) > 1 else ""))
    return facts


def _run_here(sweep, run_dir, staging, manifest, stream, state, plan):
    """On this machine, QEMU started directly: one run at a time, or a
    repeat's variants together (together.py)."""
    progress = Progress(len(plan), stream, sweep.repeat)
    accel = sweep.accel
    statuses = []
    refused = None
    index = 0
    for group in together.groups(plan, sweep.schedule):
        if state.stopping or refused:
            break
        jobs = []
        for planned in group:
            index += 1
            topo, variant, repeat = (planned.topology, planned.variant,
                                     planned.repeat)
            # A sweep that may add repeats keeps each in its own directory.
            out_dir = os.path.join(run_dir, order.out_rel(
                topo.name, variant, repeat, max(sweep.repeat, repeat)))
            os.makedirs(out_dir)
            staged_id = f"{topo.name}.{variant}.{repeat}"
            jobs.append(together.Job(
                index, planned, out_dir, staged_id,
                launch.run_argv(topo, variant, staging, staged_id, accel,
                                qemu=sweep.qemu)))
        together.pin(jobs, sweep.schedule)
        started = hostinfo.now_iso()
        # With runs together, the host's load is the group's: what ran
        # beside the pair, not its other half.
        load0 = hostload.sample()
        together.run(jobs, state, tick=lambda i, p, s: progress.running(
            i, p.topology.name, p.variant, s))
        load = hostload.summarise(load0, hostload.sample())
        for job in jobs:
            topo, variant = job.planned.topology, job.planned.variant
            launched = launch.collect(os.path.join(staging, job.staged_id),
                                      variant, job.out_dir)
            entry = _entry(run_dir, topo, variant,
                           _display_argv(job.command), job.status,
                           job.killed, state.stopping, job.out_dir, started,
                           job.wall_s, launched, job.planned.repeat, load)
            if len(jobs) > 1:
                entry["together_with"] = [j.planned.variant for j in jobs
                                          if j is not job]
            if job.cpu is not None:
                entry["cpu"] = job.cpu
            if accel == "auto" and entry["accelerator"]:
                accel = entry["accelerator"]
            manifest.add_run(entry)
            progress.finished(job.index, entry)
            statuses.append(job.status)
            if job.status == LAUNCHER_USAGE:
                refused = entry["message"]
    return len(plan), statuses, refused


def _run_hosts(sweep, run_dir, staging, manifest, stream, state, facts):
    """Units handed out to the hosts from one queue (fanout.py)."""
    units = workqueue.units(sweep.topologies, sweep.variants, sweep.repeat,
                            sweep.series)
    usable = [h for h in sweep.hosts if facts[h.uri].get("ok")]
    queue = workqueue.WorkQueue(units, [h.uri for h in usable])
    for h in sweep.hosts:
        if h not in usable:
            queue.dead[h.uri] = facts[h.uri].get("problem")
            print(f"blkscale bench: host {h.uri} left out: "
                  f"{facts[h.uri].get('problem')}", file=sys.stderr)
    planned = sum(len(u.runs) for u in units)
    progress = Progress(planned, stream, sweep.repeat)
    runner = fanout.HostRunner(sweep, run_dir, staging, manifest, progress,
                               state, _entry, _display_argv)
    runner.queue = queue

    def record_moves():
        with runner.lock:
            manifest.set_moves(queue.moves)

    def run_unit(unit, uri):
        result = runner(unit, uri)
        record_moves()
        return result

    workqueue.run(queue, usable, run_unit)
    record_moves()
    failed = [u for u in queue.not_run() if u.state == "failed"]
    unfinished = None
    if failed:
        unfinished = "; ".join(f"{u.key}: {u.reason}" for u in failed)
    # A run a host failure superseded does not count; its unit ran again.
    statuses = [r["exit_status"] for r in manifest.record.runs
                if not r.get("superseded")]
    return planned, statuses, runner.refused, unfinished
