"""attachcost's fit and extrapolation: what a stopped attach predicts."""

import random

import pytest

from blkscale_bench import attachcost


def _per(n, first_ms, slope_us, noise_ms=0.0, seed=1):
    rnd = random.Random(seed)
    return [(first_ms + slope_us / 1000 * k + rnd.uniform(-noise_ms, noise_ms))
            / 1000 for k in range(n)]


@pytest.mark.parametrize("n", [3000, 12000])
def test_fit_recovers_a_growing_cost_through_noise(n):
    # 60 ms at the first disk and 2 us more per disk already there, with
    # +-10 ms of noise: single disks below FIT_DISKS_MAX, windows above
    first, slope = attachcost.fit(_per(n, 60, 2, noise_ms=10))
    assert first == pytest.approx(60, abs=3)
    assert slope == pytest.approx(2, abs=0.5 if n < 5000 else 0.1)


def test_fit_finds_no_growth_where_there_is_none():
    _, slope = attachcost.fit(_per(12000, 60, 0, noise_ms=20))
    assert abs(slope) < 0.1


def test_fit_is_not_moved_by_outliers():
    per = _per(3000, 60, 0)
    for k in range(0, 3000, 50):     # keepalive stalls of 5 s
        per[k] = 5.0
    first, slope = attachcost.fit(per)
    assert first == pytest.approx(60, abs=1) and abs(slope) < 0.5


def test_remaining_counts_each_disk_at_its_own_cost():
    # no growth: each disk costs `first`
    assert attachcost.remaining_s(100, 0, 10, 20) == pytest.approx(1.0)
    # 1 ms more per disk: disks 10..19 cost 110..119 ms
    assert attachcost.remaining_s(100, 1000, 10, 20) == pytest.approx(1.145)
    assert attachcost.remaining_s(100, 1000, 20, 20) == 0


def test_windows_split_the_times_of_batched_progress():
    # progress every 2 disks: each of the pair gets half the time
    rows, per = attachcost.windows([(2, 0.2), (4, 0.4)])
    assert per == pytest.approx([0.1, 0.1, 0.2, 0.2])
    assert rows[0][:2] == (1, 4)


def test_seconds_must_be_positive(capsys):
    assert attachcost.main(["topologies/smoke.toml",
                            "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err
