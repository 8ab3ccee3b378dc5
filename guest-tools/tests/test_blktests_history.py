"""Nights in a row a blktests test was flaky, from the nightly's earlier
run directories (fake ones here): three flaky nights name the test, a
night in between that was not flaky starts the count again, a night
without results does not count."""

from blkscale_reports import blktestshistory as bh

from test_blktests_verdict import F5, NEW, P5, REF, doc, write_run

FLAKY = {REF: [doc({"scsi/007": "passed"}),
               doc({"scsi/007": "passed"}, [("scsi/007", P5)])],
         NEW: [doc({"scsi/007": "failed"},
                   [("scsi/007", ["failed", "passed"] + F5[:3])])]}
FAILS_ON_BOTH = {REF: [doc({"scsi/007": "failed"}, [("scsi/007", F5)])],
                 NEW: [doc({"scsi/007": "failed"}, [("scsi/007", F5)])]}


def history(tmp_path, *nights):
    root = tmp_path / bh.NIGHTLY
    for i, docs in enumerate(nights):
        d = root / f"20261201-0{i}0000"
        if docs is None:
            d.mkdir(parents=True)       # a night whose guests died
        else:
            write_run(d, docs)
    return sorted(root.iterdir())


def streaks_at(dirs):
    return bh.flaky_streaks(bh.nights(dirs[-1], [REF, NEW]), REF, NEW)


def test_three_flaky_nights_in_a_row_name_the_test(tmp_path):
    dirs = history(tmp_path, FLAKY, FLAKY, FLAKY)
    assert bh.is_nightly(dirs[-1])
    streaks = streaks_at(dirs)
    assert streaks == {("scsi/007", "scsi-0"): 3}
    assert bh.named(streaks) == ["scsi/007 on scsi-0: flaky 3 nights in a "
                                 "row"]


def test_two_flaky_nights_are_not_named(tmp_path):
    streaks = streaks_at(history(tmp_path, FLAKY, FLAKY))
    assert streaks == {("scsi/007", "scsi-0"): 2}
    assert bh.named(streaks) == []


def test_a_night_that_was_not_flaky_starts_the_count_again(tmp_path):
    dirs = history(tmp_path, FLAKY, FLAKY, FAILS_ON_BOTH, FLAKY, FLAKY)
    assert bh.named(streaks_at(dirs)) == []


def test_a_night_without_results_does_not_count(tmp_path):
    dirs = history(tmp_path, FLAKY, FLAKY, None, FLAKY)
    assert bh.named(streaks_at(dirs)) == [
        "scsi/007 on scsi-0: flaky 3 nights in a row"]


def test_later_nights_are_not_read(tmp_path):
    dirs = history(tmp_path, FLAKY, FLAKY, FLAKY, FAILS_ON_BOTH)
    assert bh.named(streaks_at(dirs[:3])) != []
    assert bh.named(streaks_at(dirs)) == []


def test_a_run_elsewhere_is_no_night():
    assert not bh.is_nightly("results/20261204-run-smoke")
