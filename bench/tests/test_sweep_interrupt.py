"""SIGINT or SIGTERM to a sweep: the running launcher gets the signal
exactly once, nothing is left running, no further run starts, and the
manifest is marked partial."""

import os
import signal
import subprocess
import time

import pytest


def _wait_for(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False



def _nightly_interrupted_in_added_repeat(bench_env, bases, env):
    """The nightly with env's fake launcher, SIGINT once the added repeat
    sleeps: (the process, its stdout, its stderr)."""
    proc = subprocess.Popen(bench_env.argv("nightly", "--baselines",
                                           str(bases), "--repeat", "3",
                                           run_id="n"),
                            env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: any(c.startswith("sleeping")
                                     for c in bench_env.calls())), \
            "the added repeat never started"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, out, err

def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes only once reaped: look at its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_sweep_cleanly(bench_env, sig):
    env = dict(bench_env.env, FAKE_MODE="sleep")
    proc = subprocess.Popen(bench_env.argv("bench"), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert _wait_for(lambda: any(c.startswith("sleeping")
                                     for c in bench_env.calls())), \
            "the fake launcher never started"
        child = int([c for c in bench_env.calls()
                     if c.startswith("sleeping")][0].split()[-1])
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    calls = bench_env.calls()
    signals = [c for c in calls if c.startswith("signal ")]
    assert signals == [f"signal {sig.name} pid {child}"]
    assert len([c for c in calls if c.startswith("run ")]) == 1, \
        "a run started after the signal"
    assert not _alive(child), "the launcher child was left running"
    m = bench_env.manifest()
    assert m["status"] == "partial"
    assert m["partial_reason"] == f"interrupted by {sig.name}"
    assert [r["outcome"] for r in m["runs"]] == ["interrupted"]
    assert "PARTIAL: interrupted" in out


def test_interrupting_the_added_repeats_keeps_the_sweep(bench_env):
    """SIGINT while the nightly adds repeats to decide a time: the runs
    it stopped are left out, the rounds planned after it never start,
    the sweep as planned stays complete and is judged, and the status
    says it was interrupted."""
    out = bench_env.run("bench", "--repeat", "3", run_id="base")
    assert out.returncode == 0, out.stderr
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    # Repeat 2 of patched 3x slower: undecided, so repeat 4 is added,
    # and the fake launcher waits for a signal in it.
    env = dict(bench_env.env, FAKE_REPEAT_FACTORS="1,3,1",
               FAKE_VARIANT="patched", FAKE_MODE="sleep",
               FAKE_ONLY_REPEAT="4")
    proc, out, err = _nightly_interrupted_in_added_repeat(bench_env, bases,
                                                          env)
    assert proc.returncode == 130, out + err
    assert "nightly verdict: INCONCLUSIVE" in out
    m = bench_env.manifest("n")
    assert m["status"] == "complete"
    assert m["decide_stopped"]["repeat"] == 4
    dropped = [r for r in m["runs"] if r.get("superseded")]
    assert dropped and {r["repeat"] for r in dropped} == {4}


def test_a_panic_in_an_interrupted_added_round_still_fails(bench_env):
    """Repeat 4 added to decide a time: patched's run panics, then
    stock's is interrupted.  The panic counts; only the stopped run is
    left out, and the nightly says REGRESSION (exit 130: interrupted)."""
    out = bench_env.run("bench", "--repeat", "3", run_id="base")
    assert out.returncode == 0, out.stderr
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    env = dict(bench_env.env, FAKE_REPEAT_FACTORS="1,3,1",
               FAKE_VARIANT="patched", FAKE_MODE="panic",
               FAKE_MODE_OTHER="sleep", FAKE_ONLY_REPEAT="4")
    proc, out, err = _nightly_interrupted_in_added_repeat(bench_env, bases,
                                                          env)
    assert proc.returncode == 130, out + err
    assert "nightly verdict: REGRESSION" in out
    assert "RUN-FAILED  small patched: repeat 4: panic" in out
    m = bench_env.manifest("n")
    runs = {(r["topology"], r["variant"]): r for r in m["runs"]
            if r["repeat"] == 4}
    assert runs[("small", "patched")]["outcome"] == "panic"
    assert not runs[("small", "patched")].get("superseded")
    assert runs[("small", "stock")]["superseded"]
    stopped = [r for r in m["rounds"] if r["status"] == "stopped"]
    assert stopped and stopped[0]["repeat"] == 4
