"""Exit statuses, console tails and cleanup, against a fake QEMU.

Every run must leave no QEMU process and no temporary file behind, and
results.json only for a complete results stream.
"""

import json
import os
import signal
import subprocess
import time

import pytest

from launchertest import (BLKSCALE, FAKE_QEMU, REPO, all_files,
                          fake_runs, pid_alive, run_cli)

TOPO = """
[guest]
variants = ["stock"]
[timeouts]
boot_s = 6
run_s = 60
hang_s = 5
[[virtio_blk]]
id = "vblk"
count = 3
[[virtio_scsi]]
id = "scsi"
targets = 2
"""


@pytest.fixture
def topo(tmp_path):
    path = tmp_path / "fake.toml"
    path.write_text(TOPO)
    return path


def run_scenario(scenario, topo, env, results):
    env = dict(env, FAKE_QEMU_SCENARIO=scenario)
    return run_cli("run", topo, "--accel", "tcg", "--run-id", "r",
                   "--results-dir", results, env=env, timeout=120)


def assert_clean(env):
    runs = fake_runs(env)
    assert runs, "the fake QEMU never ran"
    for pid, _ in runs:
        assert not pid_alive(pid), f"QEMU {pid} still running"
    assert all_files(env["TMPDIR"]) == [], "temporary files left behind"


@pytest.mark.parametrize("scenario,status,kind,message", [
    ("ok", 0, "ok", None),
    ("step-failed", 1, "step-failed", "failed steps: census"),
    ("missing", 1, "disks-missing", "4 of 5 disks found"),
    ("hang", 4, "hang", "no console or results output for timeouts.hang_s"),
    ("slow-boot", 4, "timeout", "did not reach /init within timeouts.boot_s"),
    ("panic", 5, "panic", "Kernel panic - not syncing: VFS"),
    ("panic-stay", 5, "panic", "Kernel panic - not syncing: VFS"),
    ("die", 3, "qemu-died", "QEMU exited with status 1: qemu-system-x86_64:"
     " fake emulation failure"),
    ("fail-start", 3, "launch-failure", "-device bogus: not a device"),
    ("truncated", 3, "channel-broken", "ends inside a line"),
    ("bad-count", 3, "channel-broken", "section census: 13 bytes received, "
     "3 announced"),
    ("garbage", 3, "channel-broken", "not a record"),
    ("no-done", 3, "channel-broken", "no BLKSCALE-DONE"),
])
def test_outcome(scenario, status, kind, message, topo, fake_env, tmp_path):
    results = tmp_path / "results"
    out = run_scenario(scenario, topo, fake_env, results)
    assert out.returncode == status, out.stdout + out.stderr
    assert_clean(fake_env)
    summary = json.loads((results / "r" / "summary.json").read_text())
    variant = summary["variants"]["stock"]
    assert (summary["exit_status"], variant["outcome"]) == (status, kind)
    if message:
        assert message in variant["message"]
        assert message in out.stdout
    has_results = (results / "r" / "stock" / "results.json").exists()
    # Only a complete stream gives results.json, failed steps included.
    assert has_results == (status in (0, 1))
    assert variant["results"] == ("stock/results.json" if has_results
                                  else None)
    if kind in ("hang", "panic", "timeout"):
        assert "console tail" in out.stderr
        assert "Linux version 6.1.0-fake" in out.stderr
        assert (results / "r" / "stock" / "console.log").exists()
    assert not list(results.rglob(".tmp-*")), "partial JSON left behind"


def test_results_document(topo, fake_env, tmp_path):
    results = tmp_path / "results"
    out = run_scenario("ok", topo, fake_env, results)
    assert out.returncode == 0, out.stderr
    doc = json.loads((results / "r" / "stock" / "results.json").read_text())
    assert doc["schema"] == {"name": "blkscale-results", "version": 1}
    kernel = doc["kernel"]
    assert (kernel["variant"], kernel["release"], kernel["guest_release"]) \
        == ("stock", "6.1.0-stock", "6.1.0-fake")
    # What the build left of the kernel's making: here, nothing.
    assert kernel["base_package"] is None and kernel["patches"] is None
    assert doc["topology"]["expected"] == {"virtio": 3, "scsi": 2, "sim": 0,
                                           "total": 5}
    assert doc["disks"]["found"] == {"vd": 3, "sd": 2, "nullb": 0,
                                     "total": 5}
    assert doc["host"]["accelerator"] == "tcg"
    assert doc["host"]["command"][0].endswith("fake_qemu.py")
    assert doc["boot"]["kernel_to_init_s"] == 0.5
    assert doc["boot"]["census_complete_s"] == 0.7
    assert doc["boot"]["qemu_start_s"] > 0
    assert doc["memory"]["guest_slab_kib"] == 4000
    assert doc["memory"]["guest_slab_kib_per_disk"] == 800
    assert doc["steps"][0]["name"] == "census"
    assert doc["census"] == {"found": 5}


