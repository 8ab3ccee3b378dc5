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
from dataclasses import dataclass, field

from ..errors import UsageError
from ..machine import cmdline
from . import hotplug

SWITCH = "BLKSCALE_DISK_METHOD"
METHODS = ("argv", "stack", "stack+qmp", "qmp")


def argv_bytes(argv):
    """What the argv costs against ARG_MAX: strings, NULs and pointers."""
    return sum(len(a.encode()) + 1 + 8 for a in argv)


@dataclass
class Start:
    method: str
    reason: str
    argv: list                  # what QEMU is started with
    commands: list = field(default_factory=list)    # QMP, before `cont`
    limit: int = 0              # ARG_MAX for argv
    stack_bytes: int = 0        # soft RLIMIT_STACK of the child, if raised
    full_bytes: int = 0         # the command line with every disk
    argv_bytes: int = 0         # the command line that runs
    qmp_disks: int = 0          # SCSI disks among the QMP commands


def forced():
    value = os.environ.get(SWITCH, "")
    if value and value not in METHODS:
        raise UsageError(f"{SWITCH}={value}: must be one of "
                         + ", ".join(METHODS))
    return value or None


def choose(argv, topo=None):
    """The Start of a full command line; TopologyError (at topo's largest
    disk field) when no method can start it."""
    full = argv_bytes(argv)
    plain, raised = cmdline.arg_max(), cmdline.stack_arg_max()
    method = forced()
    if method is None:
        method = ("argv" if full <= plain else
                  "stack" if full <= raised else "stack+qmp")
    kib = f"{full // 1024} KiB"
    if method == "argv":
        start = Start("argv", f"the command line ({kib}) fits ARG_MAX "
                      f"({plain // 1024} KiB)", list(argv), limit=plain)
    elif method == "stack":
        start = Start("stack", f"the command line ({kib}) passes ARG_MAX "
                      f"({plain // 1024} KiB): QEMU's stack rlimit is raised "
                      f"to make room, up to {raised // 1024} KiB", list(argv),
                      limit=raised)
    else:
        excess = full - raised + 16 if method == "stack+qmp" else None
        run_argv, commands = hotplug.split(argv, excess)
        disks = sum(1 for c in commands if c["execute"] == "device_add")
        start = Start(method, f"{disks} SCSI disks added over QMP before the "
                      f"guest runs: the whole command line ({kib}) passes "
                      "what a raised stack rlimit allows "
                      f"({raised // 1024} KiB)" if method == "stack+qmp" else
                      f"{disks} SCSI disks added over QMP before the guest "
                      f"runs ({SWITCH}=qmp)", run_argv, commands,
                      limit=raised)
        start.qmp_disks = disks
    start.full_bytes = full
    start.argv_bytes = argv_bytes(start.argv)
    if start.argv_bytes > plain:
        start.stack_bytes = cmdline.stack_for(start.argv_bytes)
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
