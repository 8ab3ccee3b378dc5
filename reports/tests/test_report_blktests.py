"""The blktests section: both kernels side by side, a test that passes on
stock and fails on patched first, then other differences, then failures
and tests not run with their reasons."""

import json

from conftest import read_tables, run_report


def blktests(*tests):
    entries = [{"test": t, "device": "vda", "serial": "vblk-0",
                "status": s, "runtime_s": r, "reason": why, "diff": None,
                "dmesg": None} for t, s, r, why in tests]
    count = {k: sum(1 for e in entries if e["status"] == k)
             for k in ("passed", "failed", "not run")}
    return {"tests": entries, "wall_s": 42.0, "check_exit_status": 1,
            "summary": {"passed": count["passed"], "failed": count["failed"],
                        "not_run": count["not run"], "total": len(entries)},
            "devices": {"vblk-0": "vda"}}


STOCK = blktests(("block/001", "passed", 1.0, None),
                 ("block/002", "passed", 2.0, None),
                 ("block/003", "failed", 3.0, "output"),
                 ("loop/001", "not run", None, "driver loop is not available"),
                 ("scsi/004", "failed", 1.0, "exit status 1"))
PATCHED = blktests(("block/001", "passed", 1.1, None),
                   ("block/002", "failed", 2.5, "dmesg"),
                   ("block/003", "passed", 3.1, None),
                   ("loop/001", "not run", None, "driver loop is not available"),
                   ("scsi/004", "failed", 1.2, "exit status 1"))
# A modular kernel whose config lacks two of the modules blktests loads.
PATCHED["modules_missing"] = ["dm_dust", "ublk_drv"]


def add_blktests(run_dir):
    for variant, section in (("stock", STOCK), ("patched", PATCHED)):
        path = run_dir / variant / "results.json"
        doc = json.loads(path.read_text())
        doc["blktests"] = section
        path.write_text(json.dumps(doc))


def test_regressions_first_then_differences_then_failures(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    add_blktests(run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    tables = read_tables((run_dir / "report" / "index.html").read_text())
    rows = [(r[1], r[3]) for r in tables["blktests"]]
    assert rows == [("block/002", "regression"), ("block/003", "difference"),
                    ("scsi/004", "failed"), ("loop/001", "not run"),
                    ("block/001", "passed")]
    head = tables[("blktests", "head")][0]
    stock, patched = head.index("stock"), head.index("patched")
    regression = tables["blktests"][0]
    assert regression[stock] == "passed (2.0 s)"
    assert regression[patched] == "failed (2.5 s)"
    assert regression[-1] == "patched: dmesg"
    summary = {r[1]: r[2:6] + r[7:] for r in tables["blktests_summary"]}
    assert summary == {"stock": ["2", "2", "1", "5", "-"],
                       "patched": ["2", "2", "1", "5", "dm_dust ublk_drv"]}


def test_a_run_without_blktests_says_so(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    assert "blktests" not in read_tables(html)
    assert "This run has no blktests results" in html
