"""The validated topology as frozen records, each made whole by the
loader (load.py).

Groups remember the field path they came from (`virtio_scsi[2]`) so that
later checks (PCI layout, resources) can point at the right line of thought
in the file when they refuse it.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

MIB = 1024 * 1024


@dataclass(frozen=True)
class Guest:
    vcpus: int
    memory_mib: int
    variants: list
    cmdline: str
    firmware: str = "qboot"
    uevent_helper: str = "none"
    clocksource: str = "auto"
    console: str = "auto"
    qemu: str = "distro"
    udev: bool = False
    udev_settle_s: int = 600
    udev_no_by_id: tuple = ()
    limits_expected: tuple = ()     # results/limits.py SUBSYSTEMS


@dataclass(frozen=True)
class Timeouts:
    boot_s: int
    run_s: int
    hang_s: int


@dataclass(frozen=True)
class PciGroup:
    """Fields shared by every group of virtio PCI devices."""
    field: str
    id: str
    backing: str
    size_mib: int
    num_queues: object      # int or "auto"
    queue_size: object      # int or "auto"
    vectors: object         # int or "auto"
    disable_legacy: bool
    bus: str
    per_bus: int

    @property
    def size_bytes(self):
        return self.size_mib * MIB

    @property
    def file_backed(self):
        return self.backing in ("sparse", "slice")


@dataclass(frozen=True)
class BlkGroup(PciGroup):
    count: int = 0
    kind = "virtio_blk"
    paths = 1
    multipath = False

    @property
    def devices(self):
        return self.count

    @property
    def disks(self):
        return self.count

    path_disks = disks


@dataclass(frozen=True)
class ScsiGroup(PciGroup):
    controllers: int = 1
    targets: int = 1
    luns: int = 1
    # Paths to every LUN: `paths` sets of `controllers` controllers, each
    # LUN on one controller of every set, one block node behind them all.
    paths: int = 1
    number: int = 0           # its place among the [[virtio_scsi]] groups
    kind = "virtio_scsi"

    @property
    def devices(self):
        return self.controllers * self.paths

    @property
    def path_disks(self):
        """SCSI disks the guest sees: every LUN once per path."""
        return self.disks * self.paths

    @property
    def multipath(self):
        return self.paths > 1

    @property
    def disks_per_controller(self):
        return self.targets * self.luns

    @property
    def disks(self):
        return self.controllers * self.targets * self.luns


@dataclass(frozen=True)
class SasGroup:
    """mptsas1068 HBAs, each with targets x luns scsi-hd disks.

    Not a virtio device: no queues or MSI-X table to choose.  The guest's
    mptbase uses INTx (vectors 0) unless told otherwise, and its MMIO BAR
    only; the 256-byte I/O BAR stays unused (topology/resources.py).
    """
    field: str
    id: str
    backing: str
    size_mib: int
    bus: str
    per_bus: int
    controllers: int = 1
    targets: int = 8
    luns: int = 1
    number: int = 0           # its place among the [[sas]] groups
    kind = "sas"
    num_queues = 1
    # mptsas' can_queue (MPT_SAS_CAN_QUEUE): its request frames are the
    # HBA's preallocated requests in the memory estimate.
    queue_size = 128
    vectors = 0

    paths = 1
    multipath = False
    size_bytes = PciGroup.size_bytes
    file_backed = PciGroup.file_backed
    devices = ScsiGroup.devices
    path_disks = ScsiGroup.path_disks
    disks_per_controller = ScsiGroup.disks_per_controller
    disks = ScsiGroup.disks


@dataclass(frozen=True)
class ScsiDebug:
    add_host: int
    num_tgts: int
    max_luns: int
    dev_size_mb: int
    params: dict
    delay: int = 0

    @property
    def disks(self):
        return self.add_host * self.num_tgts * self.max_luns

    def modprobe(self):
        args = {"add_host": self.add_host, "num_tgts": self.num_tgts,
                "max_luns": self.max_luns, "dev_size_mb": self.dev_size_mb,
                "delay": self.delay}
        args.update(self.params)
        return "scsi_debug " + _module_args(args)


@dataclass(frozen=True)
class NullBlk:
    nr_devices: int
    gb: int
    params: dict

    @property
    def disks(self):
        return self.nr_devices

    def modprobe(self):
        args = {"nr_devices": self.nr_devices, "gb": self.gb}
        args.update(self.params)
        return "null_blk " + _module_args(args)


def _module_args(args):
    def value(v):
        if isinstance(v, bool):
            return "1" if v else "0"
        return str(v)
    return " ".join(f"{k}={value(v)}" for k, v in args.items())


@dataclass(frozen=True)
class Fio:
    groups: list
    disks: int
    rw: str
    bs: str
    size_mib: int
    runtime_s: int
    iodepth: int
    ioengine: str
    verify: object          # bool or "auto"
    batch: int = 256
    spread: bool = False


@dataclass(frozen=True)
class Lvm:
    groups: list
    disks: int


@dataclass(frozen=True)
class Blktests:
    tests: list
    exclude: list
    disks: list             # serials, "group-index"
    timeout_s: int
    reruns: int = 5
    rerun_tests: list = field(default_factory=list)


@dataclass(frozen=True)
class Pathfail:
    paths: list             # path indices removed from every LUN
    down_s: int
    settle_s: int


@dataclass(frozen=True)
class Plan:
    steps: list
    settle_s: int
    args: dict
    fio: Fio
    lvm: Lvm
    blktests: Blktests
    pathfail: Pathfail = Pathfail([1], 20, 60)


@dataclass(frozen=True)
class Topology:
    path: Path
    name: str
    description: str
    guest: Guest
    timeouts: Timeouts
    blk_groups: list
    scsi_groups: list
    scsi_debug: Optional[ScsiDebug]
    null_blk: Optional[NullBlk]
    plan: Plan
    # The fio and lvm disks the loader chose, as (group, index) pairs.
    fio_disks: list
    lvm_disks: list
    sas_groups: list = field(default_factory=list)

    @property
    def pci_groups(self):
        """Every PCI disk group in placement order: controllers first
        (virtio-scsi, then SAS HBAs), then virtio-blk disks."""
        return (list(self.scsi_groups) + list(self.sas_groups)
                + list(self.blk_groups))

    def largest_disk_field(self):
        """The field to change when there are too many disks: the disk
        count of the group with the most."""
        group = max(self.pci_groups, key=lambda g: g.disks)
        what = "count" if group.kind == "virtio_blk" else "luns"
        return f"{group.field}.{what}"

    def group(self, gid):
        for g in self.pci_groups:
            if g.id == gid:
                return g
        return None

    @property
    def expected(self):
        """Disks the guest must find, by kind (PROTOCOL.md's EXPECT_*)."""
        sim = 0
        if self.scsi_debug:
            sim += self.scsi_debug.disks
        if self.null_blk:
            sim += self.null_blk.disks
        return {
            "virtio": sum(g.count for g in self.blk_groups),
            "scsi": sum(g.path_disks
                        for g in self.scsi_groups + self.sas_groups),
            "sim": sim,
        }

    @property
    def expected_sas(self):
        """SCSI disks the guest must find attached through the SAS
        transport class (a part of expected["scsi"])."""
        return sum(g.disks for g in self.sas_groups)

    @property
    def multipath_groups(self):
        """The groups whose LUNs the guest sees on more than one path."""
        return [g for g in self.scsi_groups if g.multipath]

    @property
    def expected_total(self):
        return sum(self.expected.values())

    def modprobe(self):
        loads = []
        if self.scsi_debug:
            loads.append(self.scsi_debug.modprobe())
        if self.null_blk:
            loads.append(self.null_blk.modprobe())
        return ";".join(loads)


def console_kind(topo):
    """"quiet", "virtio" or "serial": guest.console with auto resolved,
    the same for every backend."""
    kind = topo.guest.console
    return "quiet" if kind == "auto" else kind
