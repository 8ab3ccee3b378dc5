"""`blkscale night` (make nightly) with a stand-in for every part's
commands (fake_part.py): each part keeps its own verdict in parts.json,
a night interrupted continues at the part it stopped in, and the night
passes only when every part ran and passed."""

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from blkscale.paths import REPO

FAKE_PART = Path(__file__).resolve().parent / "fake_part.py"
PARTS = ["gated", "every-disk", "bootcurve", "sim", "kernels",
         "guest-tests"]


class Nights:
    def __init__(self, tmp):
        self.results = tmp / "results"
        self.log = tmp / "parts.log"
        self.ready = tmp / "ready"
        self.env = dict(os.environ, BLKSCALE_NIGHTLY_PART=str(FAKE_PART),
                        FAKE_PART_LOG=str(self.log),
                        FAKE_PART_READY=str(self.ready))

    def argv(self, *args):
        return [str(REPO / "blkscale"), "night", "--results-dir",
                str(self.results), *args]

    def run(self, *args, **env):
        return subprocess.run(self.argv(*args), env=dict(self.env, **env),
                              capture_output=True, text=True, timeout=60,
                              cwd=REPO)

    def calls(self):
        """[(part, run id)] of every stand-in call, and signals it got."""
        if not self.log.exists():
            return []
        return [tuple(line.split()) for line in self.log.read_text()
                .splitlines()]

    def record(self, night, kind="nightly"):
        path = self.results / f"{kind}-{night}" / "parts.json"
        return json.loads(path.read_text())

    def parts(self, night, kind="nightly"):
        return {p["name"]: p for p in self.record(night, kind)["parts"]}


@pytest.fixture
def nights(tmp_path):
    return Nights(tmp_path)


