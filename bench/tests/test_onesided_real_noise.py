"""The one-sided decision on paired ratios, fed the real noise of a
committed nightly (evidence/20261204-nightly-judged: five repeats
of both kernels on a shared 2-core host, 16 of the first 24 runs
loaded) and judged against the baselines of a separate run
(bench/baselines, from 20261204-nightly-verify).

Each check fails when the judging loses what it is about: a power
figure that ignores the spread, a load band that is not applied, or a
rule under which six to eight repeats can decide nothing."""

import math
import statistics

import pytest
from scipy import stats as sps

from blkscale.figures import compare, loadband, metrics, onesided
from blkscale.figures.stats import Summary
from blkscale.paths import REPO
from blkscale_bench import repeats
from blkscale_bench.judging import baseline

JUDGED = REPO / "evidence" / "20261204-nightly-judged"
TOPO, CENSUS = "stress-1000", "census_complete_s_vs_stock"


@pytest.fixture(scope="module")
def judged():
    manifest, docs = repeats.load(str(JUDGED))
    return manifest, docs, repeats.figures(manifest, docs)


def _ratios(judged, metric=CENSUS, topo=TOPO):
    return dict(judged[2][topo]["patched"][metric].values)


def _scaled(values, true_ratio):
    """The same repeats moved so that their geometric mean is
    true_ratio: the real spread around a chosen truth."""
    geo = math.exp(statistics.fmean(math.log(v) for v in values.values()))
    return {k: v / geo * true_ratio for k, v in values.items()}


def _cycled(values, n):
    """n repeats made of the real ones in order, the first again after
    the last: the real deviations, more of them."""
    real = [values[k] for k in sorted(values)]
    return {i + 1: real[i % len(real)] for i in range(n)}


def test_the_judged_run_has_real_noise(judged):
    """The fixture is what the tests claim: five repeats, spread of
    several percent, most of the first three loaded."""
    ratios = _ratios(judged)
    assert len(ratios) == 5
    sd = statistics.stdev(math.log(v) for v in ratios.values())
    assert 0.05 < sd < 0.2
    loads = loadband.Loads(judged[0])
    assert all(loads.share(TOPO, v, k) > 0.5 for v in ("stock", "patched")
               for k in (1, 2, 3))


def test_detectable_follows_the_spread(judged):
    """With five real repeats, a regression needs a true ratio well
    above the limit and a pass one well below it; twice the spread
    moves both further out; no spread at all puts both on the limit."""
    ratios = _ratios(judged)
    fails, passes = onesided.detectable(ratios, 1.3)
    n, sd = len(ratios), statistics.stdev(math.log(v)
                                          for v in ratios.values())
    # From scipy's own t quantile, not the module's formula.
    width = sps.t.ppf(0.95, n - 1) * sd / math.sqrt(n)
    assert fails == pytest.approx(1.3 * math.exp(width))
    assert passes == pytest.approx(1.3 * math.exp(-width))
    assert fails > 1.3 * 1.08 and passes < 1.3 / 1.08
    geo = math.exp(statistics.fmean(math.log(v) for v in ratios.values()))
    wider = {k: geo * (v / geo) ** 2 for k, v in ratios.items()}
    fails2, passes2 = onesided.detectable(wider, 1.3)
    assert fails2 > fails * 1.05 and passes2 < passes / 1.05
    flat = {k: geo for k in ratios}
    assert onesided.detectable(flat, 1.3) == pytest.approx((1.3, 1.3))


def test_detectable_said_where_a_check_is_judged(judged):
    """The nightly's check carries the same two figures and says them."""
    manifest, docs, figures = judged
    bases = {v: baseline.load(str(baseline.DEFAULT_DIR), v)
             for v in ("stock", "patched")}
    checks = compare.compare(manifest, figures, bases,
                             metrics.thresholds("stock"), docs)
    check = next(c for c in checks if c.topology == TOPO and
                 c.variant == "patched" and c.metric == CENSUS)
    assert check.fails_at > 1.3 * check.baseline
    assert check.passes_at < 1.3 * check.baseline
    assert f"fails at >= {check.fails_at:.4g}" in check.message


