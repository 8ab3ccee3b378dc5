"""`blkscale bench --continue`: a sweep a signal stopped is finished in a
later sitting with only the runs it had not made, into its own
directory; refused, in one line, when what it measures changed."""

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime


def _stopped_in_repeat_2(bench_env, sweep):
    """The sweep started and stopped by SIGINT once repeat 2's first run
    sleeps: repeat 1 made, repeat 2 not."""
    env = dict(bench_env.env, FAKE_MODE="sleep", FAKE_ONLY_REPEAT="2")
    proc = subprocess.Popen(bench_env.argv("bench", sweep=sweep), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while not any(c.startswith("sleeping") for c in bench_env.calls()):
            assert time.monotonic() < deadline, "repeat 2 never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    return bench_env.manifest()


def _slots(manifest, counted=True):
    return sorted((r["topology"], r["variant"], r["repeat"])
                  for r in manifest["runs"]
                  if bool(r.get("superseded")) != counted)


def _sweep(bench_env, repeat=2):
    return bench_env.write_sweep("two", ["small"], f"repeat = {repeat}\n")


def test_continue_makes_only_the_runs_not_made(bench_env):
    sweep = _sweep(bench_env)
    first = _stopped_in_repeat_2(bench_env, sweep)
    assert first["status"] == "partial"
    assert _slots(first) == [("small", "patched", 1), ("small", "patched", 2),
                             ("small", "stock", 1)]
    runs_before = len([c for c in bench_env.calls() if c.startswith("run ")])
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 0, out.stderr
    assert "continuing r1: 2 runs made, 2 to make" in out.stderr
    calls = [c for c in bench_env.calls() if c.startswith("run ")]
    assert len(calls) - runs_before == 2, "it made runs it had made"
    m = bench_env.manifest()
    assert m["status"] == "complete" and m["partial_reason"] is None
    assert _slots(m) == [("small", "patched", 1), ("small", "patched", 2),
                         ("small", "stock", 1), ("small", "stock", 2)]
    # The stopped run is kept, set aside, and no longer counts.
    stopped = [r for r in m["runs"] if r.get("superseded")]
    assert [(r["variant"], r["repeat"], r["outcome"]) for r in stopped] == \
        [("patched", 2, "interrupted")]
    assert stopped[0]["launcher_log"].startswith("stopped/2/small/patched/2")
    assert (bench_env.results / "r1" / stopped[0]["launcher_log"]).exists()
    assert m["sittings"][0]["runs_made"] == 2
    assert m["sittings"][0]["runs_left"] == 2
    # Its figures are of all four runs.
    assert m["figures"] is not None


def test_a_failure_of_an_earlier_sitting_still_fails_it(bench_env):
    sweep = _sweep(bench_env)
    _stopped_in_repeat_2(bench_env, sweep)
    path = bench_env.results / "r1" / "manifest.json"
    doc = json.loads(path.read_text())
    doc["runs"][0].update(exit_status=1, outcome="failed")
    path.write_text(json.dumps(doc))
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 1, out.stderr


def test_refused_when_a_kernel_was_rebuilt(bench_env):
    image = bench_env.tmp / "build" / "kernel" / "out" / "patched" / "bzImage"
    image.write_bytes(b"first build")
    sweep = _sweep(bench_env)
    first = _stopped_in_repeat_2(bench_env, sweep)
    assert first["builds"]["patched"]["bzImage"] is not None
    image.write_bytes(b"second build")
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 2
    line = out.stderr.strip().splitlines()[-1]
    assert "manifest.json" in line and "cannot continue" in line
    assert "patched's bzImage is not the one it started with" in line
    assert bench_env.manifest() == first, "a refusal changed the manifest"


def test_an_older_sweep_is_judged_by_when_its_images_were_written(
        bench_env):
    """A manifest from before the images' SHA-256 were recorded: an
    image written after the sweep started is refused, an older one is
    not."""
    image = bench_env.tmp / "build" / "kernel" / "out" / "stock" / "bzImage"
    image.write_bytes(b"build")
    sweep = _sweep(bench_env)
    _stopped_in_repeat_2(bench_env, sweep)
    path = bench_env.results / "r1" / "manifest.json"
    doc = json.loads(path.read_text())
    del doc["builds"]
    path.write_text(json.dumps(doc))
    started = datetime.fromisoformat(doc["started"]).timestamp()
    os.utime(image, (started + 5, started + 5))
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 2
    assert "stock's bzImage was written after it started" in out.stderr
    os.utime(image, (started - 60, started - 60))
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 0, out.stderr


def test_refused_when_the_sweep_changed(bench_env):
    _stopped_in_repeat_2(bench_env, _sweep(bench_env))
    out = bench_env.run("bench", "--continue",
                        sweep=_sweep(bench_env, repeat=3))
    assert out.returncode == 2
    assert "its sweep's repeat was 2, now 3" in out.stderr


def test_refused_when_complete_or_missing(bench_env):
    sweep = _sweep(bench_env)
    assert bench_env.run("bench", sweep=sweep).returncode == 0
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 2 and "it is complete" in out.stderr
    out = bench_env.run("bench", "--continue", sweep=sweep, run_id="none")
    assert out.returncode == 2
    assert "nothing to continue" in out.stderr
    assert not (bench_env.results / "none").exists()


def test_a_sweep_cut_off_outright_is_continued_once_nothing_runs_it(
        bench_env):
    """Found `running` (its sitting killed with SIGKILL): refused while a
    process holds its lock, continued after, with the cut-off run's
    files set aside."""
    sweep = _sweep(bench_env)
    _stopped_in_repeat_2(bench_env, sweep)
    run_dir = bench_env.results / "r1"
    path = run_dir / "manifest.json"
    doc = json.loads(path.read_text())
    # As a SIGKILL leaves it: no entry for the run it was making.
    doc.update(status="running", partial_reason=None, finished=None)
    doc["runs"] = [r for r in doc["runs"] if r["outcome"] == "ok"]
    path.write_text(json.dumps(doc))
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time; "
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); "
         "time.sleep(60)", str(run_dir / ".sweep.lock")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        out = bench_env.run("bench", "--continue", sweep=sweep)
        assert out.returncode == 2 and "it is running" in out.stderr
    finally:
        holder.kill()
        holder.wait()
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 0, out.stderr
    m = bench_env.manifest()
    assert m["status"] == "complete"
    assert len([r for r in m["runs"] if not r.get("superseded")]) == 4
    assert (run_dir / "stopped" / "2" / "small" / "patched" / "2").is_dir()


def test_refused_when_qemu_changed(bench_env):
    sweep = _sweep(bench_env)
    _stopped_in_repeat_2(bench_env, sweep)
    qemu = bench_env.tmp / "qemu"
    qemu.write_text("#!/bin/sh\necho 'QEMU emulator version 8.0.0'\n")
    out = bench_env.run("bench", "--continue", sweep=sweep)
    assert out.returncode == 2
    assert "it ran on 'QEMU emulator version 7.2.99', now " \
        "'QEMU emulator version 8.0.0'" in out.stderr
