"""Medians with their spread, the interval of the median from order
statistics, paired ratios, and verdicts that say inconclusive when the
spread straddles the limit."""

import pytest
from scipy import stats as sps

from blkscale.figures import verdict
from blkscale.figures.stats import Summary, median_interval, paired_ratio, \
    ratio_text


def test_summary_median_min_max_without_interval_below_five():
    s = Summary.of([4.0, 4.8, 3.6])
    assert (s.median, s.min, s.max, s.n) == (4.0, 3.6, 4.8, 3)
    assert s.interval is None and s.bounds == (3.6, 4.8)
    # min-max of three holds the median 75% of the time: said beside it.
    assert s.text(lambda x: f"{x:.2f}") == "4.00 [3.60-4.80 75%]"
    assert s.coverage == pytest.approx(0.75)
    assert s.half_width == pytest.approx(0.6)
    assert Summary.of([None, 2.0]).n == 1          # a missing repeat
    assert Summary.of([]).median is None and Summary.of([]).bounds is None


def test_interval_of_the_median_from_order_statistics():
    # n = 5: no pair reaches 95%; [min, max] at 1 - 2/32.
    low, high, level = median_interval([5, 1, 4, 2, 3])
    assert (low, high) == (1, 5) and level == pytest.approx(0.9375)
    # n = 20: the binomial interval is [x(6), x(15)] (coverage 95.9%).
    values = list(range(1, 21))
    low, high, level = median_interval(values)
    assert (low, high) == (6, 15)
    assert level == pytest.approx(1 - 2 * sps.binom.cdf(5, 20, 0.5))
    assert level >= 0.95 > 1 - 2 * sps.binom.cdf(6, 20, 0.5)
    assert Summary.of(values).text(str) == "10.5 [6.0-15.0 96%]"


def test_paired_ratio_by_repeat():
    patched = Summary.of({1: 2.0, 2: 3.0, 3: 9.0})
    stock = Summary.of({1: 4.0, 2: 6.0, 4: 1.0})
    r = paired_ratio(patched, stock)
    assert r.values == {1: 0.5, 2: 0.5}            # repeats both have


@pytest.mark.parametrize("values, limit, want", [
    ([1.0, 1.1, 1.2], 1.5, verdict.PASS),
    ([1.0, 1.5, 1.2], 1.5, verdict.PASS),          # at the limit
    ([1.6, 1.7, 2.0], 1.5, verdict.FAIL),
    ([1.2, 1.4, 1.9], 1.5, verdict.INCONCLUSIVE),  # range straddles
    ([1.6], 1.5, verdict.FAIL),                    # one run: as before
    ([1.4], 1.5, verdict.PASS),
])
def test_verdict_against_max(values, limit, want):
    assert verdict.judge(Summary.of(values), max=limit) == want


def test_verdict_against_min_and_missing():
    assert verdict.judge(Summary.of([235, 235]), min=235) == verdict.PASS
    assert verdict.judge(Summary.of([200, 240]), min=235) == \
        verdict.INCONCLUSIVE
    assert verdict.judge(Summary.of([200, 210]), min=235) == verdict.FAIL
    assert verdict.judge(Summary.of([]), max=1) == verdict.FAIL
    assert verdict.judge(None, max=1) == verdict.FAIL


def test_verdict_uses_the_interval_from_five_repeats():
    """From 5 repeats the interval of the median, not the range, is
    held against the limit: two outliers among 12 repeats leave it a
    pass, while the range of 2 repeats straddles."""
    values = [1.0] * 10 + [3.0, 3.0]
    s = Summary.of(values)
    assert s.interval[:2] == (1.0, 1.0)
    assert verdict.judge(s, max=1.5) == verdict.PASS
    assert verdict.judge(Summary.of([1.0, 3.0]), max=1.5) == \
        verdict.INCONCLUSIVE


@pytest.mark.parametrize("values, text", [
    ([1.1, 1.2, 1.3], "1.20x [1.10-1.30, 75%]"),
    ([0.93, 1.05, 1.2], "cannot tell (0.93-1.20x, 75%)"),
    ([0.8, 0.85, 0.9, 0.82, 0.88], "0.85x [0.80-0.90, 94%]"),
    ([1.1], "1.10x (one repeat)"),
    ([], "-"),
])
def test_ratio_text_says_cannot_tell_when_the_interval_holds_one(values,
                                                                 text):
    assert ratio_text(Summary.of(values)) == text


@pytest.mark.parametrize("low, high, want", [
    ([1.4, 1.5, 1.6], [1.4, 1.5, 1.6], verdict.FAIL),
    # The same figures on a loaded host: the favourable side is within.
    ([1.1, 1.2, 1.3], [1.4, 1.5, 1.6], verdict.INCONCLUSIVE),
    ([1.0, 1.1, 1.2], [1.0, 1.1, 1.2], verdict.PASS),
    # A pass that load could have produced is not a pass.
    ([1.0, 1.1, 1.2], [1.2, 1.4, 1.5], verdict.INCONCLUSIVE),
    ([1.0], [1.0], verdict.INCONCLUSIVE),          # one repeat: no spread
])
def test_judge_band(low, high, want):
    assert verdict.judge_band(Summary.of(low), Summary.of(high),
                              max=1.3) == want
