"""One launcher child: `blkscale run TOPO --variant V` into a staging
directory, its output in a log file, stopped cleanly on a signal."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

from blkscale.errors import InputError
from blkscale.paths import REPO
from blkscale.results import runresults, runsummary

# After forwarding a signal, how long the launcher gets to stop QEMU and
# clean up before its whole process group is killed.
STOP_GRACE_S = 120
POLL_S = 0.5
# One host's check connects, asks a few questions and disconnects.
HOSTS_CHECK_TIMEOUT_S = 120


def launcher_command():
    """The launcher to run, as an argv prefix: BLKSCALE_LAUNCHER (tests
    use a fake), else blkscale_command()."""
    fake = os.environ.get("BLKSCALE_LAUNCHER")
    if fake:
        return [fake]
    return blkscale_command()


def blkscale_command():
    """The blkscale command as an argv prefix: ./blkscale of this
    checkout, or else that of the installed package this interpreter
    runs."""
    script = REPO / "blkscale"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "blkscale_cli"]


def run_argv(topology, variant, staging, run_id, accel, host=None,
             host_staging=None, qemu=None):
    """host: a libvirt URI to run on through the libvirt backend; None
    starts QEMU directly on this machine.  host_staging: how the run's
    files reach it (shared, volumes; None: the launcher's default).
    qemu: the launcher's --qemu (None: the topology's guest.qemu)."""
    argv = [*launcher_command(), "run", str(topology.path), "--variant",
            variant, "--results-dir", str(staging), "--run-id", run_id,
            "--accel", accel, "--quiet"]
    if qemu is not None:
        argv += ["--qemu", qemu]
    if host is not None:
        argv += ["--backend", "libvirt", "--libvirt-uri", host]
        if host_staging:
            argv.append(f"--staging={host_staging}")
    return argv


def hosts_check(uris, staging=None):
    """The launcher's `hosts check --json` of uris: {uri: facts}; facts
    has `ok` and, when not, `problem`.  staging: as run_argv's."""
    argv = [*launcher_command(), "hosts", "check", "--json", *uris]
    if staging:
        argv.append(f"--staging={staging}")
    try:
        out = subprocess.run(argv, capture_output=True, text=True,
                             timeout=HOSTS_CHECK_TIMEOUT_S, cwd=REPO,
                             check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return {u: {"uri": u, "ok": False, "problem": "hosts check did not "
                    f"answer in {HOSTS_CHECK_TIMEOUT_S} s"} for u in uris}
    problem = "no answer for this host"
    try:
        facts = {f["uri"]: f for f in json.loads(out.stdout)}
    except (ValueError, TypeError, KeyError):
        lines = (out.stderr or out.stdout).strip().splitlines()
        problem = lines[-1] if lines else f"exit status {out.returncode}"
        facts = {}
    return {u: facts.get(u) or {"uri": u, "ok": False,
                                "problem": f"hosts check: {problem}"}
            for u in uris}


def run(argv, log_path, state, tick=None, grace_s=STOP_GRACE_S):
    """Run argv to completion; returns (exit status, killed).

    killed is True when the child ignored a forwarded signal for grace_s
    and its process group was killed.  tick(elapsed_s) is called while
    waiting (for a live progress line).
    """
    start = time.monotonic()
    with open(log_path, "wb") as log:
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=subprocess.STDOUT, cwd=REPO,
                                 start_new_session=True)
        state.attach(child)
        killed = False
        try:
            while True:
                try:
                    status = child.wait(timeout=POLL_S)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if state.stopping and not killed and \
                        time.monotonic() - state.at > grace_s:
                    try:
                        os.killpg(child.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    killed = True
                if tick:
                    tick(time.monotonic() - start)
        finally:
            state.detach(child)
    return status, killed


def collect(staging_run, variant, out_dir):
    """Move what the launcher wrote into out_dir; its summary's Entry
    (empty when it wrote none)."""
    src = os.path.join(staging_run, variant)
    if os.path.isdir(src):
        for name in os.listdir(src):
            os.replace(os.path.join(src, name), os.path.join(out_dir, name))
    summary = _readable(runsummary.read_in, staging_run)
    shutil.rmtree(staging_run, ignore_errors=True)
    return (summary.entry(variant) if summary else None) or \
        runsummary.Entry({})


def results_of(out_dir):
    """The run's results.json, or None when it brought none (or one that
    cannot be read: a launcher killed halfway)."""
    if not runresults.exists_in(out_dir):
        return None
    return _readable(runresults.read_in, out_dir)


def _readable(read, *args):
    try:
        return read(*args)
    except InputError:
        return None
