"""One QEMU process: configure, launch, wait, shutdown.

Modelled on QEMU's python/qemu/machine QEMUMachine, cut down to what the
launcher needs: the process runs in its own process group (so that
cleanup can kill everything it started), dies with the launcher
(PR_SET_PDEATHSIG), and its stderr goes to a log file whose tail ends up
in the exceptions.  It provides machine/backend.py's Backend.

How the disks reach QEMU is chosen in configure() (qemu/diskstart.py):
all on the command line, with the child's stack rlimit raised if need
be, or the SCSI disks over QMP between start-up (-S) and `cont`.
"""

import ctypes
import functools
import os
import resource
import signal
import subprocess
import time

from ..machine.errors import LaunchError, file_tail
from . import diskstart, hotplug
from .argv import shell_command
from .qmp import Qmp, QmpError, hmp_arguments

PR_SET_PDEATHSIG = 1


def _child_setup(stack_bytes=0):
    if stack_bytes:
        # ARG_MAX is a quarter of the stack rlimit the new program has.
        hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
        if hard != resource.RLIM_INFINITY:
            stack_bytes = min(stack_bytes, hard)
        resource.setrlimit(resource.RLIMIT_STACK, (stack_bytes, hard))
    # QEMU must not outlive the launcher, even if the launcher is killed.
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Machine:
    """A QEMU process and its QMP connection; a context manager."""

    # The progress line's phase while qmp_disks() counts.
    late_phase = "qemu qmp"

    def __init__(self, log_path):
        self.log_path = str(log_path)
        self.argv = None
        self.start = None
        self.qmp_path = None
        self._proc = None
        self._qmp = None
        self._log = None
        self.spawned_at = None
        self.qemu_start_s = None
        self.hotplug_s = None
        # Disks added over QMP so far; None until the first batch.
        self.qmp_disks_added = None
        self.peak_rss_kib = 0

    def configure(self, argv, qmp_path):
        if self._proc is not None:
            raise RuntimeError("configure() after launch()")
        self.start = diskstart.choose(list(argv))
        self.argv = list(self.start.argv)
        self.qmp_path = str(qmp_path)

    def shown(self):
        text = shell_command(self.argv)
        if self.start.commands:
            text += ("\n# then over QMP, before `cont`:\n"
                     + hotplug.shown(self.start.commands))
        return text

    def is_running(self):
        return self._proc is not None and self._proc.poll() is None

    def exitcode(self):
        return self._proc.poll() if self._proc else None

    def qemu_log(self, limit=4000):
        return file_tail(self.log_path, limit)

    def launch(self, timeout=60, tick=None):
        """Start QEMU and wait for its QMP greeting (qemu_start_s).

        Returns the start-up time, or None if QEMU already exited with
        status 0 (the guest ran to completion before the greeting was read).
        tick(), if given, is called about twice a second while waiting.
        """
        if self.argv is None:
            raise RuntimeError("launch() before configure()")
        self._log = open(self.log_path, "wb")
        self.spawned_at = time.monotonic()
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.DEVNULL, stdout=self._log,
                stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=functools.partial(_child_setup,
                                             self.start.stack_bytes),
                close_fds=True)
        except OSError as e:
            raise LaunchError(f"cannot run {self.argv[0]}: {e.strerror}"
                              ) from None
        self._qmp = Qmp(self.qmp_path)

        def alive():
            if tick:
                tick()
            return self.is_running()

        try:
            self._qmp.connect(self.spawned_at + timeout, alive)
        except QmpError as e:
            code = self._reap(2)
            if code == 0:
                # A guest that finished before we connected: let the caller
                # read what it left; there is just no start-up time.
                return None
            message = f"QEMU did not start: {e}"
            if code is not None:
                message = f"QEMU exited with status {code} while starting"
            log = self.qemu_log().strip()
            if log:
                message += ": " + log.splitlines()[-1]
            self.shutdown(hard=True)
            raise LaunchError(message, log) from None
        if self.start.commands:
            self._hotplug(self.spawned_at + timeout, alive, tick)
        self.qemu_start_s = time.monotonic() - self.spawned_at
        return self.qemu_start_s

    def _hotplug(self, deadline, alive, tick=None):
        """The disks that are not on the command line, then `cont`."""
        t0 = time.monotonic()

        def added(disks):
            self.qmp_disks_added = disks
            if tick:
                tick()

        try:
            hotplug.add(self._qmp, self.start.commands, deadline, alive,
                        added=added)
        except QmpError as e:
            code = self._reap(0.5)
            message = f"QEMU refused a disk over QMP: {e}"
            if code is not None:
                message = (f"QEMU exited with status {code} while its disks "
                           f"were added over QMP ({e})")
            log = self.qemu_log().strip()
            self.shutdown(hard=True)
            raise LaunchError(message, log) from None
        self.hotplug_s = time.monotonic() - t0

    def late_record(self):
        """results.json's host.late_disks: the disks added after QEMU
        started, before the guest ran (None if none)."""
        if not self.start or not self.start.qmp_disks:
            return None
        return {"method": "qmp", "disks": self.start.qmp_disks,
                "added": self.qmp_disks_added,
                "seconds": (round(self.hotplug_s, 3)
                            if self.hotplug_s is not None else None)}

    def qmp_disks(self):
        """(disks added over QMP so far, disks to add), or None when no
        disk goes over QMP or the first batch is still being taken."""
        if self.qmp_disks_added is None:
            return None
        return self.qmp_disks_added, self.start.qmp_disks

    def qmp(self, name, **arguments):
        """One QMP command, answered within 5 s (a diagnosis)."""
        if self._qmp is None:
            raise QmpError("QMP is not connected")
        return self._qmp.command(name, deadline=time.monotonic() + 5,
                                 alive=self.is_running, **arguments)

    def pipeline(self, commands, timeout=60):
        """QMP commands sent at once (qmp.Qmp.pipeline) while the guest
        runs: the pathfail step's paths."""
        if self._qmp is None:
            raise QmpError("QMP is not connected")
        self._qmp.pipeline(commands, time.monotonic() + timeout,
                           alive=self.is_running)

    def hmp(self, command, cpu_index=None):
        """A human monitor command over QMP (the profiler's register reads)."""
        if self._qmp is None:
            raise QmpError("QMP is not connected")
        return self._qmp.command("human-monitor-command",
                                 deadline=time.monotonic() + 5,
                                 alive=self.is_running,
                                 **hmp_arguments(command, cpu_index))

    def sample_rss(self):
        """Peak resident memory of QEMU so far (VmHWM), KiB."""
        if not self.is_running():
            return self.peak_rss_kib
        try:
            with open(f"/proc/{self._proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        self.peak_rss_kib = max(self.peak_rss_kib,
                                                int(line.split()[1]))
        except (OSError, ValueError, IndexError):
            pass
        return self.peak_rss_kib

    def _reap(self, timeout):
        if self._proc is None:
            return None
        try:
            return self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def _signal_group(self, sig):
        try:
            os.killpg(self._proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def shutdown(self, hard=False, timeout=10):
        """Stop QEMU: QMP quit, then SIGTERM, then SIGKILL to its group."""
        if self._proc is not None:
            if self.is_running() and not hard and self._qmp is not None:
                try:
                    self._qmp.command("quit",
                                      deadline=time.monotonic() + timeout)
                except QmpError:
                    pass
                self._reap(timeout)
            if self.is_running():
                self._signal_group(signal.SIGTERM)
                self._reap(min(timeout, 3))
            if self.is_running():
                # Only while QEMU is unreaped is its group id surely ours.
                self._signal_group(signal.SIGKILL)
            self._proc.wait()
        if self._qmp is not None:
            self._qmp.close()
            self._qmp = None
        if self._log is not None:
            self._log.close()
            self._log = None
        return self.exitcode()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown(hard=True)
        return False
