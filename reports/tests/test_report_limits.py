"""The Limits hit section: a run whose kernel refused devices gets a row
per limit; runs that read their log and hit nothing say so; runs without
a log are not counted as clean."""

import json

from conftest import read_tables, run_report

SG = {"subsystem": "sg", "devices": 32768, "first": "2:0:0:0",
      "first_s": 812.25, "limit": 32768,
      "message": "scsi 2:0:0:0: Unable to attach sg device type=0, minor "
                 "number exceeds 32767"}


def _with(fixture_copy, limits, expected=None):
    run_dir = fixture_copy("pathfail-run")
    path = run_dir / "debian" / "results.json"
    doc = json.loads(path.read_text())
    doc["limits"] = limits
    if expected is not None:
        doc["topology"]["limits_expected"] = expected
    path.write_text(json.dumps(doc))
    assert run_report(run_dir).returncode == 0
    return (run_dir / "report" / "index.html").read_text()


def test_a_limit_hit_is_a_row(fixture_copy):
    html = _with(fixture_copy, [SG], expected=["sg"])
    (row,) = read_tables(html)["limits"]
    assert row[:10] == ["multipath-pathfail", "debian", "1", "sg", "32768",
                        "2:0:0:0", "812.250", "-", "32768", "yes"]
    assert row[10].endswith("minor number exceeds 32767")


def test_the_disks_a_refusal_lost_are_in_its_row(fixture_copy):
    bsg = {"subsystem": "bsg", "devices": 128, "first": "32:0:0:0",
           "first_s": 69.27, "limit": None, "disks_missing": 32768,
           "disks_expected": 65536,
           "message": "scsi 32:0:0:0: bsg: too many bsg devices"}
    html = _with(fixture_copy, [bsg], expected=["bsg"])
    (row,) = read_tables(html)["limits"]
    assert row[3:8] == ["bsg", "128", "32:0:0:0", "69.270", "32768"]


def test_a_clean_log_is_said_to_be_clean(fixture_copy):
    html = _with(fixture_copy, [])
    assert "limits" not in read_tables(html)
    assert "No run hit a limit: the kernel logs of 1 run(s) show no " \
        "refusal and held the whole boot." in html


def test_no_log_is_not_clean(fixture_copy):
    html = _with(fixture_copy, None)
    assert "No run of this report brought its kernel log home." in html
    assert "No run hit a limit" not in html
