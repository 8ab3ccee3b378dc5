"""SCSI disks attached to a libvirt domain after it starts, before the
guest runs: how the libvirt backend gets past ARG_MAX.

libvirtd starts QEMU with every device of the domain XML on its command
line, and the kernel's ARG_MAX bounds that command line.  A domain whose
disks do not fit is created paused; the last SCSI disks are then attached
live, and only then does the guest run, so it finds every LUN when it first
scans its controllers (as the QEMU backend's QMP disks, qemu/hotplug.py):

- a disk the domain XML describes natively (a file or a slice of one) is
  attached with virDomainAttachDeviceFlags and the same <disk> element;
- a disk libvirt has no element for (null-co, or an address past its
  schema) goes to QEMU's monitor through libvirt's QEMU pass-through
  (virDomainQemuMonitorCommand), the same blockdev-add and device_add the
  QEMU backend sends: libvirt never knew of those disks, on its command
  line or after.

The limit is libvirtd's, not ours: libvirtd execs QEMU with its own short
environment and its own stack rlimit, so the caller's environment says
nothing about it.  Path lengths (the run's directory, in every file-backed
disk) and libvirt's own additions vary, so a stated margin stays free.
"""

import json
import math
from dataclasses import dataclass, field

from ..qemu.hotplug import blockdev_command

# ARG_MAX of a process with the default 8 MiB stack rlimit (a quarter of
# it), which is libvirtd's and so its QEMU's unless someone raised it.
LIBVIRT_ARG_MAX = 2 * 1024 * 1024
# Left free below it: libvirt's environment for QEMU (LC_ALL, PATH, HOME,
# XDG_*: under 1 KiB), the run directory's length in each file-backed
# disk (+200 bytes over 5000 disks is 1 MB of the estimate's error, which
# run-time measurement removes) and what libvirt adds between releases.
MARGIN = 256 * 1024
BUDGET = LIBVIRT_ARG_MAX - MARGIN
# libvirt's RPC carries a string of at most 4 MiB
# (VIR_NET_MESSAGE_STRING_MAX): the domain XML itself must fit, or
# createXML fails with "Unable to encode message payload".
XML_MAX = 4 * 1024 * 1024 - MARGIN

# libvirt 9.0's spelling, for estimates without a daemon (`plan`): what a
# domain costs besides its <qemu:arg>s, a controller, and a native disk
# besides its file's path (two JSON -blockdev and a JSON -device).
# Measured with domainXMLToNative on oracle-4000-verify and
# ibm-5000-verify (608-616 bytes per slice disk, 5.4-6.1 KiB bare); the
# run asks libvirt itself.
BASE_BYTES = 6 * 1024
CONTROLLER_BYTES = 200
NATIVE_DISK_BYTES = 640


# What one disk attached live costs (evidence/20261205-libvirt-attach/,
# blkscale_bench.attachcost on a 2-core host): a <disk> through
# virDomainAttachDeviceFlags 272 ms, the median over 1500 slices beside 2500
# on the command line; a disk through QEMU's monitor 48.6 ms at the first
# and 5.9 us more for every disk attached before it (Siegel's fit over the
# first 7770 of dev_t-65536's 57,350, beside 8186 on the command line).
# libvirtd formats and saves the whole domain status after each, and
# QEMU 7.2 walks every disk it has for each disk added.
ATTACH_NATIVE_S = 0.272
ATTACH_MONITOR_S = 0.0486
ATTACH_MONITOR_GROWTH_S = 5.9e-6


def attach_seconds(native, monitor):
    """About how long attaching that many disks takes: the native ones at
    their median, then each monitor disk at its fitted cost, which grows
    with the disks attached before it."""
    return (native * ATTACH_NATIVE_S + monitor * ATTACH_MONITOR_S
            + ATTACH_MONITOR_GROWTH_S * monitor * (monitor - 1) / 2)


@dataclass
class Late:
    """The disks of a domain that are attached after it starts."""
    xml: list = field(default_factory=list)     # <disk> elements, as text
    qmp: list = field(default_factory=list)     # QMP commands, in order
    disks: int = 0

    @property
    def native(self):
        return len(self.xml)

    @property
    def monitor(self):
        return self.disks - self.native

    def add_native(self, text):
        self.xml.append(text)
        self.disks += 1

    def add_monitor(self, blockdevs, device):
        """blockdevs: the disk's -blockdev specs; device: its -device
        properties."""
        self.qmp += [blockdev_command(b) for b in blockdevs]
        self.qmp.append({"execute": "device_add", "arguments": device})
        self.disks += 1

    def shown(self):
        """What --show-command and `xml` print after the domain XML:
        XML comments, so that the whole stays one valid document."""
        if not self.disks:
            return ""
        lines = [f"attached live, before the guest runs: {self.disks} SCSI "
                 f"disks ({self.native} with virDomainAttachDeviceFlags, "
                 f"{self.monitor} through QEMU's monitor)"]
        lines += ["attach " + x for x in self.xml]
        lines += ["qmp " + json.dumps(c, separators=(",", ":"))
                  for c in self.qmp]
        # "--" may not stand inside a comment.
        return "\n".join(f"<!-- {line.replace('--', '- -')} -->"
                         for line in lines)


