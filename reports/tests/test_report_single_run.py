"""A launcher run (results/<run>/summary.json, from `blkscale run`) is
reported too; plots without data say so instead of being drawn empty."""

import json
import shutil

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
    assert (report / "boot_dots.png").is_file()
    assert "(no data for: capacity, major_cost, procdevices)" in out.stdout
    assert "Run</dt><dd>smoke-fixture (run, complete)" in html


def test_launcher_run_with_repeats(tmp_path):
    """`blkscale run --repeat 2`: <variant>/<k>/results.json, every run
    listed in summary.json's runs; each repeat is its own row."""
    src = FIXTURES / "smoke-run"
    run_dir = tmp_path / "smoke-rep"
    summary = load_json(src / "summary.json")
    runs = []
    for k, order in ((1, ["stock", "patched"]), (2, ["patched", "stock"])):
        for v in order:
            (run_dir / v / str(k)).mkdir(parents=True)
            shutil.copy(src / v / "results.json", run_dir / v / str(k))
            entry = dict(summary["variants"][v], variant=v, repeat=k,
                         results=f"{v}/{k}/results.json")
            runs.append(entry)
    summary.update(repeat=2, reference="stock", runs=runs)
    (run_dir / "summary.json").write_text(json.dumps(summary))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    tables = read_tables((run_dir / "report" / "index.html").read_text())
    assert sorted((r[0], r[1]) for r in tables["runs"]) == sorted(
        [("smoke", "stock"), ("smoke", "patched")] * 2)


def test_launcher_run_with_a_bad_runs_entry(tmp_path):
    src = FIXTURES / "smoke-run"
    run_dir = tmp_path / "smoke-bad"
    shutil.copytree(src, run_dir)
    summary = load_json(src / "summary.json")
    summary["runs"] = [{"repeat": 1, "results": "stock/results.json"}]
    (run_dir / "summary.json").write_text(json.dumps(summary))
    out = run_report(run_dir)
    assert out.returncode == 2
    assert "summary.json: runs[0].variant: missing or not a string" in \
        out.stderr


def test_launcher_run_header_names_command_and_commit(fixture_copy):
    """What `blkscale run` records of how it was made reaches the page."""
    run_dir = fixture_copy("smoke-run")
    path = run_dir / "summary.json"
    summary = json.loads(path.read_text())
    summary["command"] = ["blkscale", "run", "topologies/smoke.toml"]
    summary["git"] = {"commit": "0123456789abcdef", "dirty": False}
    path.write_text(json.dumps(summary))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    assert "Command</dt><dd>blkscale run topologies/smoke.toml<" in html
    assert "Project commit</dt><dd>0123456789abcdef<" in html
