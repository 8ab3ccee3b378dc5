"""Every repeat counts: one check per planned run of the sweep.

A run that did not end `ok` (panic, hang, timeout, QEMU death, a broken
results stream, a failed step), that left no readable results.json, or
that was never made, fails the nightly for its topology and variant,
whatever the other repeats did: a median over the repeats that worked
would hide it.  A failure of the reference variant alone is reported as
such (the host or the test is broken, not the series) and fails too: a
nightly that cannot judge is not green.

The planned runs are the sweep's repeats and every round of repeats the
nightly added to decide its times (recorded in the manifest's `rounds`
before any of their runs started); of a round a signal stopped, the runs
it made count, failures included, and only the runs the signal stopped
are left out.  A run counts as ok only when its results.json agrees: it
is the run the manifest names (topology, variant, kernel release, run
id), its own `outcome` is ok, and the census's own consistency fields
(`ok`, `read_failed`, `consistency_errors`, `devt_unique`) hold.
"""

import json
import os

from blkscale.figures import compare
from blkscale.guestlink.console import ConsoleWatcher
from blkscale.results.runresults import FILENAME as RESULTS
from blkscale.results.runresults import Results

# Lines of the guest's console kept in the JUnit case of a failed run.
CONSOLE_TAIL_LINES = 20


def _made(manifest):
    return [r for r in manifest.get("runs") or []
            if not r.get("superseded")]


def planned_repeats(manifest, topology):
    """How many repeats of a topology the sweep planned: the sweep's
    `repeat`, or more when the nightly added repeats to decide (rounds
    recorded, or runs made)."""
    sweep = manifest.get("sweep") or {}
    made = [r.get("repeat", 1) for r in _made(manifest)
            if r.get("topology") == topology]
    rounds = [r["repeat"] for r in manifest.get("rounds") or []
              if topology in (r.get("topologies") or [])
              and r.get("status") != "stopped"]
    return max([sweep.get("repeat", 1)] + made + rounds)


def _stopped(manifest):
    """{(topology, repeat)} of the added rounds a signal stopped: of
    them only the runs that were made are expected."""
    return {(t, r["repeat"]) for r in manifest.get("rounds") or []
            if r.get("status") == "stopped"
            for t in r.get("topologies") or []}


def expected_runs(manifest):
    """{(topology, variant, repeat)} of every run the sweep planned, and
    every run it made that was not superseded."""
    sweep = manifest.get("sweep") or {}
    stopped = _stopped(manifest)
    out = {(r["topology"], r["variant"], r.get("repeat", 1))
           for r in _made(manifest)}
    for topo in sweep.get("topologies") or {}:
        for rep in range(1, planned_repeats(manifest, topo) + 1):
            if (topo, rep) not in stopped:
                out |= {(topo, v, rep) for v in sweep.get("variants") or []}
    return out


def console_tail(run_dir, entry, lines=CONSOLE_TAIL_LINES):
    """The last lines of a run's console.log, or "": after a panic, the
    lines that led to it and a few after, as the launcher shows them (the
    other CPUs' stacks the kernel prints after the panic line would fill
    a plain tail)."""
    rel = entry.get("console") if entry else None
    if not rel:
        return ""
    watcher = ConsoleWatcher(tail_lines=lines)
    try:
        with open(os.path.join(run_dir, rel), "rb") as f:
            watcher.feed(f.read())
    except OSError:
        return ""
    return watcher.tail()


def _run_id(entry):
    """The --run-id the launcher was given for a run, or None."""
    argv = entry.get("command") or []
    for i, arg in enumerate(argv[:-1]):
        if arg == "--run-id":
            return argv[i + 1]
    return None


