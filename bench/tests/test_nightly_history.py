"""Each judged night joins the history beside the nights
(results/nightly-history.jsonl): its figures with their spread and
verdicts, once however often it is judged; `blkscale report --history`
marks the night a verdict changed."""

import json
import subprocess

from blkscale.paths import REPO
from blkscale.results import history
from test_nightly_end_to_end import _baseline


def test_nights_join_the_history(bench_env):
    bases = _baseline(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n1")
    assert out.returncode == 0, out.stdout + out.stderr
    path = bench_env.results / history.FILENAME
    first = history.read(path)
    assert {x["night"] for x in first} == {"n1"}
    line = next(x for x in first if x["variant"] == "patched" and
                x["figure"] == "procdevices_ns_per_read_0_vs_stock"
                and "max_ratio" in (x["limit"] or {}))
    assert line["verdict"] == "pass" and line["gate"] is True
    assert line["low"] <= line["median"] <= line["high"]
    assert line["kernels"] and line["night_verdict"] == "PASS"

    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n2",
                        FAKE_FACTOR="2.5", FAKE_VARIANT="patched")
    assert out.returncode == 1
    # Judged again: the night's lines are replaced, not doubled.
    out = bench_env.run_plain("nightly", "--compare",
                              str(bench_env.results / "n2"),
                              "--sweep", str(bench_env.sweep),
                              "--baselines", str(bases))
    lines = history.read(path)
    assert len([x for x in lines if x["night"] == "n1"]) == len(first)
    n2 = [x for x in lines if x["night"] == "n2"]
    assert len(n2) == len({(x["topology"], x["variant"], x["figure"],
                            json.dumps(x["limit"])) for x in n2})
    page = bench_env.tmp / "history"
    done = subprocess.run([str(REPO / "blkscale"), "report", "--history",
                           str(path), "--out", str(page)],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    html = (page / "index.html").read_text()
    assert "<td>pass: 0.3</td><td>n1</td><td>regression: 0.75" in html
