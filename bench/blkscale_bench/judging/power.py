"""More repeats where the repeats made cannot decide a time.

A gating time whose one-sided bounds hold its limit (onesided.py) is
undecided.  From its measured mean and spread the decision says how many
repeats would decide it (`needed`): the nightly adds, at once, the rounds
that take the topology to the most any of its times needs (each round is
one more repeat on every variant, interleaved as before, recorded in the
manifest before it runs), then judges again.  A time that would need
more than `max_repeat` repeats, or that no number decides (its mean at
the limit, or the host's load explaining the distance), is planned to
the repeats that would pass it were it at par (`at_par`, onesided.py):
a mean made of a few repeats, one of them slow, says little about where
more repeats will take it.  When those are out of reach too, or already
run, it gets none: the nightly says so, and it stays INCONCLUSIVE, its
own exit status, never a pass.
"""

from blkscale.figures import onesided

from . import runcheck


def targets(checks, manifest, max_repeat):
    """({topology: repeats to reach}, [checks no repeats within
    max_repeat decide], [(check, repeats) planned at par]) of the
    undecided gating times, topologies in the sweep's order."""
    order = list((manifest.get("sweep") or {}).get("topologies") or {})
    want, hopeless, by_par = {}, [], []
    for c in checks:
        if not c.undecided or c.topology not in order:
            continue
        planned = runcheck.planned_repeats(manifest, c.topology)
        target, from_par = _target(c, max_repeat)
        if target is None or (from_par and target <= planned):
            hopeless.append(c)
        elif target > planned:
            want[c.topology] = max(want.get(c.topology, 0), target)
            if from_par:
                by_par.append((c, target))
    return {t: want[t] for t in order if t in want}, hopeless, by_par


def _target(c, max_repeat):
    """(repeats to plan for an undecided check, whether they are its
    at-par repeats): what its mean needs, else what a figure at par
    needs; None when both exceed max_repeat."""
    if c.needed is not None and c.needed <= max_repeat:
        return c.needed, False
    if c.at_par is not None and c.at_par <= max_repeat:
        return c.at_par, True
    return None, False


def _by_mean(c):
    if c.needed is None:
        return "no number of repeats decides it at the measured mean"
    return f"its mean needs {c.needed} repeats"


def _hopeless_line(c, max_repeat):
    head = f"nightly: {c.topology} {c.variant} {c.metric}: {_by_mean(c)}"
    if c.at_par is None:
        return f"{head}; no number would pass it at par: left undecided"
    if c.at_par > max_repeat:
        return (f"{head}, and {c.at_par} would pass it at par, more than "
                f"max_repeat {max_repeat}: left undecided")
    return (f"{head}; the {c.at_par} that would pass it at par have run: "
            "left undecided")


def _planned_line(c, target):
    """Why a check whose mean is out of reach is planned to its at-par
    repeats."""
    return (f"nightly: {c.topology} {c.variant} {c.metric}: "
            f"{_by_mean(c)}; {target} would pass it "
            f"{round(100 * onesided.POWER)}% of the time at par: planned")


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
        want, hopeless, by_par = targets(result[2], manifest, max_repeat)
        for c in hopeless:
            key = (c.topology, c.variant, c.metric)
            if key not in told:
                told.add(key)
                say(_hopeless_line(c, max_repeat))
        for c, target in by_par:
            say(_planned_line(c, target))
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
