"""Where a stopped guest's vCPUs were, read through QEMU's monitor.

Both backends ask a machine with qmp() and hmp() (QEMU's own socket, or
libvirt's monitor passthrough): the registers and stacks named from the
variant's System.map (by address where it cannot name this boot's
functions: kernelmap.py), and the virtqueues in trouble (virtqueues.py).
A diagnosis must not turn a hang into another error: a monitor that does
not answer as QEMU's does gives one line saying so.
"""

from .. import paths
from ..machine.backend import VcpuSnapshot
from . import kernelmap
from . import profiler as profiler_mod
from . import virtqueues
from .qmp import QmpError


def snapshot(machine, variant):
    lines, busy = [], False
    try:
        kdir = paths.kernel_dir(variant)
        unnamed = kernelmap.problem(kdir,
                                    kernelmap.cmdline_of(machine.argv))
        # Without a map the vCPUs are still read: halted or not, and
        # where, by address.
        found, busy = profiler_mod.snapshot(
            machine.hmp, None if unnamed else kdir / "System.map")
        lines += found
        if unnamed:
            lines.append(f"addresses not named: {paths.display(kdir)}/"
                         f"System.map: {unnamed}")
    except (QmpError, OSError, TypeError, ValueError, KeyError) as e:
        lines.append(f"the vCPUs could not be read: {e}")
    # Whether a device owes the halted guest an interrupt.
    try:
        lines += virtqueues.snapshot(machine.qmp, machine.hmp)
    except (QmpError, OSError, TypeError, ValueError, KeyError) as e:
        lines.append(f"virtio: the queues could not be read: {e}")
    return VcpuSnapshot(lines, busy)
