"""A time against its limit: a one-sided decision on the log of its
repeats, and how many repeats would decide it.

Each repeat gives a positive figure: the ratio of two kernels' runs made
a minute apart (patched over stock, paired by repeat), or a time over
its baseline or ceiling.  Slowdowns multiply, so the figures are judged
as logarithms: their mean, with Student's t bound at LEVEL from scipy
(ttest_1samp), one-sided:

- PASS when the upper bound is within the limit (at most `max`);
- REGRESSION (FAIL) when the lower bound is beyond it;
- INCONCLUSIVE otherwise, and with fewer than two repeats.

What the host's load could explain moves each repeat against the
verdict first (`down`, `up`: {repeat: log factor}, loadband.py).

With n repeats of spread s (the standard deviation of the logs), a
regression needs a true ratio of at least limit x exp(t s / sqrt(n))
x load (`fails_at`), a pass at most limit / (exp(t s / sqrt(n)) x
load) (`passes_at`); `needed` is the smallest number of repeats that
would decide the limit if the mean and spread stay as measured.

A mean measured on few repeats is itself noisy: one slow boot among five
can put it at the limit, where no number of repeats decides.  So an
undecided figure also carries `at_par`: the repeats that would pass it
with probability POWER if the truth were its expected value (`par`, the
baseline: nothing regressed), from the noncentral t distribution at the
measured spread.  The nightly plans those when the mean's own number is
out of reach; if they too have been run, the figure stays undecided.
"""

import math
import statistics
from dataclasses import dataclass

import numpy
from scipy import stats as sps

PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
LEVEL = 0.95
POWER = 0.8


def _logs(values):
    return {k: math.log(v) for k, v in sorted(values.items())
            if v is not None and v > 0}


def _bound(logs, side):
    """The one-sided LEVEL bound of the mean of logs: side "upper" or
    "lower"; the mean itself when the logs do not vary."""
    xs = list(logs)
    mean = statistics.fmean(xs)
    if len(xs) < 2 or max(xs) - min(xs) < 1e-12:
        return mean
    alternative = "less" if side == "upper" else "greater"
    ci = sps.ttest_1samp(xs, mean, alternative=alternative) \
        .confidence_interval(LEVEL)
    return ci.high if side == "upper" else ci.low


def half_width(n, sd):
    """t(LEVEL, n - 1) x sd / sqrt(n): how far one-sided bound of a mean
    of n logs with spread sd lies from it."""
    if n < 2:
        return math.inf
    return float(sps.t.ppf(LEVEL, n - 1)) * sd / math.sqrt(n)


@dataclass(frozen=True)
class Decision:
    said: str           # PASS, FAIL or INCONCLUSIVE
    n: int
    kind: str           # "max" or "min"
    limit: float
    low: float = None   # lower bound of the ratio, load moved down
    high: float = None  # upper bound, load moved up
    fails_at: float = None    # true ratio these repeats would fail
    passes_at: float = None   # true ratio they would still pass
    load: float = 1.0   # the factor load could explain, mean of repeats
    needed: int = None  # repeats that would decide it; None: none would
    # undecided, and more repeats at this spread would decide it
    by_spread: bool = False
    # repeats that would pass it with probability POWER were it at par
    at_par: int = None

    def power(self, fmt=lambda x: f"{x:.4g}"):
        """"5 repeats: fails at >= 1.39; passes only at <= 1.12", in the
        figure's unit (and what would decide it when undecided)."""
        if self.n < 2:
            return f"{self.n} repeat{'s' if self.n != 1 else ''}: no " \
                "spread, cannot decide"
        sign_fail, sign_pass = (">=", "<=") if self.kind == "max" else \
            ("<=", ">=")
        text = (f"{self.n} repeats: fails at {sign_fail} "
                f"{fmt(self.fails_at)}; passes only at {sign_pass} "
                f"{fmt(self.passes_at)}")
        if self.load > 1.0 + 1e-9:
            text += f" (the host's load explains {self.load:.2f}x)"
        if self.said == INCONCLUSIVE:
            if self.needed is None:
                text += "; no number of repeats decides it at this spread"
            elif self.needed > self.n:
                text += f"; {self.needed} repeats would decide it"
            if self.at_par is not None and self.at_par > self.n:
                text += (f"; {self.at_par} would pass it "
                         f"{round(100 * POWER)}% of the time were it at "
                         "par")
        return text


