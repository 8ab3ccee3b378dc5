"""What the nightly's blktests check says in JUnit, on fake nights
judged through BLKSCALE_BLKTESTS_NIGHT (no guest boots): a regression
fails, a test that was not run again fails, a flaky test is an expected
failure whose message gives both kernels' counts (and names a third
flaky night in a row), never a pass and never a failure; a clean night
passes."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from blkscale_reports import blktestshistory as bh

from blktestsrun import REPO
from test_blktests_verdict import F5, NEW, P5, REF, doc, write_run

NIGHTLY = REPO / "guest-tools" / "tests" / "test_blktests_nightly.py"

REGRESSION = {REF: [doc({"scsi/007": "passed"}),
                    doc({"scsi/007": "passed"}, [("scsi/007", P5)])],
              NEW: [doc({"scsi/007": "failed"}, [("scsi/007", F5)])]}
FLAKY = {REF: [doc({"scsi/007": "passed"}),
               doc({"scsi/007": "passed"}, [("scsi/007", P5)])],
         NEW: [doc({"scsi/007": "failed"},
                   [("scsi/007", ["failed"] + P5[:4])])]}
CLEAN = {REF: [doc({"block/001": "passed"})],
         NEW: [doc({"block/001": "passed"})]}
NOT_RERUN = {REF: [doc({"scsi/007": "passed"})],
             NEW: [doc({"scsi/007": "failed"}, [("scsi/007", F5)])]}


def judge(tmp_path, *nights, pair="6.1"):
    """Run the nightly's check on the last of these nights; returns
    (exit status, {test name: (outcome, message)}, output) for one pair
    of kernels (the nightly's tests are parametrized by base; the other
    pair has no results in these nights and skips)."""
    root = tmp_path / bh.NIGHTLY
    for i, docs in enumerate(nights):
        write_run(root / f"2026120{i + 1}-010000", docs)
    last = sorted(root.iterdir())[-1]
    xml = tmp_path / "junit.xml"
    env = {k: v for k, v in os.environ.items()
           if k != "BLKSCALE_REQUIRE_ALL"}
    env.update(BLKSCALE_NIGHTLY="1", BLKSCALE_BLKTESTS_NIGHT=str(last))
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-k", "not runs_again", f"--junitxml={xml}", str(NIGHTLY)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    cases = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        # <properties> (record_property) may come first.
        child = next((c for c in case
                      if c.tag in ("failure", "error", "skipped")), None)
        kind = "passed" if child is None else child.tag
        detail = "" if child is None else (child.get("message") or "") + \
            (child.text or "")
        name, _, base = case.get("name").partition("[")
        if base.rstrip("]") not in ("", pair):
            assert kind == "skipped", (case.get("name"), detail)
            continue
        cases[name] = (kind, child.get("type") if kind == "skipped"
                       else None, detail)
    return out.returncode, cases, out.stdout + out.stderr


def test_a_regression_fails_the_nightly(tmp_path):
    rc, cases, out = judge(tmp_path, REGRESSION)
    assert rc == 1, out
    kind, _, detail = cases["test_no_test_regresses_on_patched"]
    assert kind == "failure"
    assert "scsi/007 on scsi-0: stock-blktests 5/5, patched-blktests 0/5 " \
        "passed: regression" in detail
    assert cases["test_flaky_tests_are_a_warning_with_their_counts"][0] == \
        "passed"


def test_a_flaky_test_is_a_warning_never_a_pass(tmp_path):
    rc, cases, out = judge(tmp_path, FLAKY)
    assert rc == 0, out
    kind, type_, detail = cases[
        "test_flaky_tests_are_a_warning_with_their_counts"]
    assert (kind, type_) == ("skipped", "pytest.xfail"), out
    assert "scsi/007 on scsi-0: stock-blktests 5/5, patched-blktests 4/5 " \
        "passed: flaky" in detail
    assert "nights in a row" not in detail
    assert cases["test_no_test_regresses_on_patched"][0] == "passed"


def test_a_third_flaky_night_names_the_test(tmp_path):
    rc, cases, out = judge(tmp_path, FLAKY, FLAKY, FLAKY)
    assert rc == 0, out
    detail = cases["test_flaky_tests_are_a_warning_with_their_counts"][2]
    assert "scsi/007 on scsi-0: flaky 3 nights in a row" in detail


def test_a_test_not_run_again_fails_the_nightly(tmp_path):
    rc, cases, out = judge(tmp_path, NOT_RERUN)
    assert rc == 1, out
    kind, _, detail = cases[
        "test_every_test_that_differed_or_failed_was_run_again"]
    assert kind == "failure"
    assert "no second boot ran it" in detail


def test_a_clean_night_passes(tmp_path):
    rc, cases, out = judge(tmp_path, CLEAN)
    assert rc == 0, out
    assert {k for k, _, _ in cases.values()} == {"passed"}, cases


def test_the_6_12_pair_is_judged_as_the_6_1_pair(tmp_path):
    """A regression of the 6.12 series fails the nightly the same way."""
    night = {"stock-6.12-blktests": REGRESSION[REF],
             "patched-6.12-blktests": REGRESSION[NEW]}
    rc, cases, out = judge(tmp_path, night, pair="6.12")
    assert rc == 1, out
    kind, _, detail = cases["test_no_test_regresses_on_patched"]
    assert kind == "failure"
    assert "scsi/007 on scsi-0: stock-6.12-blktests 5/5, " \
        "patched-6.12-blktests 0/5 passed: regression" in detail