def _wait_for(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_interrupted_in_part_two_resumes_there(nights):
    proc = subprocess.Popen(nights.argv("--night", "n1"),
                            env=dict(nights.env, FAKE_PART_WAIT="every-disk"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=REPO)
    try:
        assert _wait_for(nights.ready.exists)
        # One sitting at a time.
        second = nights.run("--night", "n1")
        assert second.returncode == 2
        assert second.stderr.strip().endswith(
            "nightly-n1: another sitting is running this night")
        parts = nights.parts("n1")
        assert parts["every-disk"]["status"] == "running"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    assert "night n1: interrupted in every-disk (exit 130)" in out
    # The stand-in got the signal once, from the night.
    assert nights.calls() == [("gated", "n1-gated"),
                              ("every-disk", "n1-every-disk"),
                              ("every-disk", "SIGINT")]
    parts = nights.parts("n1")
    assert parts["gated"]["status"] == "done"
    assert parts["gated"]["verdict"] == "PASS"
    assert parts["every-disk"]["status"] == "interrupted"
    assert parts["every-disk"]["exit"] == 130
    assert parts["every-disk"]["verdict"] is None
    assert [parts[p]["status"] for p in PARTS[2:]] == ["not-run"] * 4
    gated = dict(parts["gated"])

    # Run again, with no night named: the newest unfinished one goes on
    # at the part it stopped in, with a run of its own.
    nights.log.unlink()
    out = nights.run(FAKE_PART_EXIT="sim=3")
    assert out.returncode == 3, out.stdout + out.stderr
    assert nights.calls() == [("every-disk", "n1-every-disk-2"),
                              ("bootcurve", "n1-bootcurve"),
                              ("sim", "n1-sim"),
                              ("kernels", "n1-kernels"),
                              ("guest-tests", "-")]
    assert "night n1: gated: PASS in an earlier sitting, kept" in out.stdout
    parts = nights.parts("n1")
    assert parts["gated"] == gated
    assert parts["every-disk"]["runs"] == ["n1-every-disk",
                                           "n1-every-disk-2"]
    assert parts["every-disk"]["verdict"] == "PASS"
    assert parts["sim"]["verdict"] == "INCONCLUSIVE"
    assert parts["guest-tests"]["run_id"] is None
    lines = out.stdout.splitlines()
    assert lines[-1] == "night n1: INCONCLUSIVE (exit 3)"
    table = lines[-8:-1]
    assert table[0].split() == ["part", "verdict", "wall", "run"]
    assert table[1].split()[::3] == ["gated", "n1-gated"]
    assert table[4].split()[:2] == ["sim", "INCONCLUSIVE"]


def test_a_failed_part_fails_the_night_whatever_follows(nights):
    out = nights.run("--night", "n2", FAKE_PART_EXIT="gated=1 kernels=2")
    assert out.returncode == 1, out.stdout + out.stderr
    assert [c[0] for c in nights.calls()] == PARTS
    parts = nights.parts("n2")
    assert parts["gated"]["verdict"] == "REGRESSION"
    assert parts["kernels"]["exit"] == 2
    assert parts["kernels"]["verdict"] == "REGRESSION"
    assert [parts[p]["verdict"] for p in PARTS[1:4] + PARTS[5:]] == \
        ["PASS"] * 4
    for p in parts.values():
        assert p["status"] == "done" and p["wall_s"] >= 0
        assert p["started"] <= p["finished"]
    assert out.stdout.splitlines()[-1] == "night n2: REGRESSION (exit 1)"
    assert "kernels      REGRESSION (exit 2)" in out.stdout


def test_only_the_named_parts_run_and_the_night_is_no_pass(nights):
    out = nights.run("--night", "n3", "--parts", "every-disk gated")
    assert out.returncode == 4, out.stdout + out.stderr
    assert nights.calls() == [("gated", "n3-gated"),
                              ("every-disk", "n3-every-disk")]
    assert out.stdout.splitlines()[-1] == \
        "night n3: UNFINISHED (exit 4); still to run: bootcurve, sim, " \
        "kernels, guest-tests"
    parts = nights.parts("n3")
    assert [parts[p]["status"] for p in PARTS] == ["done"] * 2 + \
        ["not-run"] * 4
    # The other parts in a sitting of their own; the night then passes.
    out = nights.run("--night", "n3", "--parts", "sim")
    assert out.returncode == 4
    out = nights.run("--parts", "bootcurve kernels guest-tests sim")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == "night n3: PASS (exit 0)"
    assert [c[0] for c in nights.calls()] == PARTS[:2] + ["sim"] + \
        ["bootcurve", "kernels", "guest-tests"]


def test_a_part_cut_off_outright_runs_again(nights):
    out = nights.run("--night", "n4", "--parts", "gated")
    assert out.returncode == 4
    path = nights.results / "nightly-n4" / "parts.json"
    doc = json.loads(path.read_text())
    doc["parts"][0]["status"] = "running"
    doc["parts"][0]["verdict"] = None
    path.write_text(json.dumps(doc))
    out = nights.run("--parts", "gated")
    assert out.returncode == 4
    assert nights.calls() == [("gated", "n4-gated"), ("gated", "n4-gated-2")]


@pytest.mark.parametrize("change, field", [
    (lambda d: d["parts"][1].update(status="bogus"), "parts[1].status"),
    (lambda d: d["parts"][0].update(verdict="MAYBE"), "parts[0].verdict"),
    (lambda d: d["parts"][2].update(wall_s="long"), "parts[2].wall_s"),
    (lambda d: d["parts"].pop(), "parts"),
    (lambda d: d.update(night="other"), "night"),
    (lambda d: d.update(kind="weekly"), "kind"),
    (lambda d: d["parts"].append(dict(d["parts"][0], name="multipath")),
     "parts"),
])
def test_a_corrupt_record_is_one_line_naming_file_and_field(nights, change,
                                                            field):
    assert nights.run("--night", "n5", "--parts", "gated").returncode == 4
    path = nights.results / "nightly-n5" / "parts.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    before = path.read_text()
    for args in (("--night", "n5"), ()):     # named, and found
        out = nights.run(*args)
        assert out.returncode == 2
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{path}: {field}: ")
        assert out.stdout == ""
    assert path.read_text() == before
    assert nights.calls() == [("gated", "n5-gated")]


def test_a_record_that_is_not_json(nights):
    path = nights.results / "nightly-n6" / "parts.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"schema": ')
    out = nights.run()
    assert out.returncode == 2
    assert out.stderr.startswith(f"{path}: not valid JSON: ")
    assert len(out.stderr.splitlines()) == 1 and nights.calls() == []


def test_an_unknown_part_is_a_usage_error(nights):
    out = nights.run("--parts", "gated nap")
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --parts: 'nap': the parts " \
        "of the nightly night are gated, every-disk, bootcurve, sim, " \
        "kernels, guest-tests"
    assert nights.calls() == [] and not nights.results.exists()


def test_the_multipath_part_is_the_weekly_nights(nights):
    out = nights.run("--parts", "multipath")
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --parts: 'multipath': the " \
        "parts of the nightly night are gated, every-disk, bootcurve, sim, " \
        "kernels, guest-tests; multipath is the weekly night's (--weekly)"
    out = nights.run("--weekly", "--parts", "gated")
    assert out.returncode == 2
    assert "the parts of the weekly night are multipath" in out.stderr
    assert nights.calls() == [] and not nights.results.exists()


def test_a_weekly_night_is_its_own_record(nights):
    # A nightly left unfinished is not what a weekly sitting continues.
    assert nights.run("--night", "n7", "--parts", "gated").returncode == 4
    out = nights.run("--weekly", "--night", "w1", FAKE_PART_EXIT="multipath=3")
    assert out.returncode == 3, out.stdout + out.stderr
    assert nights.calls() == [("gated", "n7-gated"),
                              ("multipath", "w1-multipath")]
    record = nights.record("w1", "weekly")
    assert record["kind"] == "weekly"
    assert [p["name"] for p in record["parts"]] == ["multipath"]
    assert record["parts"][0]["verdict"] == "INCONCLUSIVE"
    assert out.stdout.splitlines()[-1] == "night w1: INCONCLUSIVE (exit 3)"
    # The unfinished nightly is still the one a plain sitting continues.
    out = nights.run("--parts", "every-disk")
    assert out.returncode == 4
    assert nights.calls()[-1] == ("every-disk", "n7-every-disk")
    # A weekly night with a verdict is finished: the next weekly sitting
    # starts a night of its own, named by the date and time.
    out = nights.run("--weekly")
    assert out.returncode == 0, out.stdout + out.stderr
    part, run_id = nights.calls()[-1]
    assert part == "multipath"
    assert re.fullmatch(r"\d{8}-\d{6}-multipath", run_id)
    assert (nights.results / f"weekly-{run_id[:-len('-multipath')]}"
            / "parts.json").is_file()
