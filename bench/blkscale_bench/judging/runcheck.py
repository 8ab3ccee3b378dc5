"""Every repeat counts: one check per planned run of the sweep.

A run that did not end `ok` (panic, hang, timeout, QEMU death, a broken
results stream, a failed step), that left no readable results.json, or
that was never made, fails the nightly for its topology and variant,
whatever the other repeats did: a median over the repeats that worked
would hide it.  A failure of the reference variant alone is reported as
such (the host or the test is broken, not the series) and fails too: a
nightly that cannot judge is not green.
"""

import os

from . import compare

# Lines of the guest's console kept in the JUnit case of a failed run.
CONSOLE_TAIL_LINES = 20


def planned_repeats(manifest, topology):
    """How many repeats of a topology the sweep planned: the sweep's
    `repeat`, or more when the nightly added repeats to decide."""
    sweep = manifest.get("sweep") or {}
    made = [r.get("repeat", 1) for r in manifest.get("runs") or []
            if r.get("topology") == topology and not r.get("superseded")]
    return max([sweep.get("repeat", 1)] + made)


def console_tail(run_dir, entry, lines=CONSOLE_TAIL_LINES):
    """The last lines of a run's console.log, or ""."""
    rel = entry.get("console") if entry else None
    if not rel:
        return ""
    try:
        with open(os.path.join(run_dir, rel), errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return ""
    return "\n".join(text[-lines:])


def _failure(entry, broken):
    """Why a run does not count as ok, or None when it does."""
    if entry is None:
        return "not run", ""
    if broken is not None:
        return "results-unreadable", str(broken)
    outcome = entry.get("outcome") or "unknown"
    if outcome != "ok":
        return outcome, entry.get("message") or ""
    if not entry.get("results"):
        return "no-results", "the run left no results.json"
    return None


def checks(manifest, run_dir, broken=None):
    """[compare.Check]: one per (topology, variant, repeat), named
    `run repeat K`; broken: repeats.load_all's unreadable results."""
    sweep = manifest.get("sweep") or {}
    ref = sweep.get("reference", "stock")
    variants = sweep.get("variants") or []
    runs = {}
    for entry in manifest.get("runs") or []:
        if not entry.get("superseded"):
            runs[(entry["topology"], entry["variant"],
                  entry.get("repeat", 1))] = entry
    out = []
    for topo in sweep.get("topologies") or {}:
        failed = {}
        for variant in variants:
            for rep in range(1, planned_repeats(manifest, topo) + 1):
                key = (topo, variant, rep)
                why = _failure(runs.get(key), (broken or {}).get(key))
                if why is not None:
                    failed[key] = why
        only_ref = failed and all(v == ref for _, v, _ in failed) and \
            len(variants) > 1
        for variant in variants:
            for rep in range(1, planned_repeats(manifest, topo) + 1):
                key = (topo, variant, rep)
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
