"""The machine a planned topology becomes, as frozen records.

build() is the one place that turns the Layout into block nodes,
controllers and disks with their addresses and properties; qemu/argv.py
spells the records as QEMU arguments, libvirt/domain_xml.py as domain
XML elements.  StartPlan is how QEMU gets those disks (qemu/diskstart.py
chooses it); nothing here is written back into topology.Resources.
"""

from dataclasses import dataclass

from .disks import (device_props, disk_props, node_name, slice_place,
                    sparse_path)


@dataclass(frozen=True)
class Blockdev:
    """A disk's block node: null-co, a sparse file, or a slice (a raw
    node at `offset` over a file node of its own, "f-<node>")."""
    node: str
    backing: str                # null, sparse or slice
    size: int                   # bytes the guest sees
    path: str = None            # the image file (sparse, slice)
    offset: int = 0             # slice: where the disk starts in path

    @property
    def file_node(self):
        return f"f-{self.node}"


@dataclass(frozen=True)
class Disk:
    """One guest disk: its block node, device properties (drive, serial,
    share-rw as QEMU names them) and, on a SCSI controller, its address."""
    group: object
    index: int
    name: str                   # the guest's name for it (vda, sdb, ...)
    blockdev: Blockdev
    props: tuple                # ((QEMU property, value), ...)
    target: int = None
    lun: int = None
    path: int = 0               # which path to its LUN; 0 owns the node

    @property
    def serial(self):
        return dict(self.props)["serial"]


@dataclass(frozen=True)
class Controller:
    """A PCI device of a disk group: a virtio-blk-pci with its one disk,
    or a virtio-scsi-pci controller with its LUNs."""
    group: object
    index: int
    bus: object                 # topology.layout.Bus
    slot: int
    props: tuple                # ((our property, value), ...)
    disks: tuple                # Disk records

    @property
    def kind(self):
        return self.group.kind

    @property
    def settings(self):
        """Our property -> value (machine/disks.py: DEVICE_PROPS)."""
        return dict(self.props)


@dataclass(frozen=True)
class Bridge:
    bus: object                 # the topology.layout.Bus it makes
    parent: object
    slot: int
    chassis: int


@dataclass(frozen=True)
class Machine:
    bridges: tuple
    controllers: tuple          # in guest enumeration order


@dataclass(frozen=True)
class StartPlan:
    """How QEMU gets its disks (qemu/diskstart.py: the methods)."""
    method: str                 # argv, stack, stack+qmp or qmp
    reason: str
    argv: tuple                 # what QEMU is started with
    commands: tuple = ()        # QMP, before `cont`
    limit: int = 0              # ARG_MAX for argv
    stack_bytes: int = 0        # soft RLIMIT_STACK of the child, if raised
    full_bytes: int = 0         # the command line with every disk
    argv_bytes: int = 0         # the command line that runs
    qmp_disks: int = 0          # SCSI disks among the QMP commands


def _blockdev(files, group, index):
    node = node_name(group, index)
    if group.backing == "sparse":
        return Blockdev(node, "sparse", group.size_bytes,
                        sparse_path(files, group, index))
    if group.backing == "slice":
        path, offset = slice_place(files, group, index)
        return Blockdev(node, "slice", group.size_bytes, path, offset)
    return Blockdev(node, "null", group.size_bytes)


def _disk(files, record):
    return Disk(record.group, record.index, record.name,
                _blockdev(files, record.group, record.index),
                tuple(disk_props(record).items()), record.target,
                record.lun, record.path)


def build(planned, files):
    """The Machine of a planned topology whose run files are `files`."""
    layout = planned.layout
    bridges = tuple(Bridge(b, b.parent, b.slot, b.chassis)
                    for b in layout.bridges)
    controllers = tuple(
        Controller(d.group, d.index, d.bus, d.slot,
                   tuple(device_props(d).items()),
                   tuple(_disk(files, r) for r in d.disks))
        for d in layout.devices)
    return Machine(bridges, controllers)
