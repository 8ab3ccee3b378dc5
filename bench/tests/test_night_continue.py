"""A night's bench part a signal stopped is continued by the next
sitting, into the same run, when nothing it measures changed; started
again, saying why, when something did."""

import argparse

import pytest

from blkscale_bench.night import parts, record, resume, sitting

from test_sweep_continue import _stopped_in_repeat_2, _sweep

NIGHT = "20261206-000000"


@pytest.fixture
def stopped_night(bench_env, monkeypatch):
    """A night whose kernels part was interrupted in its sweep, run
    r1 (the fake launcher's), with no make to ask."""
    monkeypatch.delenv(parts.HOOK, raising=False)
    monkeypatch.setenv("BUILD", bench_env.env["BUILD"])
    monkeypatch.setenv("BLKSCALE_QEMU", bench_env.env["BLKSCALE_QEMU"])
    monkeypatch.setattr(resume, "_rebuilt", lambda variants: False)
    image = bench_env.tmp / "build" / "kernel" / "out" / "stock" / "bzImage"
    image.write_bytes(b"first build")
    sweep = _sweep(bench_env)
    _stopped_in_repeat_2(bench_env, sweep)
    night = record.Night.create(str(bench_env.results), NIGHT, "nightly")
    night.part("kernels").update(status=record.INTERRUPTED, runs=["r1"],
                                 run_id="r1", wall_s=100.0)
    options = argparse.Namespace(kernels_sweep=str(sweep),
                                 results_dir=str(bench_env.results))
    return argparse.Namespace(night=night, options=options, image=image,
                              results=str(bench_env.results))


def test_continues_the_interrupted_run(stopped_night):
    s = stopped_night
    assert resume.why_not(s.night, "kernels", s.options, s.results) == \
        ("r1", None)
    steps = parts.steps("kernels", s.options, "r1", "/night", True)
    assert steps[-1].argv[-1] == "--continue"
    assert "--run-id" in steps[-1].argv


def test_starts_again_when_a_kernel_was_rebuilt(stopped_night):
    s = stopped_night
    s.image.write_bytes(b"second build")
    run_id, why = resume.why_not(s.night, "kernels", s.options, s.results)
    assert run_id is None
    assert why == "r1: stock's bzImage is not the one it started with"


def test_starts_again_when_its_build_would_rebuild(stopped_night,
                                                   monkeypatch):
    s = stopped_night
    monkeypatch.setattr(resume, "_rebuilt", lambda variants: True)
    run_id, why = resume.why_not(s.night, "kernels", s.options, s.results)
    assert run_id is None and "would rebuild" in why


def test_a_part_that_is_no_bench_is_never_continued(stopped_night):
    s = stopped_night
    s.night.part("sim").update(status=record.INTERRUPTED, runs=["r1"])
    assert resume.why_not(s.night, "sim", s.options, s.results) == \
        (None, None)


def test_its_wall_time_adds_up_over_sittings(stopped_night):
    s = stopped_night
    s.night.save()
    steps = [parts.Step(["true"])]
    sitting.run_part(s.night, "kernels", steps, "r1", sitting.Stop(),
                     continuing=True)
    part = s.night.part("kernels")
    assert part["runs"] == ["r1"] and part["sittings"] == 2
    assert part["status"] == record.DONE and part["verdict"] == record.PASS
    assert 100.0 <= part["wall_s"] < 160.0
