"""The spread of a figure over the repeats of a sweep.

Every figure is the median of its repeats, with min and max, and for
five repeats or more a confidence interval of the median from order
statistics: the interval [x(k), x(n+1-k)] between two sorted values
covers the true median with probability 1 - 2 P(Binomial(n, 1/2) < k),
whatever the distribution of the figure.  k is the largest that still
reaches 95%; with n = 5 no pair does and the interval is [min, max] at
the 93.75% it actually has (the document says which).

A ratio between two variants is taken per repeat (repeat k of one over
repeat k of the other: both ran minutes apart on the same host state)
and summarised the same way.

What a verdict compares with its limit (verdict.py) is `bounds`: the
interval when there is one, else min..max, so that a figure whose
repeats disagree about the limit is never judged by its median alone.
"""

import statistics
from dataclasses import dataclass, field

from scipy import stats as sps

LEVEL = 0.95
MIN_FOR_INTERVAL = 5


def _number(value):
    return None if isinstance(value, bool) or \
        not isinstance(value, (int, float)) else float(value)


def median_interval(values, level=LEVEL):
    """(low, high, coverage) of the median of sorted `values`, from order
    statistics; None for fewer than MIN_FOR_INTERVAL values."""
    n = len(values)
    if n < MIN_FOR_INTERVAL:
        return None
    xs = sorted(values)
    best = (xs[0], xs[-1], 1 - 2 * sps.binom.cdf(0, n, 0.5))
    for k in range(2, n // 2 + 1):
        # P(fewer than k values below the median) = binom.cdf(k - 1).
        coverage = 1 - 2 * sps.binom.cdf(k - 1, n, 0.5)
        if coverage < level:
            break
        best = (xs[k - 1], xs[n - k], coverage)
    return best[0], best[1], float(best[2])


def range_coverage(n):
    """Coverage of [min, max] of n values as an interval of the median:
    1 - 2 P(Binomial(n, 1/2) = 0); None for fewer than two."""
    if n < 2:
        return None
    return float(1 - 2 * sps.binom.pmf(0, n, 0.5))


@dataclass
class Summary:
    """A figure over its repeats: values by repeat (None: missing)."""
    values: dict = field(default_factory=dict)     # repeat -> float

    @classmethod
    def of(cls, values):
        """From {repeat: value} or a list (repeats 1..n)."""
        if not isinstance(values, dict):
            values = {i: v for i, v in enumerate(values, 1)}
        return cls({k: _number(v) for k, v in values.items()
                    if _number(v) is not None})

    @property
    def n(self):
        return len(self.values)

    @property
    def sorted(self):
        return sorted(self.values.values())

    @property
    def median(self):
        return statistics.median(self.sorted) if self.values else None

    @property
    def min(self):
        return min(self.values.values()) if self.values else None

    @property
    def max(self):
        return max(self.values.values()) if self.values else None

    @property
    def interval(self):
        """(low, high, coverage) of the median, or None (n < 5)."""
        return median_interval(self.sorted)

    @property
    def bounds(self):
        """What a verdict holds against its limit: the interval, or the
        range of the repeats when there are too few for one."""
        if not self.values:
            return None
        ci = self.interval
        return (ci[0], ci[1]) if ci else (self.min, self.max)

    @property
    def coverage(self):
        """How often `bounds` holds the true median: the interval's level,
        else that of min..max (1 - 2 / 2^n: 75% for three repeats, none
        for one)."""
        ci = self.interval
        if ci:
            return ci[2]
        return range_coverage(self.n)

    @property
    def half_width(self):
        """Half the width of `bounds`: for a ratio, the smallest change
        from its median that these repeats could tell from noise."""
        if self.n < 2:
            return None
        low, high = self.bounds
        return (high - low) / 2.0

    def coverage_text(self):
        """"75%" for three repeats; "one repeat" when there is no
        interval at all."""
        if self.n < 2:
            return "one repeat"
        return f"{round(100 * self.coverage):d}%"

    def to_json(self, digits=6):
        if not self.values:
            return None
        r = (lambda x: round(x, digits))
        ci = self.interval
        return {"median": r(self.median), "min": r(self.min),
                "max": r(self.max), "n": self.n,
                "interval": None if ci is None else
                {"low": r(ci[0]), "high": r(ci[1]),
                 "level": round(ci[2], 4)},
                "values": {str(k): r(v) for k, v in
                           sorted(self.values.items())}}

    def spread_text(self, fmt, coverage=True):
        """[min-max 75%] for three repeats, [low-high 95%] (the interval
        of the median) from five: the bounds with their coverage; "" for
        one repeat or repeats that agree.  `fmt` formats one number;
        coverage=False leaves the coverage to a table's caption."""
        if self.n < 2 or self.min == self.max:
            return ""
        low, high = self.bounds
        level = f" {self.coverage_text()}" if coverage else ""
        return f"[{fmt(low)}-{fmt(high)}{level}]"

    def text(self, fmt, coverage=True):
        """The median, then its spread_text."""
        if not self.values:
            return "-"
        spread = self.spread_text(fmt, coverage)
        return fmt(self.median) + (f" {spread}" if spread else "")


def cannot_tell(summary):
    """Whether a ratio's bounds hold 1: its repeats cannot say which
    variant is the larger."""
    if summary is None or summary.n < 2:
        return False
    low, high = summary.bounds
    return low != high and low <= 1.0 <= high


def ratio_text(summary, fmt=lambda x: f"{x:.2f}", coverage=True):
    """A ratio of two variants as people should read it: "1.12x
    [1.05-1.20, 75%]", or "cannot tell (0.93-1.20x, 75%)" when its
    bounds hold 1 (the repeats cannot say which variant is faster);
    "1.12x (one repeat)" without a spread; "-" without a value.
    coverage=False leaves the coverage to a table's caption."""
    if summary is None or not summary.n:
        return "-"
    if summary.n < 2:
        return f"{fmt(summary.median)}x (one repeat)"
    low, high = summary.bounds
    level = f", {summary.coverage_text()}" if coverage else ""
    if low == high:
        return f"{fmt(summary.median)}x"
    if cannot_tell(summary):
        return f"cannot tell ({fmt(low)}-{fmt(high)}x{level})"
    return f"{fmt(summary.median)}x [{fmt(low)}-{fmt(high)}{level}]"


def summarise(values):
    return Summary.of(values)


def paired_ratio(numerator, denominator):
    """Summary of numerator[k] / denominator[k] over the repeats both
    have (Summaries or {repeat: value})."""
    num = numerator.values if isinstance(numerator, Summary) else numerator
    den = denominator.values if isinstance(denominator, Summary) \
        else denominator
    out = {}
    for k, a in (num or {}).items():
        b = (den or {}).get(k)
        if a is not None and b:
            out[k] = a / b
    return Summary.of(out)


def per_repeat(summaries, func):
    """Summary of func({name: value}) per repeat that every Summary of
    {name: Summary} has: a figure computed from several measured ones."""
    common = None
    for s in summaries.values():
        keys = set(s.values)
        common = keys if common is None else common & keys
    out = {}
    for k in sorted(common or ()):
        try:
            value = func({name: s.values[k] for name, s in summaries.items()})
        except (ZeroDivisionError, ValueError):
            value = None
        if value is not None:
            out[k] = value
    return Summary.of(out)
