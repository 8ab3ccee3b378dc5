"""PCI placement of the disk devices on an i440fx (`-machine pc`) guest:
virtio devices and SAS HBAs.

The root bus has 32 slots: 0 is the host bridge, 1 the PIIX3 (ISA, IDE,
ACPI), 2 our virtio-serial results port, so 29 remain.  More devices go
behind pci-bridge devices: each bridge takes one slot of its parent and
adds a bus of 32 slots (shpc=off: no hot-plug controller, so slot 0 is
usable too).  Bus numbers are 8 bits: 255 bridges at most.

When the root bus cannot hold all bridges, `hub` bridges on the root bus
carry further bridges.  With H hubs, root and hubs offer
(29 - H) + 32 * H bridge positions, so 255 bridges need 8 hubs and leave
29 + 255 * 31 = 7934 slots for devices: the most one guest can take.

Devices are placed group by group (virtio-scsi controllers first, then
SAS HBAs, then virtio-blk groups, each in file order) into the first free slots in the
order the guest kernel enumerates them: every bus lists its own devices
before the buses behind its bridges (pci_bus_add_devices()).  The same
order makes virtio_blk probe, so the guest names disks vda, vdb, ... in
that order, which is how the launcher knows the names of fio and lvm disks.

Layout.disks holds one record per disk with its whole address (bus,
slot, SCSI target and LUN), so that the QEMU command line and the
libvirt XML place each disk from the same record.  A device's record is
made once its queues and vectors are chosen (vectors.py): the budget is
spent in enumeration order, which only the whole placement knows.
"""

from dataclasses import dataclass, field

from ..errors import TopologyError
from . import vectors

SLOTS_PER_BUS = 32
ROOT_RESERVED = {0: "host bridge", 1: "PIIX3", 2: "virtio-serial (results)"}
ROOT_FREE = SLOTS_PER_BUS - len(ROOT_RESERVED)
MAX_BRIDGES = 255
RESULTS_SLOT = 2


@dataclass
class Bus:
    qemu_id: str              # "pci.0" or the id of the bridge device
    kind: str                 # root, hub or leaf
    parent: "Bus" = None
    slot: int = 0             # slot of the bridge on its parent bus
    chassis: int = 0          # chassis_nr of the bridge
    number: int = 0           # bus number the firmware will assign
    devices: dict = field(default_factory=dict)   # slot -> Device
    bridges: dict = field(default_factory=dict)   # slot -> Bus

    def free_slots(self):
        used = set(self.devices) | set(self.bridges)
        if self.kind == "root":
            used |= set(ROOT_RESERVED)
        return [s for s in range(SLOTS_PER_BUS) if s not in used]


@dataclass(frozen=True)
class Disk:
    """One disk and where it sits."""
    group: object
    index: int                # index of the disk within its group
    # Where its virtio-blk device or virtio-scsi controller sits.
    bus: Bus
    slot: int
    target: int = None        # SCSI target and LUN on the controller
    lun: int = None
    # vdX in virtio_blk probe order (the guest's names); sdX in layout
    # order (libvirt's <target dev>: the guest's own SCSI names follow
    # asynchronous probe order).
    name: str = ""
    path: int = 0             # which path to the LUN (virtio_scsi[].paths)


@dataclass(frozen=True)
class Device:
    group: object
    index: int                # index of the device within its group
    bus: Bus
    slot: int
    num_queues: int
    queue_size: int
    vectors: int
    disks: list               # its Disk records


@dataclass(frozen=True)
class Layout:
    root: Bus
    buses: list               # every bus in guest enumeration order
    devices: list             # every device in guest enumeration order
    disks: list               # every Disk, in the same order
    msix: vectors.Msix        # the vector budget and how it is spent

    @property
    def bridges(self):
        return [b for b in self.buses if b.kind != "root"]

    def of_group(self, group):
        return [d for d in self.devices if d.group is group]

    def blk_names(self):
        """(group id, index) -> guest disk name, in virtio_blk probe order."""
        return {(d.group.id, d.index): d.name for d in self.disks
                if d.group.kind == "virtio_blk"}


