"""How QEMU gets its disks: on the command line, or the SCSI ones over
QMP before the guest runs.

    argv       everything on the command line (it fits ARG_MAX as it is);
    stack      everything on the command line, with the child's stack
               rlimit raised before exec so that ARG_MAX holds it (the
               kernel's ceiling is 6 MiB whatever the rlimit);
    stack+qmp  as much as fits the ceiling on the command line, the last
               SCSI disks over QMP (QEMU started with -S, the disks added
               by qemu/hotplug.py, then `cont`);
    qmp        every SCSI disk over QMP.

The choice is the first that fits, in that order: measured on a 2-core
host (topologies/README.md, "How QEMU gets its disks"), a disk added over
QMP costs several times one on the command line.  The environment
variable BLKSCALE_DISK_METHOD (one of the four) forces one, for measuring
them against each other.
"""

import os
from dataclasses import replace

from ..errors import UsageError
from ..machine import cmdline
from ..machine.model import StartPlan
from . import hotplug

SWITCH = "BLKSCALE_DISK_METHOD"
METHODS = ("argv", "stack", "stack+qmp", "qmp")


def argv_bytes(argv):
    """What the argv costs against ARG_MAX: strings, NULs and pointers."""
    return sum(len(a.encode()) + 1 + 8 for a in argv)


def forced():
    value = os.environ.get(SWITCH, "")
    if value and value not in METHODS:
        raise UsageError(f"{SWITCH}={value}: must be one of "
                         + ", ".join(METHODS))
    return value or None


def choose(argv, topo=None):
    """The StartPlan (machine/model.py) of a full command line;
    TopologyError (at topo's largest disk field) when no method can start
    it."""
    full = argv_bytes(argv)
    plain, raised = cmdline.arg_max(), cmdline.stack_arg_max()
    method = forced()
    if method is None:
        method = ("argv" if full <= plain else
                  "stack" if full <= raised else "stack+qmp")
    kib = f"{full // 1024} KiB"
    if method == "argv":
        start = StartPlan("argv", f"the command line ({kib}) fits ARG_MAX "
                          f"({plain // 1024} KiB)", tuple(argv), limit=plain)
    elif method == "stack":
        start = StartPlan("stack", f"the command line ({kib}) passes ARG_MAX"
                          f" ({plain // 1024} KiB): QEMU's stack rlimit is "
                          f"raised to make room, up to {raised // 1024} KiB",
                          tuple(argv), limit=raised)
    else:
        excess = full - raised + 16 if method == "stack+qmp" else None
        run_argv, commands = hotplug.split(argv, excess)
        disks = sum(1 for c in commands if c["execute"] == "device_add")
        start = StartPlan(method, f"{disks} SCSI disks added over QMP before "
                          f"the guest runs: the whole command line ({kib}) "
                          "passes what a raised stack rlimit allows "
                          f"({raised // 1024} KiB)" if method == "stack+qmp"
                          else f"{disks} SCSI disks added over QMP before the "
                          f"guest runs ({SWITCH}=qmp)", tuple(run_argv),
                          tuple(commands), limit=raised, qmp_disks=disks)
    size = argv_bytes(start.argv)
    start = replace(start, full_bytes=full, argv_bytes=size,
                    stack_bytes=cmdline.stack_for(size) if size > plain
                    else 0)
    if topo is not None:
        cmdline.check_size(topo, start.argv_bytes, start.limit,
                           note=_note(start.method))
    return start


def _note(method):
    if "qmp" in method:
        return (" without the SCSI disks that go over QMP (PCI devices and "
                "virtio-blk disks stay on the command line)")
    if method == "stack":
        return (" with the stack rlimit raised (the kernel's ceiling is "
                f"{cmdline.ARG_CEILING // 1048576} MiB)")
    return ""
