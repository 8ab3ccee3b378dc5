"""The QEMU backend: QEMU started directly by the launcher.

One object with machine/backend.py's Starter interface: what a run,
`plan` and `--dry-run` ask of a backend, and nothing about how QEMU is
spelled or watched (argv.py, diskstart.py, machine.py do that).
"""

import os

from .. import kernels, paths
from .. import qemubinary as binary
from ..errors import UsageError
from ..hostfacts import host_cpu
from ..machine.backend import Accelerator
from ..machine.files import RunFiles
from . import accel as accel_mod
from . import argv as qargv
from . import hotplug
from . import kernelmap
from .machine import Machine
from .profiler import GuestProfiler
from . import vcpuread
from . import startcost

# Where --dry-run shows the run's temporary directory.
DRY_RUNDIR = "@RUNDIR@"


class QemuBackend:
    name = "qemu"

    def __init__(self, qemu=None):
        self.qemu = qemu or paths.qemu_binary()

    @staticmethod
    def describe(planned, start, flag=None):
        """What `plan` shows of this backend: how QEMU gets its disks
        (start: check()'s StartPlan) and the binary a run would start
        (--qemu's flag, else guest.qemu) with its start predicted for
        the disks on its command line (those added over QMP are not)."""
        e = planned.topo.expected
        on_cmdline = e["virtio"] + e["scsi"] - start.qmp_disks
        return {"disk_method": {"method": start.method,
                                "reason": start.reason},
                "qemu": startcost.describe(_binary(flag, planned.topo),
                                           on_cmdline, start.qmp_disks)}

    @staticmethod
    def lines(desc):
        """describe()'s part of a plan, as `plan` prints it."""
        method = desc["disk_method"]
        return [f"disks reach QEMU by {method['method']}: "
                f"{method['reason']}", *startcost.lines(desc["qemu"])]

    def check(self, planned, variants=(), profile=False):
        """The StartPlan a run would have (plan shows it); TopologyError
        when no way of giving QEMU its disks starts this topology,
        UsageError when --profile lacks a System.map that names a
        variant's functions (kernelmap.py)."""
        for variant in variants if profile else ():
            kdir = paths.kernel_dir(variant)
            problem = kernelmap.problem(kdir, " ".join(
                (planned.topo.guest.cmdline, kernels.cmdline_of(variant))))
            if problem:
                raise UsageError(f"{paths.display(kdir)}/System.map: "
                                 f"{problem}; --profile needs it")
        return qargv.check_size(planned)

    def ready(self):
        """Nothing to start before a run: QEMU is this machine's."""

    def version(self):
        return accel_mod.qemu_version(self.qemu)

    def accelerator(self, requested, kernel, progress=None):
        """The accelerator for a run on this machine, and why."""
        version = self.version()
        accel, reason = accel_mod.choose(requested, self.qemu, version,
                                         kernel, progress)
        return Accelerator(accel, reason, version, host_cpu())

    def dry_accel(self, requested, kernel):
        """What a real run would use without probing: a cached probe
        verdict for auto, else TCG."""
        if requested != "auto":
            return requested
        return (accel_mod.cached(self.qemu, kernel) if kernel.is_file()
                else None) or "tcg"

    def render(self, planned, variant, accel, rundir=DRY_RUNDIR):
        """The command line of one variant as it would run (past ARG_MAX
        some disks go over QMP: diskstart.py), for --dry-run."""
        files = RunFiles.under(paths.kernel_dir(variant) / "bzImage", rundir)
        start = qargv.start_plan(planned, files, variant, accel, self.qemu)
        text = qargv.shell_command(start.argv) + "\n"
        if start.commands:
            text += hotplug.shown(start.commands) + "\n"
        return text

    def machine(self, planned, files, variant, accel, tmp):
        """The configured Machine of one run (machine/backend.py)."""
        machine = Machine(os.path.join(tmp, "qemu.log"))
        machine.configure(qargv.build_argv(planned, files, variant, accel,
                                           self.qemu), files.qmp)
        return machine

    def profiler(self, variant, interval_s):
        """A sampler of the guest kernel's vCPUs over QMP (check() made
        sure of its System.map)."""
        return GuestProfiler(paths.kernel_dir(variant) / "System.map",
                             interval_s)

    def vcpu_snapshot(self, machine, variant):
        """Where the vCPUs are, over QMP (vcpuread.py)."""
        return vcpuread.snapshot(machine, variant)

    def ask_backtrace(self, machine):
        """QMP inject-nmi: an NMI to every vCPU."""
        machine.qmp("inject-nmi")
        return True


def _binary(flag, topo):
    """shown() of the binary a run would start; a patched binary not
    built yet is still named (a plan is for before `make qemu`)."""
    try:
        return binary.shown(binary.resolve(flag, topo))
    except UsageError:
        if binary.choice(flag, topo) != binary.PATCHED:
            raise
        record = binary.describe(str(binary.patched_path()))
        record.update(path=binary.display(record["path"]),
                      version="not built (run make qemu)")
        return record