def disk_suffix(index):
    """sd_format_disk_name()/virtblk_name_format(): a..z, aa..zz, aaa..."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def _shape(nbridges, root_slots):
    """How many hubs, root leaves and hub leaves for nbridges bridges."""
    if nbridges <= root_slots:
        return 0, nbridges, 0
    # Each hub takes a root slot and offers 32: the smallest count that fits.
    hubs = 0
    while (root_slots - hubs) + SLOTS_PER_BUS * hubs < nbridges - hubs:
        hubs += 1
    if hubs > root_slots:
        return None
    root_leaves = min(root_slots - hubs, nbridges - hubs)
    return hubs, root_leaves, nbridges - hubs - root_leaves


def _build_tree(nbridges, root_devices):
    """Root bus plus nbridges bridges, or None if they do not fit."""
    root = Bus("pci.0", "root")
    root_slots = ROOT_FREE - root_devices
    shape = _shape(nbridges, root_slots)
    if shape is None:
        return None
    hubs, root_leaves, hub_leaves = shape
    free = root.free_slots()
    # Root devices take the low slots, bridges the high ones.
    nroot = hubs + root_leaves
    bridge_slots = free[len(free) - nroot:] if nroot else []
    chassis = 0

    def add_bridge(parent, slot, kind):
        nonlocal chassis
        chassis += 1
        bus = Bus(f"br{chassis}", kind, parent, slot, chassis)
        parent.bridges[slot] = bus
        return bus

    for slot in bridge_slots[:root_leaves]:
        add_bridge(root, slot, "leaf")
    hub_buses = [add_bridge(root, slot, "hub")
                 for slot in bridge_slots[root_leaves:]]
    remaining = hub_leaves
    for hub in hub_buses:
        take = min(remaining, SLOTS_PER_BUS)
        for slot in range(take):
            add_bridge(hub, slot, "leaf")
        remaining -= take
    return root


def _dfs(bus, out):
    out.append(bus)
    for slot in sorted(bus.bridges):
        _dfs(bus.bridges[slot], out)
    return out


def _eligible(group, bus):
    if group.bus == "root":
        return bus.kind == "root"
    if group.bus == "bridge":
        return bus.kind != "root"
    return True


def _fill(groups, buses, placed=None):
    """Place every group's devices, as (bus, slot, group, index) into
    placed if given; the first group that does not fit."""
    free = {id(b): b.free_slots() for b in buses}
    for group in groups:
        remaining = group.devices
        index = 0
        for bus in buses:
            if not remaining:
                break
            if not _eligible(group, bus):
                continue
            slots = free[id(bus)]
            take = min(group.per_bus, len(slots), remaining)
            if placed is not None:
                for slot in slots[:take]:
                    placed.append((bus, slot, group, index))
                    index += 1
            del slots[:take]
            remaining -= take
        if remaining:
            return group
    return None


def _bridges_needed(groups):
    """A lower bound: every device beyond the root bus needs bridge slots."""
    devices = sum(g.devices for g in groups)
    beyond = max(0, devices - ROOT_FREE)
    return -(-beyond // (SLOTS_PER_BUS - 1))


def plan_layout(topo):
    """The Layout of the topology's PCI disk devices, or TopologyError."""
    groups = topo.pci_groups
    root_only = sum(g.devices for g in groups if g.bus == "root")
    if root_only > ROOT_FREE:
        group = next(g for g in groups if g.bus == "root")
        raise TopologyError(topo.path, f"{group.field}.bus", 'the groups on '
                            f'bus "root" need {root_only} slots; the root bus '
                            f"has {ROOT_FREE} free")
    failed = None
    for nbridges in range(_bridges_needed(groups), MAX_BRIDGES + 1):
        root = _build_tree(nbridges, root_only)
        if root is None:
            continue
        buses = _dfs(root, [])
        failed = _fill(groups, buses)
        if failed is None:
            placed = []
            _fill(groups, buses, placed)
            return _finish(topo, root, buses, placed)
    if failed is None:
        failed = groups[-1]
    total = sum(g.devices for g in groups)
    what = "count" if failed.kind == "virtio_blk" else "controllers"
    most = ROOT_FREE + MAX_BRIDGES * (SLOTS_PER_BUS - 1)
    raise TopologyError(topo.path, f"{failed.field}.{what}", "PCI is full: "
                        f"{total} PCI devices do not fit; {MAX_BRIDGES} "
                        f"pci-bridges give at most {most} slots (fewer with "
                        "per_bus or bus limits)")


def _finish(topo, root, buses, placed):
    # The firmware numbers buses depth-first, in the same order.
    for number, bus in enumerate(buses):
        bus.number = number
    # Enumeration order: bus by bus, slot by slot.
    placed.sort(key=lambda p: (p[0].number, p[1]))
    queues, msix = vectors.choose(topo, [group for _, _, group, _ in placed])
    devices = []
    count = {"vd": 0, "sd": 0}
    for (bus, slot, group, index), q in zip(placed, queues):
        device = Device(group, index, bus, slot, q.num_queues, q.queue_size,
                        q.vectors, _disks(group, index, bus, slot, count))
        bus.devices[slot] = device
        devices.append(device)
    return Layout(root, buses, devices,
                  [disk for d in devices for disk in d.disks], msix)


def _disks(group, index, bus, slot, count):
    """The Disk records of one device; count: the names given so far."""
    if group.kind == "virtio_blk":
        addresses = [(index, None, None)]
        prefix = "vd"
    else:
        # Device `index` is controller index % controllers of path
        # index // controllers: every path's controllers carry the same
        # LUNs at the same addresses.
        path, controller = divmod(index, group.controllers)
        first = controller * group.disks_per_controller
        addresses = [(first + target * group.luns + lun, target, lun)
                     for target in range(group.targets)
                     for lun in range(group.luns)]
        prefix = "sd"
    disks = []
    for number, target, lun in addresses:
        disks.append(Disk(group, number, bus, slot, target, lun,
                          prefix + disk_suffix(count[prefix]),
                          path if prefix == "sd" else 0))
        count[prefix] += 1
    return disks
