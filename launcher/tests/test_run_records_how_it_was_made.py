"""A single `blkscale run` records, as a sweep does, the command that
started it and the project's commit in summary.json."""

import json
import subprocess

from launchertest import REPO, run_cli

TOPO = '[guest]\nvariants = ["stock"]\n[[virtio_blk]]\nid = "b"\ncount = 1\n'


def test_summary_names_the_command_and_the_commit(tmp_path, fake_env):
    topo = tmp_path / "t.toml"
    topo.write_text(TOPO)
    args = ["run", str(topo), "--accel", "tcg", "--run-id", "made",
            "--results-dir", str(tmp_path / "results"), "--quiet"]
    out = run_cli(*args, env=fake_env)
    assert out.returncode == 0, out.stderr
    doc = json.loads((tmp_path / "results" / "made" / "summary.json")
                     .read_text())
    assert doc["command"] == ["blkscale", *args]
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO,
                          capture_output=True, text=True).stdout.strip()
    assert doc["git"]["commit"] == head
    assert doc["git"]["dirty"] in (True, False)
