"""`blkscale run --repeat N`: the order of the runs, the summary's
medians and ratios, and a real boot of the smoke topology twice on both
kernels (needs `make kernel initramfs`; skipped without)."""

import json

import pytest

from blkscale.session import repeats, summary
from blkscale.session.variant import Outcome
from launchertest import REPO, TOPOLOGIES, need_built, run_cli


class Topo:
    name = "t"
    path = REPO / "topologies" / "smoke.toml"


def outcome(variant, census, kind="ok", status=0):
    return Outcome(variant, status, kind, "", {"total": 4},
                   {"total": 4} if kind == "ok" else None,
                   {"qemu_start_s": 0.5, "kernel_to_init_s": 1.0,
                    "census_complete_s": census})


def test_order_alternates_between_repeats():
    assert repeats.order(["stock", "patched"], 3) == [
        (1, "stock"), (1, "patched"), (2, "patched"), (2, "stock"),
        (3, "stock"), (3, "patched")]
    assert repeats.out_rel("stock", 2, 1) == "stock"
    assert repeats.out_rel("stock", 2, 3) == "stock/2"


def test_summary_gives_medians_and_paired_ratios(tmp_path):
    runs = [(1, outcome("stock", 10.0)), (1, outcome("patched", 5.0)),
            (2, outcome("patched", 6.0)), (2, outcome("stock", 12.0)),
            (3, outcome("stock", 11.0)), (3, outcome("patched", 4.4))]
    doc = summary.document("r", Topo, "tcg", "why", "a", "b", runs, 0,
                           tmp_path, repeat=3)
    assert doc["repeat"] == 3 and doc["reference"] == "stock"
    assert [(r["variant"], r["repeat"]) for r in doc["runs"]] == \
        [("stock", 1), ("patched", 1), ("patched", 2), ("stock", 2),
         ("stock", 3), ("patched", 3)]
    census = doc["variants"]["stock"]["figures"]["census_complete_s"]
    assert (census["median"], census["min"], census["max"]) == (11, 10, 12)
    ratio = doc["variants"]["patched"]["vs_stock"]["census_complete_s"]
    # Paired by repeat: 5/10, 6/12, 4.4/11, not the ratio of the medians.
    assert ratio["values"] == {"1": 0.5, "2": 0.5, "3": 0.4}
    assert ratio["median"] == 0.5
    out, errs = summary.report(doc, runs, None)
    text = "\n".join(out)
    assert "census 11.00 [10.00-12.00 75%] s" in text
    assert "patched/stock: " in text and "census_complete_s 0.500x " \
        "[0.400-0.500, 75%]" in text
    # Equal in every repeat: no spread, and nothing to doubt.
    assert "qemu_start_s 1.000x," in text
    assert errs == []


def test_a_failed_repeat_is_shown_and_left_out_of_the_figures(tmp_path):
    runs = [(1, outcome("stock", 10.0)), (1, outcome("patched", 5.0)),
            (2, outcome("patched", 99.0, kind="timeout", status=4)),
            (2, outcome("stock", 12.0))]
    doc = summary.document("r", Topo, "tcg", "why", "a", "b", runs, 4,
                           tmp_path, repeat=2)
    patched = doc["variants"]["patched"]
    assert patched["outcome"] == "timeout" and patched["exit_status"] == 4
    assert patched["repeats_ok"] == 1
    assert patched["figures"]["census_complete_s"]["values"] == {"1": 5.0}
    assert patched["vs_stock"]["census_complete_s"]["values"] == {"1": 0.5}
    out, _ = summary.report(doc, runs, None)
    assert any("patched #2" in line and "timeout" in line for line in out)
    assert not any("stock #1" in line for line in out)


@pytest.mark.parametrize("value", ["0", "51"])
def test_repeat_out_of_range_is_one_line(tmp_path, value):
    r = run_cli("run", str(TOPOLOGIES / "smoke.toml"), "--repeat", value,
                "--results-dir", str(tmp_path))
    assert r.returncode == 2
    assert "--repeat" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_smoke_twice_on_both_kernels(tmp_path):
    need_built("stock")
    need_built("patched")
    r = run_cli("run", str(TOPOLOGIES / "smoke.toml"), "--repeat", "2",
                "--variant", "stock", "--variant", "patched", "--quiet",
                "--run-id", "rep", "--results-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    run = tmp_path / "rep"
    doc = json.loads((run / "summary.json").read_text())
    assert [(x["variant"], x["repeat"]) for x in doc["runs"]] == \
        [("stock", 1), ("patched", 1), ("patched", 2), ("stock", 2)]
    for x in doc["runs"]:
        assert x["outcome"] == "ok"
        assert (run / x["results"]).is_file()
        assert x["results"] == f"{x['variant']}/{x['repeat']}/results.json"
    census = doc["variants"]["patched"]["vs_stock"]["census_complete_s"]
    assert census["n"] == 2
    assert "median of 2 repeats" in r.stdout and "patched/stock:" in r.stdout
