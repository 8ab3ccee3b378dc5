"""blktests in full on the blktests flavour of both kernels (make nightly),
on each base the series is kept for: 6.1 and 6.12, stock against patched.

topologies/blktests.toml: the block, loop, scsi, dm, md and nbd groups on
a virtio-blk and a SCSI disk.  Every test that failed runs again in the
same boot (plan.blktests.reruns); a test that failed on one kernel only
runs again on the other in a second boot of just those tests.  From both
kernels' reruns each such test gets a verdict (blkscale/figures/blktests.py):

- a regression fails this nightly;
- a test that could not be run again (an oops stopped the reruns, a
  second boot failed) fails it too: nothing can be said of it;
- a flaky test is a warning with both kernels' pass counts, never a pass
  and never a regression: in JUnit an expected failure (<skipped
  type="pytest.xfail">) whose message names it; a test flaky for three
  nights in a row is named as such;
- a test that fails on both kernels is a warning with blktests' reason
  (reports/README.md explains the known ones).

Each night's run stays under results/blktests-nightly/ (the 6.12 pair's
with a -6.12 suffix), the history the flaky streaks are counted from.
BLKSCALE_BLKTESTS_NIGHT=<run directory> judges a night already run
instead of booting (its second boots included, none added), for the
pair whose results it holds.  Too slow for make test: it runs only
with BLKSCALE_NIGHTLY=1, and needs the flavour kernels (make
kernel-blktests); without them it skips and says so.
"""

import os
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

import blktestsrun
from blkscale_reports import blktestshistory as bh
from blkscale.figures import blktests as bt
from blkscale_reports import blktestsruns as bv
from blktestsrun import REPO, step

TOPOLOGY = REPO / "topologies" / "blktests.toml"
# Each base's series against its own stock kernel; the first is the one
# the rerun mechanism is checked on.
PAIRS = {"6.1": ["stock-blktests", "patched-blktests"],
         "6.12": ["stock-6.12-blktests", "patched-6.12-blktests"]}
VARIANTS = PAIRS["6.1"]
TIMEOUT = 4 * 3600

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly only (BLKSCALE_NIGHTLY=1; needs make kernel-blktests)")


def _env():
    return {"BLKTESTS_DIR": blktestsrun.checkout()}


def _boot(run_dir, variants):
    """Tonight's run of one pair and its second boots, into run_dir."""
    env = _env()
    status, docs, err = blktestsrun.run(TOPOLOGY, variants, None, env,
                                        TIMEOUT, results=run_dir.parent,
                                        run_id=run_dir.name)
    for variant in variants:
        doc = docs[variant]
        assert doc is not None, f"{variant}: no results ({err.strip()})"
        assert step(doc, "blktests")["verdict"] == "ok", variant
        print(f"{variant}: {doc['blktests']['summary']}, "
              f"{doc['blktests']['wall_s']} s, reruns "
              f"{doc['blktests']['reruns']['tests']}")
    todo = bt.pending(bv.load_run(run_dir, variants), *variants)
    for variant, tests in todo.items():
        print(f"{variant}: second boot to run again {' '.join(tests)}")
        _, again, err2 = blktestsrun.second_boot(TOPOLOGY, run_dir, variant,
                                                 tests, env, TIMEOUT)
        assert again[variant] is not None, \
            f"{variant}: second boot brought no results ({err2.strip()})"
    return status, err


@pytest.fixture(scope="module", params=sorted(PAIRS))
def night(request):
    """Tonight's run of one pair (or BLKSCALE_BLKTESTS_NIGHT's), every
    verdict."""
    variants = PAIRS[request.param]
    given = os.environ.get("BLKSCALE_BLKTESTS_NIGHT")
    if given:
        run_dir, status, err = Path(given), 0, ""
        if not (run_dir / variants[0] / "results.json").is_file():
            pytest.skip(f"{given}: no {request.param} results to judge")
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        suffix = "" if request.param == "6.1" else f"-{request.param}"
        run_dir = blktestsrun.NIGHTS / f"{stamp}{suffix}"
        status, err = _boot(run_dir, variants)
    docs = bv.load_run(run_dir, variants)
    assert all(docs.values()), f"{run_dir}: no results.json of " + \
        " or ".join(v for v in variants if not docs[v])
    verdicts = bt.judge(docs, *variants)
    for v in verdicts:
        if v.verdict != "pass":
            print(v.line())
    streaks = bh.flaky_streaks(bh.nights(run_dir, variants), *variants)
    return SimpleNamespace(status=status, err=err, verdicts=verdicts,
                           streaks=streaks, run_dir=run_dir)


def lines(night, verdict):
    return [v.line() for v in night.verdicts if v.verdict == verdict]


def test_both_kernels_ran_the_suite(night):
    assert night.status in (0, 1), night.err


def test_no_test_regresses_on_patched(night):
    assert lines(night, "regression") == []


def test_every_test_that_differed_or_failed_was_run_again(night):
    assert lines(night, "not rerun") == []


def test_flaky_tests_are_a_warning_with_their_counts(night, record_property):
    flaky = lines(night, "flaky")
    if not flaky:
        return
    named = bh.named(night.streaks)
    message = "flaky, neither pass nor regression: " + "; ".join(flaky)
    if named:
        message += "; " + "; ".join(named)
    record_property("blktests_flaky", "; ".join(flaky))
    record_property("blktests_flaky_nights", "; ".join(named))
    warnings.warn(message)
    pytest.xfail(message)


def test_tests_failing_on_both_kernels_are_named(night):
    both = lines(night, "fails on both")
    if both:
        warnings.warn("blktests failing on both kernels: " + "; ".join(both))


@pytest.mark.skipif(bool(os.environ.get("BLKSCALE_BLKTESTS_NIGHT")),
                    reason="judging a night already run: no boot")
def test_a_named_test_runs_again_on_both_kernels(tmp_path):
    """A real rerun, whatever tonight's failures: block/003 twice more on
    each kernel in a second boot of its own."""
    env = _env()
    for variant in VARIANTS:
        status, docs, err = blktestsrun.second_boot(
            TOPOLOGY, tmp_path, variant, ["block/003"], env, 1800, reruns=2)
        assert docs[variant] is not None, f"{variant}: {err.strip()}"
        assert status == 0, err
    docs = bv.load_run(tmp_path, VARIANTS)
    for variant in VARIANTS:
        runs = bt.reruns(docs[variant])
        assert sorted(runs) == [("block/003", "scsi-0"),
                                ("block/003", "vblk-0")], variant
        for key, entries in runs.items():
            assert [e["round"] for e in entries] == [1, 2], (variant, key)
            assert all(e["runtime_s"] is not None for e in entries)
