"""Holes a failure could slip through, closed: each case edits a copy of
a committed nightly that added repeats and was then interrupted
(evidence/20261204-nightly-judged: five repeats of three
topologies on both kernels, a sixth round stopped by SIGINT), judges it
with `./blkscale nightly --compare` against the committed baselines
(made from a separate run), and must see the failure named."""

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from blkscale.paths import REPO

EVIDENCE = REPO / "evidence" / "20261204-nightly-judged"
# The baselines these committed runs were judged with, before the night
# of 2026-12-06 refreshed bench/baselines (147 dynamic char majors, v4).
BASELINES = REPO / "evidence" / "20261206-night" / "baselines-before"
TOPO = "stress-1000"


@pytest.fixture
def sweep(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(EVIDENCE, run)
    for name in ("nightly.json", "nightly.xml"):
        (run / name).unlink(missing_ok=True)
    return run


def _manifest(run):
    return json.loads((run / "manifest.json").read_text())


def _save(run, doc):
    (run / "manifest.json").write_text(json.dumps(doc))


def _entry(doc, variant, repeat, topo=TOPO):
    return next(r for r in doc["runs"] if r["topology"] == topo and
                r["variant"] == variant and r["repeat"] == repeat)


def _results(run, variant, repeat, topo=TOPO):
    return run / topo / variant / str(repeat) / "results.json"


def _edit_results(run, variant, repeat, func):
    path = _results(run, variant, repeat)
    doc = json.loads(path.read_text())
    func(doc)
    path.write_text(json.dumps(doc))


def _judge(run):
    out = subprocess.run([str(REPO / "blkscale"), "nightly", "--compare",
                          str(run), "--baselines", str(BASELINES)],
                         capture_output=True, text=True, cwd=REPO,
                         timeout=300)
    return out, ET.parse(run / "nightly.xml").getroot()


def _bad(root, variant, topo=TOPO):
    """{case name: (tag, type, message)} of a suite's failing cases."""
    out = {}
    for case in root.find(f"testsuite[@name='nightly.{topo}.{variant}']"):
        for tag in ("failure", "error"):
            node = case.find(tag)
            if node is not None and case.tag == "testcase":
                out[case.get("name")] = (tag, node.get("type"),
                                         node.get("message"))
    return out


def _panic_in_round_six(doc):
    """The round the signal stopped: stock's repeat 6 ran first and
    panicked, patched's was interrupted 0.6 s in."""
    stopped = _entry(doc, "patched", 6)
    panicked = dict(stopped, variant="stock", outcome="panic",
                    exit_status=5, results=None, console=None,
                    message="Kernel panic - not syncing: sysrq triggered "
                            "crash")
    doc["runs"].insert(doc["runs"].index(stopped), panicked)


def test_the_copy_as_committed_fails_nothing(sweep):
    out, root = _judge(sweep)
    assert out.returncode in (0, 3), out.stdout + out.stderr
    assert root.get("failures") == "0"
    assert not _bad(root, "stock") or all(
        kind == "inconclusive" for _, kind, _ in _bad(root, "stock").values())


def test_a_panic_in_an_interrupted_added_round_counts(sweep):
    """As an older nightly left it: only the sweep's status says it was
    interrupted.  The panic counts; the interrupted run is left out."""
    doc = _manifest(sweep)
    _panic_in_round_six(doc)
    doc["status"], doc["partial_reason"] = "partial", "interrupted by SIGINT"
    _save(sweep, doc)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    assert "nightly verdict: REGRESSION" in out.stdout
    tag, kind, message = _bad(root, "stock")["run repeat 6"]
    assert (tag, kind) == ("error", "run-failed")
    assert message.startswith("repeat 6: panic: Kernel panic")
    assert "run repeat 6" not in _bad(root, "patched")


def test_a_panic_in_a_stopped_round_as_recorded_counts(sweep):
    """As the nightly now records it: the round in `rounds`, stopped,
    the interrupted run superseded, the sweep complete."""
    doc = _manifest(sweep)
    _panic_in_round_six(doc)
    _entry(doc, "patched", 6).update(superseded=True)
    doc["rounds"] = [{"repeat": r, "topologies": list(
        doc["sweep"]["topologies"]), "variants": ["stock", "patched"],
        "status": "done"} for r in (4, 5)]
    doc["rounds"].append({"repeat": 6, "topologies": [TOPO],
                          "variants": ["stock", "patched"],
                          "status": "stopped", "why": "interrupted"})
    doc["decide_stopped"] = {"repeat": 6, "reason": "interrupted by SIGINT"}
    _save(sweep, doc)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    assert _bad(root, "stock")["run repeat 6"][2].startswith(
        "repeat 6: panic")
    assert "run repeat 6" not in _bad(root, "patched")


def test_a_missing_run_of_a_recorded_round_fails(sweep):
    """Round 6 recorded as planned (the nightly died before it ran):
    both its runs are missing, and missing is a failure."""
    doc = _manifest(sweep)
    doc["runs"].remove(_entry(doc, "patched", 6))
    doc["rounds"] = [{"repeat": 6, "topologies": [TOPO],
                      "variants": ["stock", "patched"],
                      "status": "planned"}]
    _save(sweep, doc)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    for variant in ("stock", "patched"):
        assert _bad(root, variant)["run repeat 6"][2] == \
            "repeat 6: not run: planned, and missing from the manifest"


def test_a_missing_run_of_a_finished_round_fails(sweep):
    """Round 5 recorded as done, but stock's run is not in the manifest."""
    doc = _manifest(sweep)
    doc["runs"].remove(_entry(doc, "stock", 5))
    doc["rounds"] = [{"repeat": r, "topologies": [TOPO],
                      "variants": ["stock", "patched"], "status": "done"}
                     for r in (4, 5)]
    _save(sweep, doc)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    assert _bad(root, "stock")["run repeat 5"][1] == "run-failed"
    assert "run repeat 5" not in _bad(root, "patched")


def test_a_time_missing_in_one_repeat_is_missing(sweep):
    """Losing one repeat's census time is not judged on the other four."""
    _edit_results(sweep, "patched", 2,
                  lambda d: d["boot"].pop("census_complete_s"))
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    bad = _bad(root, "patched")
    for name in ("census_complete_s", "census_complete_s_vs_stock"):
        tag, kind, message = bad[name]
        assert (tag, kind) == ("failure", "missing")
        assert message.startswith(f"{name}: missing in repeat 2 (brought "
                                  "by 4 of 5)")


def test_a_stock_results_in_the_patched_slot_fails(sweep):
    shutil.copy(_results(sweep, "stock", 2), _results(sweep, "patched", 2))
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    tag, kind, message = _bad(root, "patched")["run repeat 2"]
    assert kind == "run-failed"
    assert message == ("repeat 2: results-mismatch: results.json "
                       "kernel.variant is 'stock', the manifest's run "
                       "'patched'")


@pytest.mark.parametrize("field, value, said", [
    ("release", "6.1.192-stock", "kernel.release is '6.1.192-stock'"),
    ("run", "stress-1000.patched.3", "run.id is 'stress-1000.patched.3'"),
    ("topology", "oracle-4000-verify",
     "topology.name is 'oracle-4000-verify'"),
])
def test_results_of_another_run_fail(sweep, field, value, said):
    def edit(doc):
        if field == "release":
            doc["kernel"]["release"] = value
        elif field == "run":
            doc["run"]["id"] = value
        else:
            doc["topology"]["name"] = value
    _edit_results(sweep, "patched", 2, edit)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    message = _bad(root, "patched")["run repeat 2"][2]
    assert message.startswith(f"repeat 2: results-mismatch: results.json "
                              f"{said}")


@pytest.mark.parametrize("edit, said", [
    (lambda d: d["outcome"].update(kind="step-failed", status=1,
                                   message="failed steps: lvm"),
     "results-not-ok: results.json outcome 'step-failed' (status 1): "
     "failed steps: lvm"),
    (lambda d: d.pop("outcome"),
     "results-not-ok: results.json has no outcome"),
    (lambda d: d["census"].update(ok=False),
     "results-not-ok: census: ok false"),
    (lambda d: d["census"].update(read_failed=3),
     "results-not-ok: census: read_failed 3"),
    (lambda d: d["census"].update(consistency_errors=1),
     "results-not-ok: census: consistency_errors 1"),
    (lambda d: d["census"].update(devt_unique=False),
     "results-not-ok: census: devt_unique false"),
    (lambda d: d["census"].pop("read_failed"),
     "results-not-ok: census: read_failed missing"),
])
def test_results_that_say_they_failed_fail(sweep, edit, said):
    """The manifest says ok; results.json's own outcome or the census's
    own consistency fields say otherwise."""
    _edit_results(sweep, "patched", 3, edit)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    assert _bad(root, "patched")["run repeat 3"][2] == f"repeat 3: {said}"


def test_one_repeat_of_memory_beyond_its_tolerance_fails(sweep):
    """Memory is judged repeat by repeat: one spike fails at once."""
    def spike(doc):
        doc["memory"]["guest_slab_kib_per_disk"] *= 1.3
    _edit_results(sweep, "patched", 4, spike)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    tag, kind, message = _bad(root, "patched")["guest_slab_kib_per_disk"]
    assert (tag, kind) == ("failure", "regression")
    assert message.startswith("guest_slab_kib_per_disk: repeat 4: ")
