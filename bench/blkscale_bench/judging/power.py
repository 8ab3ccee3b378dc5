"""More repeats where the repeats made cannot decide a time.

A gating time whose one-sided bounds hold its limit (onesided.py) is
undecided.  From its measured mean and spread the decision says how many
repeats would decide it (`needed`): the nightly adds, at once, the rounds
that take the topology to the most any of its times needs (each round is
one more repeat on every variant, interleaved as before, recorded in the
manifest before it runs), then judges again.  A time that would need
more than `max_repeat` repeats, or that no number decides (its mean at
the limit, or the host's load explaining the distance), gets none: the
nightly says so before running anything, and it stays INCONCLUSIVE, its
own exit status, never a pass.
"""

from . import runcheck


def targets(checks, manifest, max_repeat):
    """({topology: repeats to reach}, [checks no repeats within
    max_repeat decide]) of the undecided gating times, topologies in
    the sweep's order."""
    order = list((manifest.get("sweep") or {}).get("topologies") or {})
    want, hopeless = {}, []
    for c in checks:
        if not c.undecided or c.topology not in order:
            continue
        if c.needed is None or c.needed > max_repeat:
            hopeless.append(c)
            continue
        if c.needed > runcheck.planned_repeats(manifest, c.topology):
            want[c.topology] = max(want.get(c.topology, 0), c.needed)
    return {t: want[t] for t in order if t in want}, hopeless


def _hopeless_line(c, max_repeat):
    if c.needed is None:
        return (f"nightly: {c.topology} {c.variant} {c.metric}: no number "
                "of repeats decides it at the measured mean and spread: "
                "left undecided")
    return (f"nightly: {c.topology} {c.variant} {c.metric}: needs "
            f"{c.needed} repeats at the measured spread, more than "
            f"max_repeat {max_repeat}: left undecided")


def settle(evaluate, extend, manifest_of, max_repeat, say=print):
    """Judge, add the rounds the undecided topologies need, judge again,
    until nothing more can be decided.  evaluate() -> (verdict, failed,
    checks); extend([(repeat, [topology names])]) -> exit status of the
    added runs; manifest_of() -> the sweep's manifest.  Returns
    (evaluate()'s last result, {topology: repeats added}, worst exit
    status of the added runs)."""
    status, told = 0, set()
    start = manifest_of()
    topologies = list((start.get("sweep") or {}).get("topologies") or {})
    first = {t: runcheck.planned_repeats(start, t) for t in topologies}

    def added():
        now = manifest_of()
        out = {t: runcheck.planned_repeats(now, t) - first[t]
               for t in topologies}
        return {t: n for t, n in out.items() if n > 0}

    while True:
        result = evaluate()
        manifest = manifest_of()
        want, hopeless = targets(result[2], manifest, max_repeat)
        for c in hopeless:
            key = (c.topology, c.variant, c.metric)
            if key not in told:
                told.add(key)
                say(_hopeless_line(c, max_repeat))
        if not want:
            return result, added(), status
        by_repeat = {}
        for topo, target in want.items():
            since = runcheck.planned_repeats(manifest, topo) + 1
            said = f"repeat {target}" if since == target else \
                f"repeats {since} to {target}"
            say(f"nightly: undecided times on {topo}: {said} of at most "
                f"{max_repeat}, planned at once")
            for repeat in range(since, target + 1):
                by_repeat.setdefault(repeat, []).append(topo)
        status = max(status, extend(sorted(by_repeat.items())))
        if status not in (0, 1):
            return evaluate(), added(), status
