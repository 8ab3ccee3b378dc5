"""The page names each variant's guest clocksource and console in its
header, and shows the top of each profiled run's guest kernel profile
(the clocksource's and console's shares and the busiest functions); a
run without a profile shows a note, not an empty table."""

import json

from conftest import load_json, read_tables, run_report

TOPO = "scale-1000"


def _edit(run_dir, variant, change):
    path = run_dir / TOPO / variant / "results.json"
    doc = load_json(path)
    change(doc)
    path.write_text(json.dumps(doc))


def _profile(clock, console, top):
    rows = [{"symbol": s, "samples": n, "percent": p} for s, n, p in top]
    return {"file": "profile.json", "interval_s": 0.2, "samples": 1200,
            "kernel_samples": 1000, "states": {"kernel": 1000, "idle": 200},
            "shares": {"clocksource": clock, "console": console},
            "self": rows, "inclusive": rows}


def _page(run_dir):
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    return (run_dir / "report" / "index.html").read_text()


def test_header_names_clock_and_console_per_variant(fixture_copy):
    run_dir = fixture_copy("scale")

    def stock(doc):
        doc["guest"]["clocksource"] = "hpet"
        doc["host"]["console"] = "serial"

    def patched(doc):
        doc["guest"]["clocksource"] = "tsc"
        doc["host"]["console"] = "quiet"
    _edit(run_dir, "stock", stock)
    _edit(run_dir, "patched", patched)
    page = _page(run_dir)
    assert "Guest clock and console" in page
    assert "stock: hpet, serial" in page
    assert "patched: tsc, quiet" in page
    md = (run_dir / "report" / "report.md").read_text()
    assert "stock: hpet, serial; patched: tsc, quiet" in md


def test_profile_table_shows_shares_and_busiest(fixture_copy):
    run_dir = fixture_copy("scale")
    _edit(run_dir, "stock", lambda d: d.__setitem__("profile", _profile(
        25.7, 29.8, [("read_hpet", 257, 25.7), ("io_serial_out", 200, 20.0),
                     ("get_device_parent", 35, 3.5)])))
    _edit(run_dir, "patched", lambda d: d.__setitem__("profile", _profile(
        0.0, 0.4, [("clear_page_erms", 90, 9.0)])))
    rows = read_tables(_page(run_dir))["profile"]
    stock = next(r for r in rows if r[1] == "stock")
    assert stock[3:6] == ["1000", "25.7%", "29.8%"]
    assert stock[6].startswith("read_hpet 25.7%, io_serial_out 20.0%")
    patched = next(r for r in rows if r[1] == "patched")
    assert patched[4:7] == ["0.0%", "0.4%", "clear_page_erms 9.0%"]


def test_no_profile_is_a_note(fixture_copy):
    run_dir = fixture_copy("scale")
    page = _page(run_dir)
    assert "profile" not in read_tables(page)
    assert "No run of this report was profiled" in page
