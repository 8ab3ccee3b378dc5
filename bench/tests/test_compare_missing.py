"""A figure the baseline has but the sweep lacks is reported and fails;
so does a run without results and a variant without a baseline."""

from blkscale.figures import compare, metrics
from blkscale_bench.judging import runcheck

LIMITS = metrics.thresholds("stock")


def _manifest(outcome="ok"):
    return {"sweep": {"topologies": {"t": "t.toml"},
                      "variants": ["stock", "patched"]},
            "runs": [{"topology": "t", "variant": v, "outcome": outcome,
                      "message": "kernel panic" if outcome != "ok" else ""}
                     for v in ("stock", "patched")]}


def _doc(variant, repeat=1):
    """The results.json of the fake manifest's run: its own outcome ok
    and a consistent census."""
    return {"topology": {"name": "t"}, "run": {"id": f"t.{variant}.{repeat}"},
            "kernel": {"variant": variant},
            "outcome": {"status": 0, "kind": "ok", "message": "ok"},
            "census": {"ok": True, "read_failed": 0, "consistency_errors": 0,
                       "devt_unique": True}}


def _docs(*variants):
    return {("t", v): {1: _doc(v)} for v in variants}


def _base(values):
    return {"topologies": {"t": {"metrics": values}}}


def test_missing_metric_reported():
    checks = compare.compare(
        _manifest(),
        {"t": {"stock": {"kernel_to_init_s": 4.0,
                         "procdevices_ns_per_read_0": None},
               "patched": {"kernel_to_init_s": 4.0}}},
        {"stock": _base({"kernel_to_init_s": 4.0,
                         "procdevices_ns_per_read_0": 90000}),
         "patched": _base({"kernel_to_init_s": 4.0})}, LIMITS)
    failed = [c for c in checks if c.failed]
    assert [(c.variant, c.metric, c.status) for c in failed] == [
        ("stock", "procdevices_ns_per_read_0", compare.MISSING)]
    assert failed[0].message == \
        "procdevices_ns_per_read_0: missing (baseline 90000)"


def test_run_without_results_fails(tmp_path):
    runs = runcheck.checks(_manifest("panic"), str(tmp_path))
    assert [(c.metric, c.status) for c in runs] == \
        [("run repeat 1", compare.RUN_FAILED)] * 2
    assert runs[0].message == "repeat 1: panic: kernel panic"


def test_variant_without_baseline_fails():
    checks = compare.compare(_manifest(),
                             {"t": {"stock": {}, "patched": {}}},
                             {"stock": _base({}), "patched": None}, LIMITS)
    failed = [c for c in checks if c.failed]
    assert [(c.variant, c.metric) for c in failed] == [("patched",
                                                        "baseline")]


def test_only_the_reference_failing_says_so_and_fails(tmp_path):
    """Stock panicked, patched did not: the host or the test is broken,
    not the series, and a nightly that cannot judge is not green."""
    manifest = _manifest()
    for r in manifest["runs"]:
        r["results"] = f"t/{r['variant']}/results.json"
    manifest["runs"][0].update(outcome="panic", message="kernel panic",
                               results=None)
    runs = runcheck.checks(manifest, str(tmp_path), docs=_docs("patched"))
    failed = [c for c in runs if c.failed]
    assert [(c.variant, c.metric) for c in failed] == [("stock",
                                                        "run repeat 1")]
    assert "only the reference stock failed: the host or the test is " \
        "broken, not the series" in failed[0].message
    assert compare.verdict(runs)[0] == "REGRESSION"


def test_a_planned_repeat_never_made_fails(tmp_path):
    manifest = _manifest()
    manifest["sweep"]["repeat"] = 2
    for r in manifest["runs"]:
        r.update(repeat=1, results=f"t/{r['variant']}/1/results.json")
    runs = runcheck.checks(manifest, str(tmp_path),
                           docs=_docs("stock", "patched"))
    failed = {(c.variant, c.metric): c.message for c in runs if c.failed}
    said = "repeat 2: not run: planned, and missing from the manifest"
    assert failed == {("stock", "run repeat 2"): said,
                      ("patched", "run repeat 2"): said}


def test_a_panics_console_tail_keeps_the_panic(tmp_path):
    """After the panic line the kernel prints the other CPUs' stacks
    (panic_print=0x40): the JUnit tail of a panicked run still shows the
    panic and what led to it."""
    lines = [f"[ 1.{i:03d}] boot {i}" for i in range(50)]
    lines += ["[ 2.000] sysrq: Trigger a crash",
              "[ 2.001] Kernel panic - not syncing: sysrq triggered crash"]
    lines += [f"[ 3.{i:03d}] other CPU {i}" for i in range(60)]
    (tmp_path / "console.log").write_text("\n".join(lines) + "\n")
    tail = runcheck.console_tail(str(tmp_path), {"console": "console.log"})
    assert "Kernel panic - not syncing: sysrq triggered crash" in tail
    assert "sysrq: Trigger a crash" in tail
    assert "other CPU 59" not in tail
    # no panic: the last lines
    (tmp_path / "quiet.log").write_text("\n".join(lines[:50]) + "\n")
    tail = runcheck.console_tail(str(tmp_path), {"console": "quiet.log"})
    assert tail.splitlines() == lines[30:50]
