"""More repeats where the repeats made cannot decide a time.

A gating time whose interval holds its limit (verdict.py) is undecided:
three repeats on a noisy host often cannot tell a 1.3x slowdown from
noise.  The nightly then runs one more repeat of that topology on every
variant, interleaved as before, judges again, and stops when every time
is decided or the topology has `max_repeat` repeats.  Whatever is still
undecided then is INCONCLUSIVE, its own exit status, never a pass.
"""

from . import runcheck


def undecided_topologies(checks, manifest, max_repeat):
    """Names of the topologies with an undecided gating time and fewer
    than max_repeat repeats, in the sweep's order."""
    names = {c.topology for c in checks if c.undecided}
    order = list((manifest.get("sweep") or {}).get("topologies") or {})
    return [t for t in order if t in names and
            runcheck.planned_repeats(manifest, t) < max_repeat]


def settle(evaluate, extend, manifest_of, max_repeat, say=print):
    """Judge, add a repeat to the undecided topologies, judge again, until
    nothing more can be decided.  evaluate() -> (verdict, failed,
    checks); extend(topology names, repeat) -> exit status of the added
    runs; manifest_of() -> the sweep's manifest.  Returns (evaluate()'s
    last result, {topology: repeats added}, worst exit status of the
    added runs)."""
    added, status = {}, 0
    while True:
        result = evaluate()
        manifest = manifest_of()
        todo = undecided_topologies(result[2], manifest, max_repeat)
        if not todo:
            return result, added, status
        by_repeat = {}
        for t in todo:
            by_repeat.setdefault(runcheck.planned_repeats(manifest, t) + 1,
                                 []).append(t)
        for repeat, topos in sorted(by_repeat.items()):
            say(f"nightly: undecided times on {', '.join(topos)}: "
                f"repeat {repeat} of at most {max_repeat}")
            status = max(status, extend(topos, repeat))
            if status not in (0, 1):
                return evaluate(), added, status
            for t in topos:
                added[t] = added.get(t, 0) + 1
