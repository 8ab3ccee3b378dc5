"""Real boots through libvirtd: ci-small, and the domain gone on every exit.

They need python3-libvirt, libvirtd (started here if it is not running,
which needs root) and build/kernel/out/patched/bzImage with
build/initramfs/patched.cpio (make kernel initramfs); they skip without.
One variant only: the QEMU backend's boot tests cover both kernels, these
cover the backend.
"""

import os
import re
import signal
import subprocess
import time

import pytest

from launchertest import (BLKSCALE, REPO, all_files, boot_results, need_built,
                          run_cli, smoke_with_fault)

from blkscale.libvirt import daemon

VARIANT = "patched"


@pytest.fixture(scope="module")
def conn():
    libvirt = pytest.importorskip("libvirt")
    need_built(VARIANT)
    running = daemon.accepts(daemon.LIBVIRTD_SOCKET)
    if not running and os.geteuid() != 0:
        pytest.skip("libvirtd not running and only root can start it")
    try:
        daemon.ensure(daemon.SYSTEM_URI)
    except Exception as e:      # not installed: a missing requirement
        pytest.skip(f"cannot start libvirtd: {e}")
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    c = libvirt.open(daemon.SYSTEM_URI)
    yield c
    c.close()


def blkscale_domains(conn, topo):
    """Names of defined or running domains of this topology."""
    return {d.name() for d in conn.listAllDomains()
            if d.name().startswith(f"blkscale-{topo}-")}


def wait_for(predicate, timeout, step=0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def test_ci_small_through_libvirt(conn, tmp_path):
    before = blkscale_domains(conn, "ci-small")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", "topologies/ci-small.toml", "--backend", "libvirt",
                  "--variant", VARIANT, "--accel", "tcg", "--run-id", "lv",
                  "--results-dir", results, "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=1800)
    assert blkscale_domains(conn, "ci-small") == before, "domain left"
    doc = boot_results(out, results, "lv", VARIANT, tmp)
    assert doc["disks"]["found"]["total"] == 104
    assert [s["name"] for s in doc["steps"]] == [
        "census", "majors", "procdevices", "fio", "lvm", "devtaudit",
        "selftest"]
    assert (doc["fio"]["disks"], doc["fio"]["ok"]) == (4, 4)
    assert doc["fio"]["verify"] is True
    assert doc["boot"]["qemu_start_s"] > 0
    assert doc["boot"]["census_complete_s"] >= doc["boot"][
        "kernel_to_init_s"] > 0
    assert doc["memory"]["qemu_peak_rss_kib"] > 0
    assert doc["warnings"] == []
    host = doc["host"]
    assert host["backend"] == "libvirt"
    # The command libvirt ran: every disk a -blockdev, none a -drive.
    assert host["command"][0].endswith("qemu-system-x86_64")
    assert "-drive" not in host["command"]
    assert host["command"].count("-blockdev") >= 104
    assert (results / "lv" / VARIANT / "console.log").stat().st_size > 0


def _start_smoke(tmp_path, **popen):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    proc = subprocess.Popen(
        [str(BLKSCALE), "run", "topologies/smoke.toml", "--backend",
         "libvirt", "--variant", VARIANT, "--accel", "tcg", "--run-id", "x",
         "--results-dir", str(tmp_path / "results"), "--quiet"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, **popen)
    return proc, tmp


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM,
                                 signal.SIGKILL])
def test_domain_destroyed_when_the_launcher_stops(conn, tmp_path, sig):
    """SIGINT, SIGTERM: the launcher destroys the domain, exits 130 and
    marks the run partial (no summary.json).  SIGKILL: nothing of ours
    runs, libvirtd destroys the auto-destroy domain when the connection
    drops."""
    before = blkscale_domains(conn, "smoke")
    proc, tmp = _start_smoke(tmp_path)
    try:
        started = wait_for(lambda: blkscale_domains(conn, "smoke") - before,
                           120)
        assert started, "the domain never appeared"
        os.kill(proc.pid, sig)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if sig != signal.SIGKILL:
        err = proc.stderr.read()
        assert proc.returncode == 130, err
        assert f"interrupted by {sig.name}" in err
        assert all_files(tmp) == [], "temporary files left behind"
        assert not (tmp_path / "results" / "x" / "summary.json").exists()
    gone = wait_for(lambda: not (blkscale_domains(conn, "smoke") - before),
                    30)
    assert gone, f"left running: {blkscale_domains(conn, 'smoke') - before}"


