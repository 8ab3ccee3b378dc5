"""Per-disk growth is judged by the marginal cost between adjacent
points (seconds per added disk) and the quadratic term of a robust fit,
not by total time over disks: a start-up cost makes time/disks fall even
when each added disk costs more than the last."""

import pytest

from blkscale.figures import bootcurve, loadband, marginal

COUNTS = (500, 1000, 2000, 4000, 5000)
SERIES = [{"name": "scsi", "title": "", "curves": [
    {"role": "curve", "label": "scsi",
     "topologies": [f"t-{n}" for n in COUNTS]}]}]


def _doc(disks, seconds):
    return {"disks": {"found": {"total": disks}},
            "boot": {"wall_to_census_s": seconds},
            "steps": [{"name": "census", "verdict": "ok"}]}


def _sweep(figure, limit):
    return {"variants": ["stock"], "series": SERIES,
            "goals": [{"name": "g", "figure": figure, "series": "scsi",
                       "max": limit}]}


def _docs(curve, noise=(1.0, 1.0, 1.0)):
    return {(f"t-{n}", "stock"): {k: _doc(n, curve(n) * f)
                                  for k, f in enumerate(noise, 1)}
            for n in COUNTS}


def growing(n):
    """20 s start-up, then each added disk costs more than the last."""
    return 20 + 0.002 * n + 2e-6 * n * n


def linear(n):
    return 20 + 0.01 * n


def test_growing_marginal_cost_fails_the_goal():
    docs = _docs(growing)
    result = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs)
    v = result.verdicts[0]
    # 4000->5000 costs 2 + 2e-3 * 9000 = 20 ms per disk, 500->1000 5 ms.
    assert v.value == pytest.approx(4.0)
    assert v.verdict == bootcurve.FAIL
    assert "4000->5000 over 500->1000" in v.figure
    curve = result.curves[0]
    assert [round(s.median, 3) for _, _, s in curve.segments] == \
        [5.0, 8.0, 14.0, 20.0]
    assert curve.quadratic["quadratic_share"] == pytest.approx(0.8333, 1e-3)
    ms = bootcurve.analyse(_sweep("marginal_cost_ms", 10), docs)
    assert ms.verdicts[0].value == pytest.approx(20.0)
    assert ms.verdicts[0].verdict == bootcurve.FAIL


def test_linear_curve_passes():
    result = bootcurve.analyse(_sweep("marginal_growth", 1.5),
                               _docs(linear))
    assert result.verdicts[0].value == pytest.approx(1.0)
    assert result.verdicts[0].verdict == bootcurve.PASS
    assert abs(result.curves[0].quadratic["quadratic_share"]) < 1e-6


def test_repeats_that_disagree_are_inconclusive():
    """Per repeat, noise on the 500-disk point moves the growth across
    the limit: neither a pass nor a fail."""
    docs = _docs(linear)
    docs[("t-500", "stock")][2] = _doc(500, linear(500) + 2.0)
    docs[("t-500", "stock")][3] = _doc(500, linear(500))
    for n in COUNTS[1:]:
        for k in (2, 3):
            docs[(f"t-{n}", "stock")][k] = _doc(n, linear(n))
    v = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs).verdicts[0]
    assert v.spread.n == 3 and v.spread.max > 1.5 > v.spread.min
    assert v.verdict == bootcurve.INCONCLUSIVE


def test_robust_fit_shrugs_off_one_slow_point():
    pts = [(n, linear(n)) for n in (250, 500, 1000, 2000, 3000, 4000)]
    pts[2] = (1000, linear(1000) + 15.0)
    assert abs(marginal.robust_quadratic(pts)["quadratic_share"]) < 0.1
    assert marginal.robust_quadratic(pts[:2]) is None
    assert marginal.growth([(500, 30.0), (1000, 25.0), (2000, 40.0)]) is None


def _topology_goal(limit):
    return {"variants": ["stock"], "series": SERIES,
            "goals": [{"name": "g", "figure": "boot_to_census_s",
                       "topology": "t-5000", "max": limit}]}


