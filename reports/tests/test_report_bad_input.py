"""Bad input: one line naming the file and field, exit status 2, and no
report directory left behind."""

import json

from conftest import run_report


def test_not_a_run_directory(tmp_path):
    out = run_report(tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"{tmp_path}: neither manifest.json (a sweep) nor summary.json "
        "(a run): not a run directory")
    assert list(tmp_path.iterdir()) == []


def test_missing_results_file(fixture_copy):
    run_dir = fixture_copy("scale")
    (run_dir / "scale-500" / "patched" / "results.json").unlink()
    out = run_report(run_dir)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{run_dir}/manifest.json: runs[")
    assert lines[0].endswith("].results: scale-500/patched/results.json: "
                             "missing")
    assert not (run_dir / "report").exists()
    assert not [p for p in run_dir.iterdir() if p.name.startswith(".report")]


def test_wrong_schema(fixture_copy):
    run_dir = fixture_copy("scale")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["schema"]["name"] = "something-else"
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    out = run_report(run_dir)
    assert out.returncode == 2
    assert out.stderr.strip() == \
        f"{run_dir}/manifest.json: schema.name: is not blkscale-sweep"
