"""How the nightly's gate decides on a host of a given noise.

The gate judges a time after its first repeats and, while undecided,
plans more and judges again (power.settle): looking again is optional
stopping, whose chance of a false REGRESSION the 95% one-sided bound of
each look does not bound by itself.  Here the same rule (onesided.decide,
power.settle) runs on simulated paired ratios, log-normal about a true
ratio with a given spread of their logs, so that the chance of each
verdict, and the repeats it takes, are measured for an equal pair (the
A/A night) and for a cost of known size (the canary).
"""

import math

import numpy

from blkscale.figures import onesided
from blkscale.figures.compare import Check

from . import power

TOPOLOGY = "simulated"
VERDICTS = ("PASS", "REGRESSION", "INCONCLUSIVE")
_VERDICT = {onesided.PASS: "PASS", onesided.FAIL: "REGRESSION",
            onesided.INCONCLUSIVE: "INCONCLUSIVE"}


def night(rng, true_ratio, sd, limit, start=5, max_repeat=16):
    """(verdict, repeats) of one night: paired ratios drawn as they are
    planned, judged against limit (at most) with par 1.0."""
    values = {}

    def draw(upto):
        for r in range(len(values) + 1, upto + 1):
            values[r] = math.exp(rng.normal(math.log(true_ratio), sd))

    draw(start)
    manifest = {"sweep": {"topologies": {TOPOLOGY: ""}, "repeat": start},
                "rounds": []}

    def evaluate():
        d = onesided.decide(values, limit, par=1.0)
        check = Check(TOPOLOGY, "judged", "ratio", d.said, repeats=d.n,
                      undecided=d.by_spread, needed=d.needed,
                      at_par=d.at_par)
        return _VERDICT[d.said], [], [check]

    def extend(rounds):
        for repeat, topologies in rounds:
            manifest["rounds"].append({"repeat": repeat,
                                       "topologies": topologies})
        draw(max(repeat for repeat, _ in rounds))
        return 0

    (verdict, _, _), _, _ = power.settle(evaluate, extend, lambda: manifest,
                                         max_repeat, say=lambda line: None)
    return verdict, len(values)


def rates(true_ratio, sd, nights, limit, seed=0, start=5, max_repeat=16):
    """{verdict: share of nights}, and the repeats: {"mean", "max"}."""
    rng = numpy.random.default_rng(seed)
    counts = dict.fromkeys(VERDICTS, 0)
    repeats = []
    for _ in range(nights):
        verdict, n = night(rng, true_ratio, sd, limit, start, max_repeat)
        counts[verdict] += 1
        repeats.append(n)
    return ({v: counts[v] / nights for v in VERDICTS},
            {"mean": float(numpy.mean(repeats)), "max": max(repeats)})