def mismatch(entry, doc, kernels):
    """Why a run's results.json is not the run its manifest entry names,
    or None: topology, variant, kernel release (the entry's and the
    sweep's build), run id."""
    results = Results.of(doc)
    said = {
        "topology.name": (results.topology_name, entry.get("topology")),
        "kernel.variant": (results.kernel_variant, entry.get("variant")),
        "kernel.release": (results.kernel_release,
                           entry.get("kernel_release")),
        "kernel.release (the sweep's kernels)": (
            results.kernel_release, kernels.get(entry.get("variant"))),
        "run.id": (results.run_id, _run_id(entry)),
    }
    for name, (got, want) in said.items():
        if want is not None and got != want:
            return f"{RESULTS} {name} is {got!r}, the manifest's run " \
                f"{want!r}"
    return None


def judged_by_itself(doc):
    """Why a results.json says its run is not ok, or None: its own
    `outcome`, and the census's own consistency fields."""
    outcome = Results.of(doc).outcome
    if outcome is None:
        return f"{RESULTS} has no outcome"
    if outcome.get("kind") != "ok" or outcome.get("status") != 0:
        return f"{RESULTS} outcome {outcome.get('kind')!r} (status " \
            f"{outcome.get('status')}): {outcome.get('message') or ''}"
    census = doc.get("census")
    if not isinstance(census, dict):
        return None         # no census ran: the figures' checks say so
    wrong = []
    for key, good in (("ok", True), ("read_failed", 0),
                      ("consistency_errors", 0), ("devt_unique", True)):
        value = census.get(key)
        if value is None:
            wrong.append(f"{key} missing")
        elif type(value) is not type(good) or value != good:
            wrong.append(f"{key} {json.dumps(value)}")
    return f"census: {', '.join(wrong)}" if wrong else None


def _failure(entry, broken, doc=None, kernels=None):
    """Why a run does not count as ok, or None when it does."""
    if entry is None:
        return "not run", "planned, and missing from the manifest"
    if broken is not None:
        return "results-unreadable", str(broken)
    outcome = entry.get("outcome") or "unknown"
    if outcome != "ok":
        return outcome, entry.get("message") or ""
    if not entry.get("results") or doc is None:
        return "no-results", f"the run left no {RESULTS}"
    wrong = mismatch(entry, doc, kernels or {})
    if wrong:
        return "results-mismatch", wrong
    wrong = judged_by_itself(doc)
    if wrong:
        return "results-not-ok", wrong
    return None


def checks(manifest, run_dir, broken=None, docs=None):
    """[compare.Check]: one per planned (topology, variant, repeat),
    named `run repeat K`; broken: repeats.load_all's unreadable results;
    docs: its {(topology, variant): {repeat: results doc}}."""
    sweep = manifest.get("sweep") or {}
    ref = sweep.get("reference", "stock")
    variants = sweep.get("variants") or []
    kernels = manifest.get("kernels") or {}
    runs = {(e["topology"], e["variant"], e.get("repeat", 1)): e
            for e in _made(manifest)}
    expected = expected_runs(manifest)
    out = []
    for topo in sweep.get("topologies") or {}:
        keys = sorted(k for k in expected if k[0] == topo)
        failed = {}
        for key in keys:
            doc = ((docs or {}).get(key[:2]) or {}).get(key[2])
            why = _failure(runs.get(key), (broken or {}).get(key), doc,
                           kernels)
            if why is not None:
                failed[key] = why
        only_ref = failed and all(v == ref for _, v, _ in failed) and \
            len(variants) > 1
        for variant in variants:
            for key in (k for k in keys if k[1] == variant):
                rep = key[2]
                name = f"run repeat {rep}"
                if key not in failed:
                    out.append(compare.Check(topo, variant, name,
                                             compare.PASS, message="ok"))
                    continue
                outcome, message = failed[key]
                text = f"repeat {rep}: {outcome}" + \
                    (f": {message}" if message else "")
                if only_ref:
                    text = (f"{text} (only the reference {ref} failed: "
                            "the host or the test is broken, not the "
                            "series; nothing could be judged)")
                out.append(compare.Check(
                    topo, variant, name, compare.RUN_FAILED, message=text,
                    detail=console_tail(run_dir, runs.get(key))))
    return out
