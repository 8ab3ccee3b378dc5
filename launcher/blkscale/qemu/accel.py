"""Choosing the accelerator: KVM only when a short probe boot proves it.

/dev/kvm can exist and open while a Linux guest still hangs under it
(nested setups; DESIGN.md).  `auto` therefore boots the kernel under KVM
with no initramfs and waits briefly for it to reach the point where it
runs init ("Run /init as init process").  The verdict is cached under
build/accel/, keyed by the QEMU version and the kernel image, so the probe
costs its timeout once.
"""

import hashlib
import json
import os
import subprocess
import tempfile
import time

from .. import paths
from ..errors import UsageError
from ..guestlink.console import ConsoleWatcher
from ..machine.errors import MachineError
from .machine import Machine

PROBE_TIMEOUT_S = 20


def probe_timeout():
    """Seconds a probe boot may take; BLKSCALE_KVM_PROBE_S overrides."""
    try:
        return max(1, int(os.environ.get("BLKSCALE_KVM_PROBE_S", "")))
    except ValueError:
        return PROBE_TIMEOUT_S


def qemu_version(qemu):
    """First line of `qemu --version`, or UsageError if it does not run."""
    try:
        out = subprocess.run([qemu, "--version"], capture_output=True,
                             text=True, timeout=30, check=True).stdout
    except FileNotFoundError:
        raise UsageError(f"{qemu}: not found (make deps)") from None
    except (subprocess.SubprocessError, OSError) as e:
        raise UsageError(f"{qemu} --version failed: {e}") from None
    return out.splitlines()[0].strip() if out.strip() else "unknown"


def kvm_usable():
    return os.access("/dev/kvm", os.R_OK | os.W_OK)


def _cache_path(version, kernel):
    digest = hashlib.sha256()
    digest.update(version.encode() + b"\0")
    with open(kernel, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return paths.build_dir() / "accel" / f"{digest.hexdigest()[:24]}.json"


def probe_kvm(qemu, kernel, timeout):
    """Boot the kernel under KVM; True if it reaches init within timeout."""
    with tempfile.TemporaryDirectory(prefix="blkscale-probe-") as tmp:
        console = os.path.join(tmp, "console.log")
        qmp = os.path.join(tmp, "qmp.sock")
        argv = [qemu, "-machine", "pc", "-accel", "kvm", "-cpu", "host",
                "-m", "256M", "-smp", "1", "-nodefaults", "-no-user-config",
                "-display", "none", "-no-reboot", "-kernel", str(kernel),
                "-append", "console=ttyS0 panic=-1",
                "-chardev", f"file,id=console,path={console}",
                "-serial", "chardev:console",
                "-chardev", f"socket,id=qmp,path={qmp},server=on,wait=off",
                "-mon", "chardev=qmp,mode=control"]
        machine = Machine(os.path.join(tmp, "qemu.log"))
        machine.configure(argv, qmp)
        watcher = ConsoleWatcher()
        with machine:
            try:
                machine.launch(timeout=timeout)
            except MachineError:
                return False
            deadline = machine.spawned_at + timeout
            with open(console, "rb") as con:
                while time.monotonic() < deadline:
                    watcher.feed(con.read())
                    if watcher.reached_init:
                        return True
                    if machine.exitcode() is not None:
                        watcher.feed(con.read())
                        return watcher.reached_init
                    time.sleep(0.2)
        return False


def cached(qemu, kernel):
    """The cached probe verdict for this QEMU and kernel, or None."""
    try:
        version = qemu_version(qemu)
        verdict = json.loads(_cache_path(version, kernel).read_text())
    except (UsageError, OSError, ValueError):
        return None
    return verdict.get("accel") if verdict.get("accel") in ("kvm",
                                                             "tcg") else None


def choose(requested, qemu, version, kernel, progress=None):
    """The accelerator to use and why: ("tcg" | "kvm", reason)."""
    if requested == "tcg":
        return "tcg", "requested"
    if requested == "kvm":
        if not kvm_usable():
            raise UsageError("--accel kvm: /dev/kvm is not usable")
        return "kvm", "requested"
    if not kvm_usable():
        return "tcg", "no usable /dev/kvm"
    cache = _cache_path(version, kernel)
    try:
        verdict = json.loads(cache.read_text())
        if verdict.get("accel") in ("kvm", "tcg"):
            return verdict["accel"], f"cached probe ({paths.display(cache)})"
    except (OSError, ValueError):
        pass
    timeout = probe_timeout()
    if progress:
        progress.message(f"probing KVM (at most {timeout} s)...")
    ok = probe_kvm(qemu, kernel, timeout)
    accel = "kvm" if ok else "tcg"
    reason = ("KVM probe boot reached init" if ok else
              f"KVM probe boot did not reach init in {timeout} s")
    cache.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=cache.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        json.dump({"accel": accel, "reason": reason, "qemu": version,
                   "kernel": paths.display(kernel)}, f)
        f.write("\n")
    os.replace(tmp, cache)
    return accel, reason
