"""Prediction intervals of the capacity models: the textbook interval of
a straight line, wider the further from the measured disk counts, and
none without a degree of freedom."""

import math

import pytest
from scipy import stats

from blkscale_reports import fit, predict

NS = [100, 250, 500, 1000]


def test_linear_matches_the_textbook_interval():
    ys = [5.0, 8.4, 12.1, 21.9]
    f = fit.fit_one("linear", list(zip(NS, ys)))
    low, high = predict.interval(f, 10000)
    # s * sqrt(1 + 1/n + (x0 - mean)^2 / Sxx), t with n - 2 dof.
    mean = sum(NS) / len(NS)
    sxx = sum((x - mean) ** 2 for x in NS)
    s = math.sqrt(f.ssr / 2)
    half = stats.t.ppf(0.975, 2) * s * math.sqrt(
        1 + 1 / len(NS) + (10000 - mean) ** 2 / sxx)
    assert low == pytest.approx(f.predict(10000) - half, rel=1e-9)
    assert high == pytest.approx(f.predict(10000) + half, rel=1e-9)


def test_band_widens_away_from_the_data():
    pts = [(n, 2 + 0.003 * n + 2e-5 * n * n + (0.05 if i % 2 else -0.05))
           for i, n in enumerate([100, 250, 500, 1000, 2000])]
    f = fit.fit_one("quadratic", pts)
    widths = [hi - lo for _, lo, hi in predict.band(f, [500, 2000, 10000])]
    assert widths[0] < widths[1] < widths[2]
    low, high = predict.interval(f, 10000)
    assert low < f.predict(10000) < high


def test_power_law_interval_is_positive():
    pts = [(n, 0.01 * n ** 1.5 * (1.02 if i % 2 else 0.98))
           for i, n in enumerate(NS)]
    f = fit.fit_one("power", pts)
    low, high = predict.interval(f, 10000)
    assert 0 < low < f.predict(10000) < high


def test_no_interval_without_degrees_of_freedom():
    f = fit.fit_one("linear", [(100, 1.0), (200, 2.0), (300, 3.5)])
    assert f.dof == 1 and predict.interval(f, 1000) is not None
    f.dof = 0
    assert predict.interval(f, 1000) is None and predict.band(f, [1]) == []