@pytest.mark.parametrize("n", [6, 7, 8])
def test_six_to_eight_repeats_decide(judged, n):
    """Six to eight repeats with the real spread decide a 1.3x limit
    both ways: a true 1.15x passes and a true 1.5x fails, although the
    range of the repeats straddles the limit in the first case (what
    the interval of the median is until nine repeats)."""
    real = _ratios(judged)
    below = _cycled(_scaled(real, 1.15), n)
    assert min(below.values()) < 1.3 < max(below.values()) or \
        max(below.values()) > 1.3 * 0.95
    assert onesided.decide(below, 1.3).said == onesided.PASS
    above = _cycled(_scaled(real, 1.5), n)
    assert onesided.decide(above, 1.3).said == onesided.FAIL


def test_the_power_rule_from_the_real_spread(judged):
    """How many repeats a true 1.2x needs against 1.3 with this spread:
    more than three, at most max_repeat; at that many it decides, one
    fewer does not."""
    real = _scaled(_ratios(judged), 1.2)
    d = onesided.decide(real, 1.3)
    assert d.said == onesided.INCONCLUSIVE and d.by_spread
    assert 5 < d.needed <= 9
    logs = [math.log(v) for v in real.values()]
    sd, distance = statistics.stdev(logs), math.log(1.3 / 1.2)

    def width(n):
        return sps.t.ppf(0.95, n - 1) * sd / math.sqrt(n)
    assert width(d.needed) < distance <= width(d.needed - 1)
    # A mean on the limit: no number of repeats decides it.
    assert onesided.decide(_scaled(_ratios(judged), 1.3), 1.3).needed \
        is None


def _loaded_checks(judged, factor, with_loads):
    """The census ratio of stress-1000 with patched `factor` times
    slower, judged with the run's recorded loads or none."""
    manifest, docs, figures = judged
    spread = figures[TOPO]["patched"][CENSUS]
    slower = Summary.of({k: v * factor for k, v in spread.values.items()})
    loads = loadband.Loads(manifest if with_loads else None)
    band = loadband.ratio_shifts(slower.values, loads, TOPO, "patched",
                                 "stock")
    return compare.judge(TOPO, "patched", CENSUS, 1.0, slower,
                         {"max_ratio": 1.3, "gate": True}, metrics.TIME,
                         band)


def test_the_paired_ratio_load_band_holds_back_a_loaded_verdict(judged):
    """1.45x slower: on an idle host five repeats with this spread call
    it a regression; with the loads the run recorded (shares 0.27-0.66
    in repeats 1-4) the pairs' free CPU explains enough of it that the
    verdict waits for an idle host."""
    idle = _loaded_checks(judged, 1.45, with_loads=False)
    assert idle.status == compare.REGRESSION
    loaded = _loaded_checks(judged, 1.45, with_loads=True)
    assert loaded.status == compare.INCONCLUSIVE
    assert "the host's load explains" in loaded.message
    # Far enough beyond, load cannot explain it either.
    assert _loaded_checks(judged, 2.5, with_loads=True).status == \
        compare.REGRESSION


def test_the_load_band_has_no_cliff():
    """A run at 24% and one at 26% of the host taken: the decision moves
    a little, not from nothing to everything."""
    def shifted(share):
        manifest = {"host_cpus": 2, "runs": [
            {"topology": "t", "variant": v, "repeat": k, "wall_s": 60,
             "host_load": {"others_cpu_share": share if v == "patched"
                           else 0.0}}
            for v in ("stock", "patched") for k in (1, 2, 3)]}
        values = {1: 1.0, 2: 1.05, 3: 0.97}
        down, up = loadband.ratio_shifts(values, loadband.Loads(manifest),
                                         "t", "patched", "stock")
        return onesided.detectable(values, 1.3, "max", down, up)[0]
    low, high = shifted(0.24), shifted(0.26)
    assert 1.0 < high / low < 1.05
    assert shifted(0.0) < low


def test_per_call_costs_get_no_load_band(judged):
    """register_p50_ns_vs_stock, timed in the guest around one call,
    is judged on its spread alone, however loaded the runs were."""
    manifest, docs, figures = judged
    checks = compare.compare(manifest, figures,
                             {v: baseline.load(str(baseline.DEFAULT_DIR), v)
                              for v in ("stock", "patched")},
                             metrics.thresholds("stock"), docs,
                             loadband.Loads(manifest))
    check = next(c for c in checks if c.topology == TOPO and
                 c.variant == "patched" and
                 c.metric == "lookup_p50_ns_vs_stock")
    assert check.kind == metrics.CALL
    assert "load explains" not in check.message
    assert check.status == compare.PASS
