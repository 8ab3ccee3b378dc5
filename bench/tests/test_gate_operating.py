"""The gate's own rule, looking again after more repeats (optional
stopping), on simulated nights at the spread of this host's paired boot
ratios (sd of their logs 0.16): an equal pair is rarely a REGRESSION
and mostly a PASS, a cost the size of the canary's is named, and a rule
that judged an equal pair against no margin would be caught."""

import numpy
from scipy import stats

from blkscale_bench.judging import operating

LIMIT = 1.15
SD = 0.16
NIGHTS = 300


def _upper(share, nights=NIGHTS):
    """The 95% upper bound of a share of nights (Clopper-Pearson)."""
    k = round(share * nights)
    return stats.binomtest(k, nights).proportion_ci(0.95).high


def _lower(share, nights=NIGHTS):
    k = round(share * nights)
    return stats.binomtest(k, nights).proportion_ci(0.95).low


def test_an_equal_pair_is_rarely_a_regression_and_mostly_passes():
    share, repeats = operating.rates(1.0, SD, NIGHTS, LIMIT, seed=7)
    assert _upper(share["REGRESSION"]) < 0.05
    assert _lower(share["PASS"]) > 0.8
    assert 5 <= repeats["mean"] < 16 and repeats["max"] <= 16


def test_the_canarys_cost_is_named():
    share, _ = operating.rates(1.56, SD, NIGHTS, LIMIT, seed=8)
    assert _lower(share["REGRESSION"]) > 0.9
    assert share["PASS"] == 0


def test_a_limit_of_no_margin_would_be_caught():
    """Against 1.0x an equal pair sits on the limit: the rule must then
    not pass it most nights (a rule that passed everything would)."""
    share, _ = operating.rates(1.0, SD, NIGHTS, 1.0, seed=9)
    assert share["PASS"] < 0.2


def test_a_night_draws_only_what_it_plans():
    rng = numpy.random.default_rng(3)
    verdict, n = operating.night(rng, 1.0, 0.0001, LIMIT)
    assert (verdict, n) == ("PASS", 5)
    verdict, n = operating.night(rng, 1.15, 0.5, LIMIT, max_repeat=5)
    assert (verdict, n) == ("INCONCLUSIVE", 5)
