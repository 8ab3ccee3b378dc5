"""With fewer than three disk counts the report fits nothing and says
why, instead of drawing a line through two points."""

import json

from conftest import read_tables, run_report


def test_two_disk_counts_no_fit(fixture_copy):
    run_dir = fixture_copy("scale")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    keep = ("scale-100", "scale-250")
    manifest["runs"] = [r for r in manifest["runs"] if r["topology"] in keep]
    manifest["sweep"]["topologies"] = {
        k: v for k, v in manifest["sweep"]["topologies"].items() if k in keep}
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    tables = read_tables(html)
    # No row of a model that was not fitted, and one note says why.
    for tid in ("boot_fits", "memory_fits", "capacity_plan",
                "capacity_error"):
        assert tid not in tables, tid
    assert "no fit" not in html
    assert html.count("No model for any kernel: 2 disk count(s) measured "
                      "(100, 250); a fit needs at least 3") == 1
    assert "No capacity model: the run needs at least 3 different disk " \
        "counts" in html
    # Dots and intervals instead of curves.
    report = run_dir / "report"
    assert (report / "boot_dots.png").is_file()
    assert not (report / "boot_model.png").exists()
    # Measured points are still shown, without a model: three figures
    # (census, init, host wall to census) x two variants x two disk counts.
    assert {r[4] for r in tables["boot_points"]} == {"-"}
    assert len(tables["boot_points"]) == 12
