"""Verdicts of blktests tests from both kernels' reruns, on fake result
sets: one test per verdict, the bad cases included (a regression must
fail the check, a flake must never pass as one nor as a pass)."""

import json

import pytest

from blkscale.figures import blktests as bt
from blkscale_reports import blktestsruns as bv

REF, NEW = "stock-blktests", "patched-blktests"


def entry(test, status, reason=None, **more):
    return {"test": test, "device": "sda", "serial": "scsi-0",
            "status": status, "runtime_s": 3.0,
            "reason": reason if reason or status != "failed" else "output",
            "diff": "-a\n+b" if status == "failed" else None, "dmesg": None,
            **more}


def doc(first, again=(), requested=5, stopped=None):
    """A results.json: first {test: status}, again [(test, [statuses])]."""
    runs = [entry(t, s, round=r)
            for t, statuses in again for r, s in enumerate(statuses, 1)]
    return {"blktests": {
        "tests": [entry(t, s) for t, s in first.items()],
        "reruns": {"requested": requested,
                   "tests": [t for t, _ in again],
                   "rounds": max((len(s) for _, s in again), default=0),
                   "stopped": stopped, "runs": runs}}}


P5, F5 = ["passed"] * 5, ["failed"] * 5


def verdicts(stock, patched, second=None):
    docs = {REF: [stock], NEW: [patched]}
    for x, d in (second or {}).items():
        docs[x].append(d)
    return {v.test: v for v in bt.judge(docs, REF, NEW)}


def test_fails_on_patched_every_time_is_a_regression():
    v = verdicts(doc({"scsi/007": "passed"}),
                 doc({"scsi/007": "failed"}, [("scsi/007", F5)]),
                 {REF: doc({"scsi/007": "passed"}, [("scsi/007", P5)])})
    assert v["scsi/007"].verdict == "regression"
    assert v["scsi/007"].line() == (
        "scsi/007 on scsi-0: stock-blktests 5/5, patched-blktests 0/5 "
        "passed: regression")


def test_mixed_reruns_are_flaky_with_both_counts():
    v = verdicts(doc({"scsi/007": "passed"}),
                 doc({"scsi/007": "failed"},
                     [("scsi/007", ["passed", "failed"] + P5[:3])]),
                 {REF: doc({"scsi/007": "passed"}, [("scsi/007", P5)])})
    assert v["scsi/007"].verdict == "flaky"
    assert (v["scsi/007"].passed, v["scsi/007"].runs) == (
        {REF: 5, NEW: 4}, {REF: 5, NEW: 5})
    assert v["scsi/007"].counts() == (
        "stock-blktests 5/5, patched-blktests 4/5 passed")


def test_a_failure_that_never_comes_back_is_flaky_not_a_pass():
    v = verdicts(doc({"block/024": "failed"}, [("block/024", P5)]),
                 doc({"block/024": "passed"}),
                 {NEW: doc({"block/024": "passed"}, [("block/024", P5)])})
    assert v["block/024"].verdict == "flaky"
    assert v["block/024"].line().endswith(
        "5/5 passed, first run failed on stock-blktests: flaky")


def test_fails_on_both_gives_blktests_reason():
    v = verdicts(doc({"block/038": "failed"}, [("block/038", F5)]),
                 doc({"block/038": "failed"}, [("block/038", F5)]))
    assert v["block/038"].verdict == "fails on both"
    assert v["block/038"].reason == "output"


def test_passing_on_patched_every_time_is_fixed():
    v = verdicts(doc({"scsi/004": "failed"}, [("scsi/004", F5)]),
                 doc({"scsi/004": "passed"}),
                 {NEW: doc({"scsi/004": "passed"}, [("scsi/004", P5)])})
    assert v["scsi/004"].verdict == "fixed"


def test_passing_on_both_first_runs_is_a_plain_pass_without_reruns():
    v = verdicts(doc({"block/001": "passed"}), doc({"block/001": "passed"}))
    assert v["block/001"].verdict == "pass"
    assert v["block/001"].runs == {}
    assert v["block/001"].line() == "block/001 on scsi-0: pass"


def test_not_run_on_one_kernel_says_where():
    v = verdicts(doc({"md/001": "not run"}, [("md/001", ["not run"] * 5)]),
                 doc({"md/001": "failed"}, [("md/001", F5)]))
    assert v["md/001"].verdict == "not run"
    assert v["md/001"].reason.startswith("stock-blktests:")


def test_reruns_stopped_by_an_oops_leave_no_verdict():
    oops = "the kernel oopsed (taint D) before round 1"
    v = verdicts(doc({"block/001": "passed"}),
                 doc({"block/001": "failed"}, stopped=oops))
    assert v["block/001"].verdict == "not rerun"
    assert oops in v["block/001"].reason


def test_a_test_failing_on_one_kernel_needs_a_second_boot_of_the_other():
    stock = doc({"scsi/007": "passed", "block/024": "failed"},
                [("block/024", F5)])
    patched = doc({"scsi/007": "failed", "block/024": "passed"},
                  [("scsi/007", F5)])
    docs = {REF: [stock], NEW: [patched]}
    assert bt.pending(docs, REF, NEW) == {REF: ["scsi/007"],
                                         NEW: ["block/024"]}
    v = {x.test: x for x in bt.judge(docs, REF, NEW)}
    assert v["scsi/007"].verdict == "not rerun"
    assert "no second boot ran it" in v["scsi/007"].reason


def test_reruns_off_ask_for_no_second_boot():
    docs = {REF: [doc({"scsi/007": "passed"}, requested=0)],
            NEW: [doc({"scsi/007": "failed"}, requested=0)]}
    assert bt.pending(docs, REF, NEW) == {}
    v = bt.judge(docs, REF, NEW)[0]
    assert v.verdict == "not rerun" and "reruns off" in v.reason


def write_run(run_dir, docs):
    for x, items in docs.items():
        for i, d in enumerate(items):
            where = run_dir / x if i == 0 else bv.second_boot(run_dir, x) / x
            where.mkdir(parents=True, exist_ok=True)
            (where / "results.json").write_text(
                d if isinstance(d, str) else json.dumps(d))


def test_a_run_directory_with_its_second_boot(tmp_path):
    write_run(tmp_path, {
        REF: [doc({"scsi/007": "passed"}),
              doc({"scsi/007": "passed"}, [("scsi/007", P5)])],
        NEW: [doc({"scsi/007": "failed"}, [("scsi/007", F5)])]})
    docs = bv.load_run(tmp_path, [REF, NEW])
    assert [len(docs[REF]), len(docs[NEW])] == [2, 1]
    assert bt.judge(docs, REF, NEW)[0].verdict == "regression"


def test_results_that_are_not_json_name_the_file(tmp_path):
    write_run(tmp_path, {REF: ["{"], NEW: [doc({})]})
    with pytest.raises(bv.ReportError, match=r"stock-blktests/results.json"
                                              r": not JSON"):
        bv.load_run(tmp_path, [REF, NEW])


def test_a_rerun_with_an_unknown_status_names_the_field(tmp_path):
    bad = doc({"scsi/007": "failed"}, [("scsi/007", ["passed", "maybe"])])
    write_run(tmp_path, {REF: [doc({})], NEW: [bad]})
    with pytest.raises(bv.ReportError) as err:
        bv.load_run(tmp_path, [REF, NEW])
    assert str(err.value).endswith(
        "patched-blktests/results.json: blktests.reruns.runs[1].status: "
        "'maybe' is not passed, failed or not run")
