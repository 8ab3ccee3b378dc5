"""Faults injected into a copy of a committed nightly (three repeats of
stress-1000, oracle-4000-verify and ibm-5000-verify on both kernels),
judged against the committed baselines: each must fail the nightly with
a non-zero exit and a JUnit case that names the repeat.  The unmodified
copy is the control: nothing in it fails."""

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from blkscale.paths import REPO

EVIDENCE = REPO / "evidence" / "20261204-nightly-verify"
# The baselines these committed runs were judged with, before the night
# of 2026-12-06 refreshed bench/baselines (147 dynamic char majors, v4).
BASELINES = REPO / "evidence" / "20261206-night" / "baselines-before"
TOPO, VARIANT = "stress-1000", "patched"


@pytest.fixture
def sweep(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(EVIDENCE, run)
    for name in ("nightly.json", "nightly.xml"):
        (run / name).unlink(missing_ok=True)
    return run


def _entry(manifest, repeat):
    return next(r for r in manifest["runs"] if r["topology"] == TOPO and
                r["variant"] == VARIANT and r["repeat"] == repeat)


def _edit_manifest(run, func):
    path = run / "manifest.json"
    doc = json.loads(path.read_text())
    func(doc)
    path.write_text(json.dumps(doc))


def _edit_results(run, repeat, func):
    path = run / TOPO / VARIANT / str(repeat) / "results.json"
    doc = json.loads(path.read_text())
    func(doc)
    path.write_text(json.dumps(doc))


def _sweep_as_run(run):
    """nightly.toml as the run was made with it: stress-1000's times
    gating (the shipped file gates none: nightly-gated.toml does)."""
    text = (REPO / "bench" / "sweeps" / "nightly.toml").read_text()
    path = run.parent / "nightly-as-run.toml"
    assert "\ngate_times = []\n" in text
    path.write_text(text.replace('\ngate_times = []\n',
                                 '\ngate_times = ["stress-1000"]\n'))
    return path


def _judge(run):
    out = subprocess.run([str(REPO / "blkscale"), "nightly", "--compare",
                          str(run), "--sweep", str(_sweep_as_run(run)),
                          "--baselines", str(BASELINES)],
                         capture_output=True, text=True, cwd=REPO,
                         timeout=300)
    root = ET.parse(run / "nightly.xml").getroot()
    return out, root


def _bad_cases(root, suite=f"nightly.{TOPO}.{VARIANT}"):
    """{case name: (element tag, type, message, text)} of the failing
    and erroring cases of a suite."""
    out = {}
    for case in root.find(f"testsuite[@name='{suite}']"):
        if case.tag != "testcase":
            continue
        for tag in ("failure", "error"):
            node = case.find(tag)
            if node is not None:
                out[case.get("name")] = (tag, node.get("type"),
                                         node.get("message"), node.text or "")
    return out


def _panic(repeat):
    def inject(run):
        rel = f"{TOPO}/{VARIANT}/{repeat}"
        (run / rel / "results.json").unlink()
        (run / rel / "console.log").write_text(
            "[   31.2] sysrq: Trigger a crash\n[   31.2] Kernel panic - not "
            "syncing: sysrq triggered crash\n")

        def entry(doc):
            e = _entry(doc, repeat)
            e.update(outcome="panic", exit_status=5, results=None,
                     console=f"{rel}/console.log",
                     message="Kernel panic - not syncing: sysrq triggered "
                             "crash")
        _edit_manifest(run, entry)
    return inject


def test_the_unmodified_copy_fails_nothing(sweep):
    out, root = _judge(sweep)
    assert out.returncode in (0, 3), out.stdout + out.stderr
    assert root.get("failures") == "0"
    assert "REGRESSION" not in out.stdout.split("judged times")[0]


@pytest.mark.parametrize("repeat", [2, 3])
def test_a_panic_in_one_repeat_fails(sweep, repeat):
    _panic(repeat)(sweep)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "nightly verdict: REGRESSION" in out.stdout
    bad = _bad_cases(root)
    tag, kind, message, text = bad[f"run repeat {repeat}"]
    assert (tag, kind) == ("error", "run-failed")
    assert message.startswith(f"repeat {repeat}: panic: Kernel panic")
    assert "console tail:" in text and "sysrq triggered crash" in text
    # The other repeats ran fine, and stock is not blamed.
    assert [n for n in bad if n.startswith("run repeat")] == \
        [f"run repeat {repeat}"]
    assert not _bad_cases(root, f"nightly.{TOPO}.stock")


def _failed_lvm(doc):
    for step in doc["steps"]:
        if step["name"] == "lvm":
            step["verdict"] = "failed"
    doc["lvm"]["ok"] = False


@pytest.mark.parametrize("as_the_launcher_leaves_it", [True, False])
def test_one_failed_step_fails(sweep, as_the_launcher_leaves_it):
    _edit_results(sweep, 2, _failed_lvm)
    if as_the_launcher_leaves_it:
        _edit_manifest(sweep, lambda d: _entry(d, 2).update(
            outcome="step-failed", exit_status=1,
            message="failed steps: lvm"))
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    bad = _bad_cases(root)
    # Counts are exact: one failed step in one repeat is a regression.
    assert bad["steps_failed"][2].startswith("steps_failed: repeat 2: 1 > 0")
    assert bad["lvm_ok"][2].startswith("lvm_ok: repeat 2: 0 < 1")
    if as_the_launcher_leaves_it:
        assert bad["run repeat 2"][2] == \
            "repeat 2: step-failed: failed steps: lvm"


def test_a_census_short_of_one_disk_fails(sweep):
    def short(doc):
        doc["disks"]["found"]["total"] = 990
        doc["disks"]["found"]["sd"] -= 10
    _edit_results(sweep, 2, short)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    bad = _bad_cases(root)
    assert bad["disks_found"][2] == "disks_found: repeat 2: 990 < 1000 x 1"
    # ... and against the topology's own plan, with no baseline at all.
    assert bad["every_disk_found"][2] == \
        "every_disk_found: repeat 2: 990/1000 found"


def _slower(factor):
    """Every time figure of a results document `factor` times longer."""
    def edit(doc):
        for key, value in list(doc["boot"].items()):
            if isinstance(value, (int, float)):
                doc["boot"][key] = value * factor
        for curve in ("register", "lookup"):
            for point in doc["majors"]["block"][curve]:
                point["p50_ns"] *= factor
        for point in doc["procdevices"]["points"]:
            point["ns_per_read"] *= factor
            point["ns_per_line"] *= factor
    return edit


def test_two_of_three_repeats_much_slower_is_never_a_pass(sweep):
    """Two repeats 3x slower, one not: three repeats cannot tell that
    from noise; without a launcher to add repeats the verdict is
    INCONCLUSIVE, its own non-zero exit, and the JUnit case shows every
    repeat's value."""
    for repeat in (2, 3):
        _edit_results(sweep, repeat, _slower(3.0))
    out, root = _judge(sweep)
    assert out.returncode == 3, out.stdout
    assert "nightly verdict: INCONCLUSIVE" in out.stdout
    tag, kind, message, text = _bad_cases(root)["census_complete_s_vs_stock"]
    assert (tag, kind) == ("error", "inconclusive")
    assert "straddle 1.3" in message
    values = dict(kv.split(": ") for kv in
                  text.split("values by repeat: ")[1].split("\n")[0]
                  .split(", "))
    assert float(values["1"]) < 1.3 < min(float(values["2"]),
                                          float(values["3"]))


def test_all_repeats_slower_fails(sweep):
    for repeat in (1, 2, 3):
        _edit_results(sweep, repeat, _slower(1.9))
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    tag, kind, message, text = _bad_cases(root)["census_complete_s_vs_stock"]
    assert (tag, kind) == ("failure", "regression")
    assert "values by repeat: 1: " in text


def _interrupted(repeat):
    def entry(doc):
        doc["status"] = "partial"
        doc["partial_reason"] = "interrupted by SIGINT"
        doc["runs"].append(dict(_entry(doc, 1), repeat=repeat,
                                outcome="interrupted", exit_status=130,
                                message="stopped by a signal",
                                results=None, console=None))
    return entry


def test_an_interrupted_round_of_added_repeats_is_left_out(sweep):
    """Stopped while adding repeat 4 to decide its times: that round is
    left out whole, and the sweep as planned is judged."""
    _edit_manifest(sweep, _interrupted(4))
    out, root = _judge(sweep)
    assert out.returncode in (0, 3), out.stdout
    assert "run repeat 4" not in _bad_cases(root)
    doc = json.loads((sweep / "nightly.json").read_text())
    assert doc["repeats"]["stress-1000"] == 3


def test_an_interrupted_planned_repeat_still_fails(sweep):
    def entry(doc):
        doc["status"] = "partial"
        doc["partial_reason"] = "interrupted by SIGINT"
        _entry(doc, 3).update(outcome="interrupted", exit_status=130,
                              message="stopped by a signal", results=None)
    _edit_manifest(sweep, entry)
    out, root = _judge(sweep)
    assert out.returncode == 1, out.stdout
    assert _bad_cases(root)["run repeat 3"][2] == \
        "repeat 3: interrupted: stopped by a signal"
