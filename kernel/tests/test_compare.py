"""kernel/measure/compare.py, the cover letter's figures: its tables from
saved rounds (no boot), and its one-line refusals."""

import json
import os
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
COMPARE = TOP / "kernel" / "measure" / "compare.py"


def compare(*args):
    env = dict(os.environ, PYTHONPATH=str(TOP / "launcher"))
    return subprocess.run([sys.executable, str(COMPARE), *args],
                          capture_output=True, text=True, cwd=TOP, env=env)


def test_tables_from_saved_rounds(tmp_path):
    saved = tmp_path / "rounds.json"
    saved.write_text(json.dumps({
        "stock": {"0": {"register_p50_ns": 1000},
                  "1": {"register_p50_ns": 1200},
                  "2": {"register_p50_ns": 900}},
        "v2": {"0": {"register_p50_ns": 500},
               "1": {"register_p50_ns": 900},
               "2": {"register_p50_ns": 450}}}))
    out = compare("--from", str(saved))
    assert out.returncode == 0, out.stderr
    figures, ratios = out.stdout.split("ratio to stock, paired by round")
    rows = {line[:40].strip(): line[40:] for line in figures.splitlines()}
    assert "1000 (900-1200, n=3)" in rows["register_blkdev(0) p50, ns"]
    assert "500 (450-900, n=3)" in rows["register_blkdev(0) p50, ns"]
    # Round by round: 0.5, 0.75, 0.5 -- not 500/1000 of the medians alone.
    assert "0.500 (0.500-0.750, n=3)" in ratios
    # A figure no round has is a dash, not a zero.
    assert rows["/proc/devices read, 0 added, ns"].split() == ["-", "-"]


def test_bad_kernel_and_bad_saved_file_are_refused(tmp_path):
    out = compare("stock=nobuild")
    assert out.returncode == 2
    assert "expected LABEL=BUILD:VARIANT" in out.stderr.splitlines()[-1]
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    out = compare("--from", str(bad))
    assert out.returncode == 2
    assert "not a file --out wrote" in out.stderr.splitlines()[-1]
    out = compare()
    assert out.returncode == 2 and "name at least one kernel" in out.stderr
