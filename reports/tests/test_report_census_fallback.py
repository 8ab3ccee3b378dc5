"""When the census step failed, its time is not used: the probe time of
the capacity plan falls back to kernel start to init."""

import json

from conftest import read_tables, run_report


def test_failed_census_not_modelled(fixture_copy):
    run_dir = fixture_copy("scale")
    for path in run_dir.glob("*/*/results.json"):
        doc = json.loads(path.read_text())
        for step in doc["steps"]:
            if step["name"] == "census":
                step["verdict"] = "failed"
        path.write_text(json.dumps(doc))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    tables = read_tables((run_dir / "report" / "index.html").read_text())
    assert {r[0] for r in tables["boot_fits"]} == {
        "kernel start to init (disks probed)"}
    assert {r[6].split(" (")[0] for r in tables["capacity_plan"]} == {
        "kernel start to init"}