# SCSI disks libvirt describes (slices of one file) and disks it cannot
# (null-co); fio writes and verifies the slices.
LATE = ('description = "SCSI disks attached live"\n'
        '[guest]\nvcpus = 2\nmemory_mib = 512\n'
        '[timeouts]\nboot_s = 300\nrun_s = 600\nhang_s = 120\n'
        '[[virtio_scsi]]\nid = "sl"\ncontrollers = 1\ntargets = 2\n'
        'luns = 4\nsize_mib = 16\nbacking = "slice"\n'
        '[[virtio_scsi]]\nid = "nl"\ncontrollers = 1\ntargets = 2\n'
        'luns = 4\nsize_mib = 16\nbacking = "null"\n'
        '[plan]\nsteps = ["census", "fio"]\nsettle_s = 60\n'
        '[plan.fio]\ngroups = ["sl"]\ndisks = 8\nrw = "randwrite"\n'
        'bs = "4k"\nsize_mib = 1\nruntime_s = 60\niodepth = 2\n'
        'verify = true\n')


def test_disks_attached_live_are_found_and_written(conn, tmp_path):
    """Every SCSI disk attached after the domain starts (the switch moves
    them all): the guest finds each at its address and fio verifies the
    slices libvirt attached; the domain is gone after."""
    topo = tmp_path / "late.toml"
    topo.write_text(LATE)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", topo, "--backend", "libvirt", "--variant", VARIANT,
                  "--accel", "tcg", "--run-id", "late", "--results-dir",
                  results, env={"TMPDIR": str(tmp),
                                "BLKSCALE_DISK_METHOD": "qmp"}, timeout=1200)
    assert blkscale_domains(conn, "late") == set(), "domain left"
    doc = boot_results(out, results, "late", VARIANT, tmp)
    assert doc["host"]["late_disks"] == {
        "method": "libvirt-attach", "disks": 16, "native": 8, "monitor": 8,
        "added": 16, "seconds": doc["host"]["late_disks"]["seconds"]}
    assert doc["disks"]["found"]["total"] == 16
    assert doc["census"]["ok"] is True
    assert (doc["fio"]["disks"], doc["fio"]["ok"]) == (8, 8)
    assert doc["fio"]["verify"] is True
    # None of them on the command line libvirt ran.
    assert not any('"scsi-hd"' in a for a in doc["host"]["command"])


def test_a_busy_hang_through_libvirt_gets_the_guests_backtrace(conn,
                                                               tmp_path):
    """The spin fault (a vCPU busy in the kernel, the guest silent)
    through libvirt: the vCPUs and queues are read through libvirt's
    monitor passthrough, the NMI goes through injectNMI, and the message
    names where the kernel found its CPU, as with the QEMU backend."""
    before = blkscale_domains(conn, "fault-spin")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    topo = smoke_with_fault(tmp_path, "spin", hang_s=5)
    out = run_cli("run", topo, "--backend", "libvirt", "--variant", VARIANT,
                  "--accel", "tcg", "--run-id", "r", "--results-dir",
                  results, "--quiet", env={"TMPDIR": str(tmp)}, timeout=300)
    assert out.returncode == 4, out.stdout + out.stderr
    assert "no console or results output for timeouts.hang_s = 5 s" \
        in out.stdout
    assert re.search(r"\+0\.0 s vCPU 0: ", out.stderr), out.stderr
    assert re.search(r"virtio: \d+ request queues of \d+ disk controllers "
                     r"read", out.stderr), out.stderr
    assert re.search(r"; at an NMI, CPU \d \(\S+\) in \S+", out.stdout), \
        out.stdout + out.stderr
    console = (results / "r" / VARIANT / "console.log").read_text()
    assert "Kernel panic - not syncing: NMI: Not continuing" in console
    assert blkscale_domains(conn, "fault-spin") == before, "domain left"
    assert all_files(tmp) == [], "temporary files left behind"
