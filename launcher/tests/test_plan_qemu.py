"""blkscale plan names the QEMU binary a run would start and predicts its
start from the measured per-disk cost (qemu/startcost.json): it changes
with the disks and the binary, says when it extrapolates, and says so
when nothing was measured (a path, disks added over QMP).  A stand-in
takes the place of `make qemu`'s build; nothing is built or booted."""

import json
import re
import subprocess
import sys

import pytest

from blkscale.paths import REPO
from blkscale.qemu import startcost
from launchertest import FAKE_QEMU, run_cli
from test_qemu_binary_choice import _patched_build

START = re.compile(r"^QEMU start: about ([\d.]+) s for ([\d,]+) disks on the "
                   r"command line \((\w+) binary; fit to 5,000-20,000 "
                   r"measured disks, evidence/20261205-qemu-patched"
                   r"(, extrapolated)?\)$", re.M)
SCSI = ('[[virtio_scsi]]\nid = "san"\ncontrollers = {c}\ntargets = 10\n'
        'luns = 25\nsize_mib = 1024\nbacking = "null"\n')


def _topology(tmp_path, controllers):
    """controllers x 250 SCSI disks on the command line."""
    path = tmp_path / f"scsi-{controllers}.toml"
    path.write_text("[guest]\nmemory_mib = 8192\n" + SCSI.format(
        c=controllers))
    return path


def _plan(topology, qemu, env, *more):
    out = run_cli("plan", topology, "--qemu", qemu, *more, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _start(text):
    """(seconds, disks, kind, extrapolated) of the plan's start line."""
    m = START.search(text)
    assert m, text
    return (float(m[1]), int(m[2].replace(",", "")), m[3], bool(m[4]))


@pytest.fixture
def env(fake_env, fake_build):
    _patched_build(fake_build)
    return fake_env


def test_plan_names_the_binary(tmp_path, env):
    text = _plan(_topology(tmp_path, 40), "distro", env)
    assert "QEMU binary: distro launcher/tests/fake_qemu.py, QEMU emulator " \
        "version 7.2.0 (blkscale test double)" in text
    text = _plan(_topology(tmp_path, 40), "patched", env)
    assert re.search(r"^QEMU binary: patched \S+/qemu/out/qemu-system-x86_64"
                     r", QEMU emulator version 7.2.0 \(blkscale test double\)"
                     r", 2 patches on qemu 1:7.2\+dfsg-7\+deb12u18$", text,
                     re.M), text


def test_prediction_follows_disks_and_binary(tmp_path, env):
    distro = {c: _start(_plan(_topology(tmp_path, c), "distro", env))
              for c in (40, 80)}
    patched = {c: _start(_plan(_topology(tmp_path, c), "patched", env))
               for c in (40, 80)}
    assert distro[40][1:] == (10000, "distro", False)
    assert patched[80][1:] == (20000, "patched", False)
    # The fit goes through the three measured medians.
    assert (distro[40][0], distro[80][0]) == (6.6, 39.53)
    assert (patched[40][0], patched[80][0]) == (0.68, 1.32)
    assert patched[80][0] < distro[80][0] / 20


def test_past_the_measured_disks_is_extrapolated(tmp_path, env):
    seconds, disks, _, extrapolated = _start(
        _plan(_topology(tmp_path, 90), "patched", env))
    assert (disks, extrapolated) == (22500, True)
    assert seconds > 1.32


def test_fewer_disks_than_measured_are_bounded(tmp_path, env):
    text = _plan(_topology(tmp_path, 4), "distro", env)
    assert "QEMU start: at most 1.51 s for 1,000 disks on the command line " \
        "(distro binary; 5,000 disks took that, fewer were not measured; " \
        "evidence/20261205-qemu-patched)" in text


def test_a_path_has_no_measured_cost(tmp_path, env):
    mine = tmp_path / "my-qemu"
    mine.symlink_to(FAKE_QEMU)
    text = _plan(_topology(tmp_path, 40), str(mine), env)
    assert f"QEMU binary: path {mine}, QEMU emulator version 7.2.0" in text
    assert "QEMU start: no measured cost for a path binary" in text
    assert not START.search(text)


def test_disks_over_qmp_are_not_predicted(tmp_path, env, fake_build):
    """Runs over QMP are cited only for the binary that ran them: its
    kind and its patches."""
    qmp = dict(env, BLKSCALE_DISK_METHOD="qmp")
    text = _plan(_topology(tmp_path, 40), "patched", qmp)
    assert "QEMU start: at most 0.32 s for 0 disks" in text
    assert "  the 10,000 disks added over QMP are not covered by this " \
        "fit\n" in text
    measured = [r for r in startcost.load()["qmp_runs"]
                if r["kind"] == "patched" and len(r["patches"]) == 5]
    (fake_build / "qemu" / "out" / "patches").write_text(
        "\n".join(measured[0]["patches"]) + "\n")
    text = _plan(_topology(tmp_path, 40), "patched", qmp)
    assert "the 10,000 disks added over QMP are not covered by this fit " \
        "(65,536 disks started in 9.8 s, 8.1 s of it over QMP, measured " \
        "3 times, median: evidence/20261205-qemu-qmp/" \
        "qemustart-65536.log)" in text
    text = _plan(_topology(tmp_path, 40), "distro", qmp)
    assert "(65,536 disks started in 1954.3 s, 1837.0 s of it over QMP, " \
        "measured once: evidence/20261205-qemu-patched/" \
        "qemustart-65536.log)" in text


def test_plan_json_has_the_binary_and_the_start(tmp_path, env):
    doc = json.loads(_plan(_topology(tmp_path, 80), "distro", env, "--json"))
    assert doc["qemu"]["binary"]["kind"] == "distro"
    assert doc["qemu"]["start"] == {
        "seconds": 39.53, "disks": 20000, "how": "fit",
        "measured": [5000, 20000],
        "evidence": ["evidence/20261205-qemu-patched"],
        "method": "stack"}


def test_unbuilt_patched_is_still_planned(tmp_path, fake_env):
    text = _plan(_topology(tmp_path, 80), "patched", fake_env)
    assert "not built (run make qemu)" in text
    assert _start(text)[:3] == (1.32, 20000, "patched")


def test_startcost_json_is_what_the_logs_say():
    """The committed figures are the script's output of the logs it
    names, not typed by hand."""
    data = startcost.load()
    logs = data["made_by"].split()[3:]
    out = subprocess.run(
        [sys.executable, "-m", "blkscale_bench.startcost", *logs],
        capture_output=True, text=True, check=True, cwd=REPO,
        env={"PYTHONPATH": "launcher:bench"})
    assert json.loads(out.stdout) == data
    assert data["start_s"]["distro"] == [[5000, 1.512, 3], [10000, 6.599, 3],
                                         [20000, 39.531, 3]]
