"""The report prints the clock's floor beside a ns figure within 10x of
it, the kernel's beside what the module timed (register) and user
space's beside what the tools timed (lookups, /proc/devices reads);
a missing or malformed floor prints no note and breaks nothing."""

import json

from conftest import load_json, read_tables, run_report

from blkscale_reports import series

TOPO = "scale-1000"


def _results(run_dir, variant):
    return run_dir / TOPO / variant / "results.json"


def _set_floors(run_dir, variant, kernel, user):
    path = _results(run_dir, variant)
    doc = load_json(path)
    doc["majors"]["clock_empty_kernel_ns"] = kernel
    doc["guest"]["clock_empty_user_ns"] = user
    path.write_text(json.dumps(doc))
    return doc


def _empty(median):
    return {"pairs": 2000, "median": median, "min": median,
            "min_nonzero": median}


def _report(run_dir):
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    return read_tables((run_dir / "report" / "index.html").read_text())


def _row(rows, variant):
    return next(r for r in rows if r[0] == variant)


def test_floor_beside_figures_within_10x(fixture_copy):
    run_dir = fixture_copy("scale")
    stock = load_json(_results(run_dir, "stock"))
    patched = load_json(_results(run_dir, "patched"))
    reg_stock = series.curve_median(stock, "register")
    reg_patched = series.curve_median(patched, "register")
    # stock: register at 9.5x its kernel floor; patched: at 11x
    _set_floors(run_dir, "stock", _empty(round(reg_stock / 9.5)),
                _empty(2000))
    _set_floors(run_dir, "patched", _empty(round(reg_patched / 11)),
                _empty(3000))
    tables = _report(run_dir)

    cost = tables["major_cost"]
    row = _row(cost, "stock")
    assert row[2] == f"{reg_stock:.0f} (clock floor " \
        f"{round(reg_stock / 9.5)} ns)"
    # lookup (~6,700 ns) stands on the user floor of 2,000, not the kernel's
    assert row[4].endswith("(clock floor 2,000 ns)")
    row = _row(cost, "patched")
    assert row[2] == f"{reg_patched:.0f}"
    assert row[4].endswith("(clock floor 3,000 ns)")

    proc = [r for r in tables["procdevices"] if r[0] == "stock"]
    # 147,680 ns per read is 74x the user floor: no note, per line neither
    assert proc[0][3] == "147680" and proc[0][4] == "5274.3"
    proc = [r for r in tables["procdevices"] if r[0] == "patched"]
    # 28,200 ns per read of 28 lines is within 10x of 3,000 ns, and so
    # is each line's share (1,007 ns against 107 ns)
    assert proc[0][3] == "28200 (clock floor 3,000 ns)"
    assert proc[0][4] == "1007.1 (clock floor 107 ns)"
    assert proc[1][3] == "108830"
    assert "clock floor N ns" in (run_dir / "report" / "report.md") \
        .read_text()


def test_missing_or_malformed_floor_prints_no_note(fixture_copy):
    run_dir = fixture_copy("scale")
    _set_floors(run_dir, "stock", None, {"median": "fast"})
    _set_floors(run_dir, "patched", {"median": 0, "min_nonzero": 0},
                [])
    tables = _report(run_dir)
    for tid in ("major_cost", "procdevices"):
        assert tables[tid]
        assert not any("clock floor" in c for r in tables[tid] for c in r)
