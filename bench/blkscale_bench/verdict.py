"""pass, fail or inconclusive: a figure with its spread against a limit.

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


def straddle_text(summary, limit, fmt=lambda x: f"{x:.4g}"):
    """Why a verdict is inconclusive, for warnings: the bounds around
    the limit and what to do."""
    low, high = summary.bounds
    ci = summary.interval
    what = f"{round(100 * ci[2])}% interval of the median" if ci else \
        f"range of {summary.n} repeats"
    return (f"{what} {fmt(low)}..{fmt(high)} straddles {fmt(limit)}: "
            "inconclusive, run more repeats (--repeat N, at least 5 "
            "for an interval)")
