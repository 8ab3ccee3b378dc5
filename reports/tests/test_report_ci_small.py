"""The ci-small sweep (every step, one disk count): the census and I/O
tables come from the fixture, and one disk count fits no model: the page
says so once and draws no curve."""

from conftest import FIXTURES, load_json, read_tables, run_report


def test_ci_small(fixture_copy):
    run_dir = fixture_copy("ci-small")
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    report = run_dir / "report"
    tables = read_tables((report / "index.html").read_text())
    for r in tables["census"]:
        c = load_json(FIXTURES / "ci-small" / r[0] / r[1]
                      / "results.json")["census"]
        assert r[2:8] == [str(c["disks_expected"]), str(c["disks_found"]),
                          "yes" if c["devt_unique"] else "no",
                          str(c["max_minor"]), str(c["disks_minor_over_255"]),
                          str(c["read_ok"])]
    assert len(tables["census"]) == 2
    # One disk count: no model, no "no fit" rows, one note says why.
    html = (report / "index.html").read_text()
    assert "boot_fits" not in tables and "capacity_plan" not in tables
    assert "no fit" not in html
    assert html.count("1 disk count(s) measured (104); a fit needs at "
                      "least 3") == 1
    # Every plot is drawn: dots and intervals where there is one count.
    assert sorted(p.name for p in report.glob("*.png")) == sorted(
        ["capacity.png", "major_cost.png", "procdevices.png",
         "boot_dots.png", "memory_dots.png"])
