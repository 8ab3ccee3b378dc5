"""blkscale_bench.slowdown: a copy of a sweep with one variant's times
multiplied, counts and memory intact; bad input refused in one line."""

import json
import subprocess

from blkscale.paths import REPO
from blkscale_bench import slowdown

EVIDENCE = REPO / "evidence" / "20261204-nightly-judged"
RESULTS = "stress-1000/{}/2/results.json"


def _doc(run, variant):
    return json.loads((run / RESULTS.format(variant)).read_text())


def test_times_multiplied_counts_and_memory_kept(tmp_path):
    out = tmp_path / "copy"
    slowdown.copy(str(EVIDENCE), str(out), "patched", 1.5, idle=True)
    before, after = _doc(EVIDENCE, "patched"), _doc(out, "patched")
    assert after["boot"]["census_complete_s"] == \
        before["boot"]["census_complete_s"] * 1.5
    assert after["majors"]["block"]["register"][0]["p50_ns"] == \
        before["majors"]["block"]["register"][0]["p50_ns"] * 1.5
    assert after["disks"] == before["disks"]
    assert after["memory"] == before["memory"]
    assert _doc(out, "stock") == _doc(EVIDENCE, "stock")
    manifest = json.loads((out / "manifest.json").read_text())
    assert all(r["host_load"]["others_cpu_share"] == 0.0
               for r in manifest["runs"] if r.get("host_load"))
    assert not (out / "nightly.json").exists()


def test_boot_only_leaves_the_calls(tmp_path):
    out = tmp_path / "copy"
    slowdown.copy(str(EVIDENCE), str(out), "patched", 2.0, boot_only=True)
    before, after = _doc(EVIDENCE, "patched"), _doc(out, "patched")
    assert after["boot"]["kernel_to_init_s"] == \
        before["boot"]["kernel_to_init_s"] * 2.0
    assert after["majors"] == before["majors"]
    assert after["procdevices"] == before["procdevices"]


def test_bad_input_is_one_line(tmp_path):
    def run(*args):
        return subprocess.run(["/usr/bin/python3", "-m",
                               "blkscale_bench.slowdown", *args],
                              capture_output=True, text=True, cwd=REPO,
                              env={"PYTHONPATH": "launcher:bench"})
    out = run(str(tmp_path), str(tmp_path / "x"), "--factor", "2")
    assert out.returncode == 2
    assert out.stderr == f"{tmp_path}/manifest.json: missing: not a sweep " \
        "run directory\n"
    out = run(str(EVIDENCE), str(tmp_path / "x"), "--factor", "0")
    assert out.returncode == 2 and out.stderr == \
        "--factor: must be positive\n"
    assert not (tmp_path / "x").exists()
