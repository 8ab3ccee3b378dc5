"""Guest faults with a real guest, not a fake QEMU.

The smoke topology on the patched kernel, with the test-only step `fault`
(guest-tools/initramfs/steps/fault) after the census: a line that is not
a record, a results stream cut inside a section, a kernel panic (sysrq c)
and a guest that goes silent; and QEMU killed with SIGKILL in the middle
of the boot.  Each must end with its own exit status and outcome, the
message and the console tail, the console log kept, no results.json, no
temporary file and no QEMU left.  A few seconds each under TCG.  Needs
`make kernel initramfs`; skipped without.
"""

import json
import os
import re
import signal
import subprocess
import time

import pytest

from launchertest import (BLKSCALE, REPO, all_files, need_built, run_cli,
                          smoke_with_fault)

VARIANT = "patched"


@pytest.fixture
def built():
    need_built(VARIANT)


def qemu_pids(tmp):
    """QEMU processes whose command line names the private TMPDIR."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"qemu-system" in argv[0] and any(str(tmp).encode() in a
                                             for a in argv):
            pids.append(int(entry))
    return pids


def assert_failed_cleanly(out, tmp, results, status, kind, message,
                          logged="blkscale: init: kernel"):
    assert out.returncode == status, out.stdout + out.stderr
    summary = json.loads((results / "r" / "summary.json").read_text())
    entry = summary["variants"][VARIANT]
    assert (summary["exit_status"], entry["outcome"]) == (status, kind)
    assert message in entry["message"] and message in out.stdout
    assert f"--- {VARIANT}: console tail ---" in out.stderr
    vdir = results / "r" / VARIANT
    assert all_files(vdir) == ["console.log"], "results.json of a failure"
    # the quiet console (the default) prints no notices: /init's first
    # line shows the log is the guest's
    assert logged in (vdir / "console.log").read_text()
    assert all_files(tmp) == [], "temporary files left behind"
    assert qemu_pids(tmp) == [], "QEMU left running"


@pytest.mark.parametrize("mode,status,kind,message,console", [
    ("garbage", 3, "channel-broken", r"not a record: 'not a record \x01\x02'",
     "blkscale: step: fault"),
    ("truncate", 3, "channel-broken",
     "the stream ends inside a line (truncated)", "blkscale: step: fault"),
    ("panic", 5, "panic", "Kernel panic - not syncing: sysrq triggered crash",
     "sysrq: Trigger a crash"),
    ("hang", 4, "hang",
     "no console or results output for timeouts.hang_s = 5 s (phase fault)",
     "blkscale: step: fault"),
])
def test_fault(mode, status, kind, message, console, built, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    topo = smoke_with_fault(tmp_path, mode, hang_s=5 if mode == "hang"
                            else 60)
    out = run_cli("run", topo, "--variant", VARIANT, "--accel", "tcg",
                  "--run-id", "r", "--results-dir", results, "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=300)
    assert_failed_cleanly(out, tmp, results, status, kind, message)
    assert console in out.stderr
    if mode == "hang":
        # Where the vCPUs were when it was stopped: /init sleeps, so
        # every vCPU is halted, and the message says so; every disk's
        # queue was read and none owes the guest anything.
        assert "--- the vCPUs and virtqueues when the run was stopped ---" \
            in out.stderr
        assert re.search(r"\+0\.0 s vCPU 0: ", out.stderr), out.stderr
        assert re.search(r"; vCPU 0 halted \(idle", out.stdout), out.stdout
        m = re.search(r"virtio: (\d+) request queues of (\d+) disk "
                      r"controllers read, 0 in trouble", out.stderr)
        assert m and int(m.group(1)) >= 5, out.stderr
        assert "; virtio " not in out.stdout
        # a guest that waits is not sent an NMI
        assert "NMI" not in out.stdout + out.stderr


def test_a_busy_hang_gets_the_guests_own_backtrace(built, tmp_path):
    """A guest silent while a vCPU runs in its kernel (fault spin: dd from
    /dev/zero to /dev/null) is a loop: the launcher sends an NMI, the
    kernel (unknown_nmi_panic) prints where its CPUs were, and the
    message names the function the first dump found.  Still a hang, with
    everything cleaned up."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    topo = smoke_with_fault(tmp_path, "spin", hang_s=5)
    out = run_cli("run", topo, "--variant", VARIANT, "--accel", "tcg",
                  "--run-id", "r", "--results-dir", results, "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=300)
    assert_failed_cleanly(out, tmp, results, 4, "hang",
                          "no console or results output for "
                          "timeouts.hang_s = 5 s (phase fault)")
    m = re.search(r"; at an NMI, CPU (\d) \((\S+)\) in (\S+)", out.stdout)
    assert m, out.stdout + out.stderr
    assert "NMI: the guest's kernel answered: CPU " in out.stderr
    console = (results / "r" / VARIANT / "console.log").read_text()
    assert "NMI received for unknown reason" in console
    assert "Kernel panic - not syncing: NMI: Not continuing" in console


def test_qemu_killed_mid_boot(built, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    proc = subprocess.Popen(
        [str(BLKSCALE), "run", "topologies/smoke.toml", "--variant", VARIANT,
         "--accel", "tcg", "--run-id", "r", "--results-dir", str(results),
         "--quiet"], cwd=REPO, env=dict(os.environ, TMPDIR=str(tmp)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the kernel has started printing: the boot is under way
        deadline = time.monotonic() + 60
        pids = []
        while time.monotonic() < deadline:
            pids = qemu_pids(tmp)
            # the guest has printed (the quiet console's first lines are
            # warnings, then /init's): the boot is under way
            logs = list(tmp.glob("blkscale-*/serial.log")) + list(
                tmp.glob("blkscale-*/console.log"))
            if pids and any(log.stat().st_size for log in logs):
                break
            time.sleep(0.05)
        assert pids, "QEMU did not start"
        os.kill(pids[0], signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = subprocess.CompletedProcess(proc.args, proc.returncode, stdout,
                                      stderr)
    assert_failed_cleanly(out, tmp, results, 3, "qemu-died",
                          "QEMU was killed by SIGKILL", logged="")
