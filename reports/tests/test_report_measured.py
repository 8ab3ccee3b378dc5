"""`report --measured OTHER_RUN`: boots of another run (a 65,536-disk
guest is too slow for a sweep) are measured points of the capacity plan
at their disk count, beside the sweep's models."""

import json

from conftest import load_json, read_tables, run_report

VARIANTS = ["stock", "patched"]


def _as_4000_disks(run_dir):
    """The smoke run's boots, planted at 4000 disks, a row of the plan the
    sweep fixture never booted."""
    census = {}
    for v in VARIANTS:
        path = run_dir / v / "results.json"
        doc = load_json(path)
        doc["disks"]["found"]["total"] = 4000
        path.write_text(json.dumps(doc))
        census[v] = doc["boot"]["census_complete_s"]
    return census


def test_another_runs_boot_is_a_measured_point(fixture_copy):
    sweep = fixture_copy("scale")
    census = _as_4000_disks(fixture_copy("smoke-run"))
    out = run_report(sweep, "--measured", str(sweep.parent / "smoke-run"))
    assert out.returncode == 0, out.stderr
    tables = read_tables((sweep / "report" / "index.html").read_text())
    rows = {(r[0], r[1]): r for r in tables["capacity_plan"]}
    runs = tables["runs"]
    for v in VARIANTS:
        assert rows[("4000", v)][10] == f"{census[v]:.1f} (1 run)"
        assert rows[("5000", v)][10:] == ["-", "-"]
    # Only the plan reads them: the sweep's own tables are unchanged.
    assert all(r[2] != "4000" for r in runs)


def test_a_measured_run_that_is_not_one_fails_cleanly(fixture_copy,
                                                      tmp_path):
    sweep = fixture_copy("scale")
    out = run_report(sweep, "--measured", str(tmp_path / "nothing"))
    assert out.returncode != 0
    assert "nothing" in out.stderr and len(out.stderr.splitlines()) == 1
    assert not (sweep / "report").exists()
