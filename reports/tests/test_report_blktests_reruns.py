"""The blktests table with reruns: each test that differed or failed
shows both kernels' pass counts and the reruns' verdict, a second boot's
reruns included; a third flaky night of the nightly says so; a second
boot's results that are not JSON stop the report with one line."""

import json
import shutil

from conftest import FIXTURES, read_tables, run_report

P5, F5 = ["passed"] * 5, ["failed"] * 5


def entry(test, status, **more):
    return {"test": test, "device": "sda", "serial": "scsi-0",
            "status": status, "runtime_s": 2.0,
            "reason": "output" if status == "failed" else None,
            "diff": None, "dmesg": None, **more}


def section(first, again=()):
    tests = [entry(t, s) for t, s in first.items()]
    count = {k: sum(1 for e in tests if e["status"] == k)
             for k in ("passed", "failed", "not run")}
    return {"tests": tests, "wall_s": 42.0, "check_exit_status": 1,
            "summary": {"passed": count["passed"], "failed": count["failed"],
                        "not_run": count["not run"], "total": len(tests)},
            "devices": {"scsi-0": "sda"},
            "reruns": {"requested": 5, "tests": [t for t, _ in again],
                       "rounds": 5, "stopped": None, "wall_s": 60.0,
                       "runs": [entry(t, s, round=r) for t, runs in again
                                for r, s in enumerate(runs, 1)]}}


STOCK = section({"block/001": "passed", "block/002": "passed",
                 "block/038": "failed", "scsi/004": "failed",
                 "scsi/007": "passed"},
                [("block/038", F5), ("scsi/004", F5)])
PATCHED = section({"block/001": "passed", "block/002": "failed",
                   "block/038": "failed", "scsi/004": "passed",
                   "scsi/007": "failed"},
                  [("block/002", F5), ("block/038", F5),
                   ("scsi/007", ["failed"] + P5[:4])])
# The second boots: each kernel runs again what failed only on the other.
STOCK_AGAIN = section({"block/002": "passed", "scsi/007": "passed"},
                      [("block/002", P5), ("scsi/007", P5)])
PATCHED_AGAIN = section({"scsi/004": "passed"}, [("scsi/004", P5)])


def write(run_dir, variant, blktests, second_boot=False):
    if second_boot:
        path = run_dir / f"second-boot-{variant}" / variant / "results.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"blktests": blktests}))
        return
    path = run_dir / variant / "results.json"
    doc = json.loads(path.read_text())
    doc["blktests"] = blktests
    path.write_text(json.dumps(doc))


def night(run_dir):
    write(run_dir, "stock", STOCK)
    write(run_dir, "patched", PATCHED)
    write(run_dir, "stock", STOCK_AGAIN, second_boot=True)
    write(run_dir, "patched", PATCHED_AGAIN, second_boot=True)


def table(run_dir):
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    tables = read_tables((run_dir / "report" / "index.html").read_text())
    head = tables[("blktests", "head")][0]
    return {r[1]: (r[head.index("Verdict")], r[head.index("Reruns")])
            for r in tables["blktests"]}, [r[1] for r in tables["blktests"]]


def test_reruns_give_each_test_its_verdict(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    night(run_dir)
    rows, order = table(run_dir)
    assert rows["block/002"] == (
        "regression", "stock 5/5, patched 0/5 passed: regression")
    assert rows["scsi/007"] == ("flaky", "stock 5/5, patched 4/5 passed: "
                                "flaky")
    assert rows["block/038"] == (
        "fails on both", "stock 0/5, patched 0/5 passed: fails on both "
        "(output)")
    assert rows["scsi/004"] == ("fixed",
                                "stock 0/5, patched 5/5 passed: fixed")
    assert rows["block/001"] == ("passed", "-")
    assert order == ["block/002", "scsi/007", "block/038", "scsi/004",
                     "block/001"]


def test_a_test_without_its_second_boot_cannot_be_judged(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    night(run_dir)
    shutil.rmtree(run_dir / "second-boot-stock")
    rows, _ = table(run_dir)
    assert rows["block/002"] == (
        "not rerun", "stock 0/0, patched 0/5 passed: not rerun (stock: no "
        "second boot ran it)")


def test_a_third_flaky_night_is_named(tmp_path):
    for stamp in ("20261202-010000", "20261203-010000", "20261204-010000"):
        run_dir = tmp_path / "blktests-nightly" / stamp
        shutil.copytree(FIXTURES / "smoke-run", run_dir)
        night(run_dir)
    rows, _ = table(run_dir)
    assert rows["scsi/007"][1].endswith("; flaky 3 nights in a row")
    assert "nights in a row" not in rows["block/002"][1]


def test_a_second_boot_that_is_not_json_names_the_file(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    night(run_dir)
    bad = run_dir / "second-boot-patched" / "patched" / "results.json"
    bad.write_text("{")
    out = run_report(run_dir)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1
    assert "second-boot-patched/patched/results.json: not JSON" in out.stderr
