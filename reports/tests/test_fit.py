"""The model fitting: each candidate recovers the law it is given, the
choice goes to the smallest residual error, and too few disk counts give
no fit with the reason."""

import pytest

from blkscale_reports import fit

NS = [100, 250, 500, 1000, 2000]


def test_quadratic_data_picks_quadratic():
    pts = [(n, 2 + 0.003 * n + 2e-5 * n * n) for n in NS]
    pts[2] = (500, pts[2][1] + 0.01)     # a little noise, dof >= 1
    c = fit.choose(pts)
    assert c.chosen.model == "quadratic"
    assert c.chosen.params["c"] == pytest.approx(2e-5, rel=1e-2)
    assert c.chosen.predict(10000) == pytest.approx(
        2 + 30 + 2000, rel=1e-2)


def test_linear_data_picks_linear():
    pts = [(n, 5 + 0.04 * n + (0.02 if i % 2 else -0.02))
           for i, n in enumerate(NS)]
    c = fit.choose(pts)
    assert c.chosen.model in ("linear", "quadratic")
    lin = [f for f in c.candidates if f.model == "linear"][0]
    assert lin.params["b"] == pytest.approx(0.04, rel=1e-3)
    assert lin.max_abs_residual < 0.05


def test_power_law_data_picks_power():
    pts = [(n, 0.001 * n ** 1.8 * (1.001 if i % 2 else 0.999))
           for i, n in enumerate(NS)]
    c = fit.choose(pts)
    assert c.chosen.model == "power"
    assert c.chosen.params["b"] == pytest.approx(1.8, abs=0.01)


def test_chosen_has_smallest_stderr():
    pts = [(100, 3.2), (250, 4.1), (500, 9.0), (1000, 11.2)]
    c = fit.choose(pts)
    eligible = [f for f in c.candidates if f.ok]
    assert c.chosen.stderr == min(f.stderr for f in eligible)


def test_too_few_disk_counts():
    c = fit.choose([(100, 3.0), (100, 3.1), (250, 4.0)])
    assert c.chosen is None and c.candidates == []
    assert c.reason == "2 disk count(s) measured (100, 250); a fit needs " \
        "at least 3"


def test_falling_model_refused():
    pts = [(100, 9.0), (250, 6.0), (500, 4.0), (1000, 3.5)]
    c = fit.choose(pts)
    assert c.chosen is None
    assert c.reason == "no model fits without falling with more disks"
    assert all(f.refused for f in c.candidates)


def test_quadratic_needs_four_counts():
    c = fit.choose([(100, 3.0), (250, 4.0), (500, 6.0)])
    assert {f.model for f in c.candidates} == {"linear", "power"}
