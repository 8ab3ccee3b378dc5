"""The Multipath section: a run with LUNs on two paths and a path
removed under fio (the pathfail-run fixture, a real run of
topologies/multipath-pathfail.toml) gets its row; a run without paths
gets the section's note instead."""

import json

from conftest import FIXTURES, load_json, read_tables, run_report

COLUMNS = ["Topology", "Variant", "Repeat", "Maps (found / LUNs)",
           "Paths active / expected", "Unclaimed", "Maps built (s)",
           "multipathd RSS (MiB)", "multipathd CPU (s)",
           "Boot to census (s)", "Paths removed", "Failover (s)",
           "Kernel failover (s)", "Reinstated (s)",
           "Maps verified through it"]


def test_a_path_removed_under_fio_is_a_row(fixture_copy):
    run_dir = fixture_copy("pathfail-run")
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    (row,) = read_tables(html)["multipath"]
    doc = load_json(FIXTURES / "pathfail-run" / "debian" / "results.json")
    mp, pf = doc["multipath"], doc["pathfail"]
    cells = dict(zip(COLUMNS, row))
    assert cells["Topology"] == "multipath-pathfail"
    assert cells["Maps (found / LUNs)"] == f"{mp['maps']} / 8"
    assert cells["Paths active / expected"] == "16 / 16"
    assert cells["Maps built (s)"] == f"{mp['build_s']:.2f}"
    assert cells["Paths removed"] == "1 for 10 s"
    assert cells["Failover (s)"] == f"{pf['failover_s']:.2f}"
    assert cells["Kernel failover (s)"] == \
        f"{pf['kernel']['failover_s']:.2f}"
    assert cells["Reinstated (s)"] == f"{pf['reinstate_s']:.2f}"
    assert cells["Maps verified through it"] == "8/8"
    md = (run_dir / "report" / "report.md").read_text()
    assert "## Multipath" in md


def test_maps_not_verified_show(fixture_copy):
    """A fio through the maps that verified nothing shows 0 of 8, not a
    pass."""
    run_dir = fixture_copy("pathfail-run")
    path = run_dir / "debian" / "results.json"
    doc = json.loads(path.read_text())
    doc["pathfail"]["fio_derived"]["disks_verified"] = 0
    path.write_text(json.dumps(doc))
    assert run_report(run_dir).returncode == 0
    html = (run_dir / "report" / "index.html").read_text()
    assert read_tables(html)["multipath"][0][-1] == "0/8"


def test_no_paths_no_rows(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    assert run_report(run_dir).returncode == 0
    html = (run_dir / "report" / "index.html").read_text()
    assert "multipath" not in read_tables(html)
    assert "No run of this report had LUNs on several paths" in html