def detectable(values, limit, kind="max", down=None, up=None):
    """(fails_at, passes_at) of repeats {repeat: ratio} against limit:
    the true ratios at which these repeats, with their spread and load,
    give a regression and a pass; (None, None) below two repeats."""
    logs = _logs(values)
    n = len(logs)
    if n < 2:
        return None, None
    w = half_width(n, statistics.stdev(logs.values()))
    # Above the limit a repeat may be load's doing (down), below it the
    # load may hide a slower figure (up).
    above = limit * math.exp(w + _mean(logs, down))
    below = limit * math.exp(-w - _mean(logs, up))
    return (above, below) if kind == "max" else (below, above)


def _mean(logs, shifts):
    """The mean of shifts over the repeats of logs (0 for none)."""
    return statistics.fmean((shifts or {}).get(k, 0.0) for k in logs) \
        if logs else 0.0


def _mean_shift(logs, down, up):
    shifts = [max((down or {}).get(k, 0.0), (up or {}).get(k, 0.0))
              for k in logs]
    return statistics.fmean(shifts) if shifts else 0.0


def needed(values, limit, kind="max", down=None, up=None, most=100):
    """The smallest number of repeats (>= 2, at most `most`) whose bound
    clears the limit, if the logs keep their mean and spread; None when
    none would (the mean at the limit, or load explains the distance)."""
    logs = _logs(values)
    if len(logs) < 2:
        return None
    mean = statistics.fmean(logs.values())
    sd = statistics.stdev(logs.values())
    toward = down if mean > math.log(limit) else up
    distance = abs(mean - math.log(limit)) - _mean(logs, toward)
    if distance <= 0:
        return None
    for n in range(2, most + 1):
        if half_width(n, sd) < distance:
            return n
    return None


def at_par(values, limit, par, kind="max", most=100, against=None):
    """The smallest number of repeats (>= 2, at most `most`) that would
    pass the limit with probability POWER if the true figure were `par`,
    with the spread of the repeats {repeat: figure}; None when none
    would (par at or beyond the limit, or fewer than two repeats).
    against: {repeat: log factor} the load moves a repeat against a
    pass (up for "max", down for "min")."""
    logs = _logs(values)
    if len(logs) < 2 or par is None or par <= 0:
        return None
    distance = math.log(limit / par) if kind == "max" else \
        math.log(par / limit)
    distance -= _mean(logs, against)
    if distance <= 0:
        return None
    sd = statistics.stdev(logs.values())
    if sd < 1e-12:
        return 2
    for n in range(2, most + 1):
        critical = float(sps.t.ppf(LEVEL, n - 1))
        shift = distance * math.sqrt(n) / sd
        # scipy's noncentral t warns of an intermediate overflow at
        # small n; the probability it returns is right (checked
        # against 1 - cdf).
        with numpy.errstate(all="ignore"):
            power = float(sps.nct.sf(critical, n - 1, shift))
        if power >= POWER:
            return n
    return None


def decide(values, limit, kind="max", down=None, up=None, most=100,
           par=None):
    """The Decision of repeats {repeat: positive figure} against limit
    (`kind` "max": at most, "min": at least).  down/up: {repeat: log
    factor} the load could have moved a repeat up (so judged down) or
    down (so judged up).  par: the figure expected if nothing changed
    (the baseline), for `at_par`."""
    logs = _logs(values)
    n = len(logs)
    if n < 2:
        return Decision(INCONCLUSIVE, n, kind, limit, by_spread=True,
                        needed=2)
    down, up = down or {}, up or {}
    low = math.exp(_bound({k: v - down.get(k, 0.0) for k, v in
                           logs.items()}.values(), "lower"))
    high = math.exp(_bound({k: v + up.get(k, 0.0) for k, v in
                            logs.items()}.values(), "upper"))
    if kind == "max":
        said = PASS if high <= limit else FAIL if low > limit else \
            INCONCLUSIVE
    else:
        said = PASS if low >= limit else FAIL if high < limit else \
            INCONCLUSIVE
    fails_at, passes_at = detectable(values, limit, kind, down, up)
    need = needed(values, limit, kind, down, up, most) \
        if said == INCONCLUSIVE else n
    par_n = at_par(values, limit, par, kind, most,
                   up if kind == "max" else down) \
        if said == INCONCLUSIVE else None
    return Decision(said, n, kind, limit, low, high, fails_at, passes_at,
                    math.exp(_mean_shift(logs, down, up)), need,
                    said == INCONCLUSIVE and (need is not None
                                              or par_n is not None),
                    par_n)