def _loaded(*runs, share=0.5):
    """loadband.Loads with others taking `share` of a 2-core host during
    the given (topology, variant, repeat) runs."""
    return loadband.Loads({"host_cpus": 2, "runs": [
        {"topology": t, "variant": v, "repeat": k, "wall_s": 60,
         "host_load": {"others_cpu_share": share}} for t, v, k in runs]})


def test_a_time_over_its_goal_on_a_loaded_host_is_inconclusive():
    docs = _docs(linear, noise=(1.0, 1.1, 1.2))      # t-5000: 70-84 s
    goal = _topology_goal(60)
    v = bootcurve.analyse(goal, docs).verdicts[0]
    assert v.verdict == bootcurve.FAIL
    # One repeat on a loaded host is enough to doubt the fail...
    v = bootcurve.analyse(goal, docs,
                          _loaded(("t-5000", "stock", 2))).verdicts[0]
    assert v.verdict == bootcurve.INCONCLUSIVE
    assert "loaded host" in v.figure
    # ...unless the time is beyond what the load could explain (2x)...
    v = bootcurve.analyse(_topology_goal(30), docs,
                          _loaded(("t-5000", "stock", 2))).verdicts[0]
    assert v.verdict == bootcurve.FAIL
    # ...and not a pass: load only ever adds time.
    v = bootcurve.analyse(_topology_goal(100), docs,
                          _loaded(("t-5000", "stock", 2))).verdicts[0]
    assert v.verdict == bootcurve.PASS
    # Load on another topology's runs changes nothing.
    v = bootcurve.analyse(goal, docs,
                          _loaded(("t-500", "stock", 1))).verdicts[0]
    assert v.verdict == bootcurve.FAIL


def test_a_goal_from_one_repeat_is_inconclusive():
    """One run has no spread: neither a pass nor a fail."""
    for limit in (1.5, 0.5):
        v = bootcurve.analyse(_sweep("marginal_growth", limit),
                              _docs(linear, noise=(1.0,))).verdicts[0]
        assert v.verdict == bootcurve.INCONCLUSIVE
        assert "one repeat" in v.figure


def test_marginal_growth_pass_on_a_loaded_host_is_inconclusive():
    """Load on one point can bend a curve either way: a pass resting on
    it is not a pass."""
    docs = _docs(linear)
    v = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs,
                          _loaded(("t-500", "stock", 1))).verdicts[0]
    assert v.verdict == bootcurve.INCONCLUSIVE
    v = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs,
                          _loaded(("t-500", "stock", 1),
                                  share=0.1)).verdicts[0]
    assert v.verdict == bootcurve.PASS       # 0.2 cores: not marked


def test_marginal_growth_keeps_every_repeat():
    """A repeat whose first segment did not rise has no growth; it is
    named, and the goal cannot pass over it."""
    docs = _docs(linear)
    docs[("t-1000", "stock")][2] = _doc(1000, linear(500) - 1.0)
    v = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs).verdicts[0]
    assert v.verdict == bootcurve.INCONCLUSIVE
    assert "first segment did not rise in repeat 2" in v.figure


def test_a_goal_on_a_figure_no_longer_judged_is_inconclusive():
    """An older manifest's per_disk_growth goal is neither passed nor
    failed: the figure hid growing costs, and is judged no more."""
    v = bootcurve.analyse(_sweep("per_disk_growth", 1.5),
                          _docs(linear)).verdicts[0]
    assert v.verdict == bootcurve.INCONCLUSIVE
    assert "no longer judged" in v.figure


def test_a_repeat_missing_a_point_keeps_the_goal_from_passing():
    """Repeat 2's census failed at one point: the curve's figure rests
    on the other repeats, and the goal cannot pass over the hole."""
    docs = _docs(linear)
    docs[("t-2000", "stock")][2]["steps"][0]["verdict"] = "failed"
    v = bootcurve.analyse(_sweep("marginal_growth", 1.5), docs).verdicts[0]
    assert v.spread.n == 2
    assert v.verdict == bootcurve.INCONCLUSIVE
