"""A sweep that was interrupted is reported with a warning, from the runs
that brought results."""

import json

from conftest import read_tables, run_report


def test_partial_sweep_warning(fixture_copy):
    run_dir = fixture_copy("scale")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["status"] = "partial"
    manifest["partial_reason"] = "interrupted by SIGINT"
    last = manifest["runs"][-1]
    last.update(outcome="interrupted", message="stopped by a signal",
                results=None)
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    assert '<p class="warning" id="partial">This run is partial: ' \
        "interrupted by SIGINT." in html
    assert "**This run is partial: interrupted by SIGINT." in \
        (run_dir / "report" / "report.md").read_text()
    tables = read_tables(html)
    runs = {(r[0], r[1]): r for r in tables["runs"]}
    assert runs[(last["topology"], last["variant"])][4] == \
        "interrupted: stopped by a signal"
    assert len(tables["memory"]) == 7