def start(topo, env, results, scenario="hang"):
    env = dict(os.environ, **env, FAKE_QEMU_SCENARIO=scenario)
    proc = subprocess.Popen(
        [str(BLKSCALE), "run", str(topo), "--accel", "tcg", "--run-id", "r",
         "--results-dir", str(results)], cwd=REPO, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not fake_runs(env) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_runs(env), "the fake QEMU did not start"
    time.sleep(0.5)
    return proc


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_cleans_up(sig, topo, fake_env, tmp_path):
    results = tmp_path / "results"
    proc = start(topo, fake_env, results)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert_clean(fake_env)
    assert not list(results.rglob("*.json"))


def test_launcher_killed_takes_qemu_along(topo, fake_env, tmp_path):
    proc = start(topo, fake_env, tmp_path / "results")
    proc.kill()
    proc.wait()
    pid = fake_runs(fake_env)[0][0]
    deadline = time.monotonic() + 10
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not pid_alive(pid), "QEMU outlived a killed launcher"


def test_show_command_prints_and_runs(topo, fake_env, tmp_path):
    out = run_cli("run", topo, "--accel", "tcg", "--show-command",
                  "--results-dir", tmp_path / "results", "--quiet",
                  env=fake_env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(str(FAKE_QEMU) + " \\\n    -name ")
    assert "-blockdev driver=null-co,node-name=d-vblk-0," in out.stdout
    assert len(fake_runs(fake_env)) == 1


def test_dry_run_starts_nothing(topo, fake_env, tmp_path):
    out = run_cli("run", topo, "--dry-run", "--results-dir",
                  tmp_path / "results", env=fake_env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# stock\n")
    assert "@RUNDIR@/qmp.sock" in out.stdout
    assert fake_runs(fake_env) == []
    assert not (tmp_path / "results").exists()
    assert all_files(fake_env["TMPDIR"]) == []


def test_vcpus_beyond_the_kernel_config(tmp_path, fake_env):
    topo = tmp_path / "cpus.toml"
    topo.write_text('[guest]\nvcpus = 16\nvariants = ["stock"]\n'
                    '[[virtio_blk]]\nid = "b"\ncount = 1\n')
    out = run_cli("run", topo, "--accel", "tcg", "--results-dir",
                  tmp_path / "results", env=fake_env)
    assert out.returncode == 2
    assert out.stderr == (f"{topo}: guest.vcpus: 16 exceeds CONFIG_NR_CPUS=8"
                          " of the stock kernel\n")
    assert fake_runs(fake_env) == []


def test_missing_kernel_is_refused_before_anything(topo, fake_env, tmp_path):
    os.remove(os.path.join(fake_env["BUILD"], "kernel/out/stock/bzImage"))
    out = run_cli("run", topo, "--accel", "tcg", "--results-dir",
                  tmp_path / "results", env=fake_env)
    assert out.returncode == 2
    assert out.stderr.startswith("blkscale: ")
    assert out.stderr.rstrip().endswith("kernel/out/stock/bzImage: missing "
                                        "(make kernel)")
    assert fake_runs(fake_env) == []
    assert not (tmp_path / "results").exists()


def test_existing_run_id_is_refused(topo, fake_env, tmp_path):
    (tmp_path / "results" / "r").mkdir(parents=True)
    out = run_scenario("ok", topo, fake_env, tmp_path / "results")
    assert out.returncode == 2
    assert "exists; choose another --run-id" in out.stderr
    assert fake_runs(fake_env) == []
