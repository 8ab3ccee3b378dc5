"""pass, fail or inconclusive: a figure with its spread against a limit,
for the boot curve's goals (the nightly's times and per-call costs are
judged by onesided.py).

A figure passes when all of its bounds (stats.Summary.bounds: the 95%
interval of the median, else the range of the repeats) are on the good
side of the limit, fails when all are on the bad side, and is
inconclusive when they straddle it: more repeats are needed to tell.
"""

import builtins

PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
# Figures meet a limit with a little slack for float rounding only.
EPSILON = 1e-9


def _slack(limit):
    return EPSILON * builtins.max(abs(limit), 1.0)


def judge(summary, max=None, min=None):
    """Verdict of a stats.Summary against max (at most) or min (at
    least); FAIL when the figure is missing."""
    bounds = summary.bounds if summary is not None else None
    if bounds is None:
        return FAIL
    low, high = bounds
    if max is not None:
        slack = _slack(max)
        if high <= max + slack:
            return PASS
        return FAIL if low > max + slack else INCONCLUSIVE
    slack = _slack(min)
    if low >= min - slack:
        return PASS
    return FAIL if high < min - slack else INCONCLUSIVE


def judge_band(low, high, max=None, min=None, need_spread=True):
    """Verdict of a figure whose repeats may have been moved by the host's
    load (loadband.py): low and high are the repeats moved down and up
    by what the load could explain (both the same figure when nothing
    was loaded).  FAIL only when even the favourable side is beyond the
    limit, PASS only when even the unfavourable side is within it.
    need_spread: one repeat has no spread and decides nothing (a timing);
    counts pass False."""
    if low is None or high is None or not low.n:
        return FAIL
    if need_spread and low.n < 2:
        return INCONCLUSIVE
    if max is not None:
        if judge(low, max=max) == FAIL:
            return FAIL
        return PASS if judge(high, max=max) == PASS else INCONCLUSIVE
    if judge(high, min=min) == FAIL:
        return FAIL
    return PASS if judge(low, min=min) == PASS else INCONCLUSIVE


def detectable(summary, factor=1.0):
    """The smallest ratio to its median these repeats could tell from
    noise: 1 + half the interval's width over the median, widened by
    what the host's load could explain; None without a spread."""
    if summary is None or summary.n < 2 or not summary.median:
        return None
    return (1.0 + summary.half_width / abs(summary.median)) * factor