def limited_size(argv_bytes, xml_bytes, budget=BUDGET):
    """The command line's size against budget, or more when the XML
    passes XML_MAX: either limit moves disks late."""
    return max(argv_bytes, budget + xml_bytes - XML_MAX)


def command_line_bytes(argv_text):
    """What libvirt's QEMU command line (domainXMLToNative's text, words
    separated by one space) costs against ARG_MAX: each word, its NUL
    and a pointer."""
    return len(argv_text.encode()) + 8 * (argv_text.count(" ") + 1)


def late_count(size_of, estimated, scsi_disks, budget=BUDGET, rounds=6):
    """How many SCSI disks, from the last, to attach live so that
    size_of(n) (libvirt's own command line with n late disks) fits budget.

    estimated is late_by_estimate()'s answer, which overestimates libvirt's
    spelling a little; the command line is measured, and a few more disks
    go late while it does not fit.  (n, its size), or (None, the size
    with every SCSI disk late) when not even that fits.
    """
    n = scsi_disks if estimated is None else estimated
    size = size_of(n)
    per_disk = None
    for _ in range(rounds):
        if size <= budget or n >= scsi_disks:
            break
        if per_disk is None:
            per_disk = max(1.0, (size_of(0) - size_of(scsi_disks))
                           / scsi_disks)
        n = min(scsi_disks, n + math.ceil((size - budget) / per_disk) + 8)
        size = size_of(n)
    return (n, size) if size <= budget else (None, size)


def args_bytes(args):
    """What command-line words cost against ARG_MAX: each, its NUL and a
    pointer."""
    return sum(len(a.encode()) + 1 + 8 for a in args)


def native_disk_bytes(path):
    """libvirt's words for one <disk> of a file (estimated)."""
    return NATIVE_DISK_BYTES + len(path.encode())


def late_by_estimate(bare, costs, budget=BUDGET):
    """How many SCSI disks, from the last, leave an estimated command line
    of bare + the others' costs within budget; None if not even none."""
    if bare > budget:
        return None
    size = bare + sum(costs)
    n = 0
    while size > budget:
        n += 1
        size -= costs[-n]
    return n


def estimate_bytes(dom, qemu_ns):
    """libvirt's command line for a <domain> element, estimated: its
    <qemu:arg>s as they are, the rest by the measured sizes above."""
    args = args_bytes(a.get("value") for a in dom.iter(qemu_ns + "arg"))
    disks = sum(native_disk_bytes(d.find("source").get("file", ""))
                for d in dom.iter("disk"))
    controllers = sum(1 for _ in dom.iter("controller"))
    return BASE_BYTES + args + disks + CONTROLLER_BYTES * controllers


class AttachError(Exception):
    """libvirt or QEMU refused a disk; carries which."""


def attach(libvirt, qemu_monitor, dom, late, cancel, added=None, every=50):
    """Attach every late disk to the paused domain; added(n) hears the
    disks attached so far, every `every` disks and at the end.  Stops
    early when cancel is set."""
    done = 0
    flags = libvirt.VIR_DOMAIN_AFFECT_LIVE
    for text in late.xml:
        if cancel.is_set():
            return done
        try:
            dom.attachDeviceFlags(text, flags)
        except libvirt.libvirtError as e:
            raise AttachError(f"libvirt refused a disk: "
                              f"{e.get_error_message()}") from None
        done += 1
        if added and done % every == 0:
            added(done)
    for command in late.qmp:
        if cancel.is_set():
            return done
        try:
            reply = json.loads(qemu_monitor(dom, json.dumps(command), 0))
        except libvirt.libvirtError as e:
            raise AttachError(f"QEMU's monitor did not answer "
                              f"{command['execute']}: "
                              f"{e.get_error_message()}") from None
        if "error" in reply:
            raise AttachError(f"QEMU refused {command['execute']} "
                              f"{json.dumps(command['arguments'])}: "
                              f"{reply['error'].get('desc', reply['error'])}")
        if command["execute"] == "device_add":
            done += 1
            if added and done % every == 0:
                added(done)
    if added and done % every:
        added(done)
    return done
