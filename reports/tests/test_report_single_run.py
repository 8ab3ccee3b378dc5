"""A launcher run (results/<run>/summary.json, from `blkscale run`) is
reported too; plots without data say so instead of being drawn empty."""

from conftest import FIXTURES, load_json, read_tables, run_report


def test_launcher_run_layout(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    report = run_dir / "report"
    html = (report / "index.html").read_text()
    tables = read_tables(html)
    summary = load_json(FIXTURES / "smoke-run" / "summary.json")
    assert [(r[0], r[1]) for r in tables["runs"]] == [
        (summary["topology"]["name"], v) for v in summary["variants"]]
    for r in tables["runs"]:
        doc = load_json(FIXTURES / "smoke-run" / r[1] / "results.json")
        assert r[2] == str(doc["disks"]["found"]["total"])
    for r in tables["census"]:
        census = load_json(FIXTURES / "smoke-run" / r[1]
                           / "results.json")["census"]
        assert r[3] == str(census["disks_found"])
        assert r[5] == str(census["max_minor"])
    # The smoke topology runs only the census: no majors or /proc/devices.
    assert not (report / "capacity.png").exists()
    assert not (report / "procdevices.png").exists()
    assert html.count("No plot: this run has no data for it.") == 3
    assert (report / "boot_model.png").is_file()
    assert "(no data for: capacity, major_cost, procdevices)" in out.stdout
    assert "Run</dt><dd>smoke-fixture (run, complete)" in html
