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
    verdicts = {r[8] for r in tables["boot_fits"]}
    assert verdicts == {"no fit: 2 disk count(s) measured (100, 250); a fit "
                        "needs at least 3"}
    assert all(r[2:6] == ["-", "-", "-", "-"]
               for r in tables["capacity_plan"])
    assert all(r[6] == "no model" for r in tables["capacity_plan"])
    assert "No capacity model: the run needs at least 3 different disk " \
        "counts" in html
    # Measured points are still shown, without a model: three figures
    # (census, init, host wall to census) x two variants x two disk counts.
    assert {r[4] for r in tables["boot_points"]} == {"-"}
    assert len(tables["boot_points"]) == 12
