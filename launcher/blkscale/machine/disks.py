"""Every disk's names, backing and device properties.

Both backends hand the backing to QEMU as -blockdev options (libvirt
through its QEMU namespace for what its XML cannot say), so the option
text is made here too.
"""

import os
from collections import Counter

from ..errors import UsageError

# Per device type: our property -> QEMU's property name.
DEVICE_PROPS = {
    "virtio_blk": ("virtio-blk-pci", {"num_queues": "num-queues",
                                      "queue_size": "queue-size",
                                      "vectors": "vectors",
                                      "disable_legacy": "disable-legacy"}),
    "virtio_scsi": ("virtio-scsi-pci", {"num_queues": "num_queues",
                                        "queue_size": "virtqueue_size",
                                        "vectors": "vectors",
                                        "disable_legacy": "disable-legacy"}),
    # An HBA with nothing to choose: QEMU's defaults (msi=auto; the
    # guest's mptbase uses INTx anyway).
    "sas": ("mptsas1068", {}),
}


def opt_value(text):
    """A value inside a QEMU option list (key=value,...): commas doubled.

    Paths come from the environment (TMPDIR, BUILD) and may hold a comma;
    doubled, it stays part of the value instead of starting an option.
    """
    return text.replace(",", ",,")


def node_name(group, index):
    return f"d-{group.id}-{index}"


def disk_serial(group, index):
    return f"{group.id}-{index}"


def controller_id(group, index):
    """The QEMU id of SCSI controller `index` of a group (virtio-scsi or
    SAS)."""
    return f"sc-{group.id}-{index}"


def sparse_path(files, group, index):
    return f"{files.disks}/{files.disk_prefix}{group.id}-{index}.img"


# libvirt's schema takes a slice's offset as a 32-bit unsigned: a slice
# group gets one backing file per 4 GiB of slices.
SLICE_FILE_BYTES = 1 << 32


def slices_per_file(group):
    return max(1, SLICE_FILE_BYTES // group.size_bytes)


def slice_path(files, group, file_index=0):
    """The group's backing file `file_index`: the first keeps the group's
    name alone (ids have no dot, so no other image can take these)."""
    number = f".{file_index}" if file_index else ""
    return f"{files.disks}/{files.disk_prefix}{group.id}{number}.img"


def slice_place(files, group, index):
    """(backing file, byte offset in it) of slice `index` of a group."""
    file_index, slot = divmod(index, slices_per_file(group))
    return slice_path(files, group, file_index), slot * group.size_bytes


def slice_files(files, group):
    """(path, size in bytes) of each backing file of a slice group."""
    per_file = slices_per_file(group)
    return [(slice_path(files, group, n),
             min(per_file, group.disks - first) * group.size_bytes)
            for n, first in enumerate(range(0, group.disks, per_file))]


def image_files(planned, files):
    """(path, size in bytes) of every image file the disks need."""
    out = []
    for g in planned.topo.pci_groups:
        if g.backing == "sparse":
            out += [(sparse_path(files, g, i), g.size_bytes)
                    for i in range(g.disks)]
        elif g.backing == "slice":
            out += slice_files(files, g)
    return out


def _onoff(value):
    return "on" if value else "off"


def device_props(dev):
    if dev.group.kind == "sas":
        return {}
    return {"num_queues": dev.num_queues, "queue_size": dev.queue_size,
            "vectors": dev.vectors,
            "disable_legacy": _onoff(dev.group.disable_legacy)}


def shared_props(controllers):
    """The most common value of each property, per device type, among
    machine/model.py Controller records."""
    chosen = {}
    for kind, (qtype, names) in DEVICE_PROPS.items():
        of_kind = [c for c in controllers if c.kind == kind]
        if not of_kind:
            continue
        for prop in names:
            counts = Counter(c.settings[prop] for c in of_kind)
            chosen[(kind, prop)] = counts.most_common(1)[0][0]
    return chosen


def global_args(defaults):
    """-global arguments that make the chosen values every device's default."""
    args = []
    for (kind, prop), value in defaults.items():
        qtype, names = DEVICE_PROPS[kind]
        args += ["-global", f"{qtype}.{names[prop]}={value}"]
    return args


def changed_props(controller, defaults):
    """QEMU property -> value of what differs from the -global defaults."""
    names = DEVICE_PROPS[controller.kind][1]
    return {names[p]: v for p, v in controller.settings.items()
            if defaults[(controller.kind, p)] != v}


def blockdev_args(blockdev):
    """-blockdev arguments for one disk's block node (machine/model.py).

    A slice gets a file node of its own on the group's file: with one node
    shared by every slice, each new parent re-checks the permissions of all
    the others, and 2000 slices took 174 s to start instead of 1.4 s.
    """
    node = blockdev.node
    if blockdev.backing == "null":
        return ["-blockdev", f"driver=null-co,node-name={node},"
                f"read-zeroes=on,size={blockdev.size}"]
    if blockdev.backing == "sparse":
        return ["-blockdev", f"driver=file,node-name={node},"
                f"filename={opt_value(blockdev.path)}"]
    return ["-blockdev", f"driver=file,node-name={blockdev.file_node},"
            f"filename={opt_value(blockdev.path)}",
            "-blockdev", f"driver=raw,node-name={node},"
            f"file={blockdev.file_node},offset={blockdev.offset},"
            f"size={blockdev.size}"]


# NAA 3 (locally assigned) names for SAS disks; QEMU's mptsas1068 names
# itself 0x3525400 << 36 | its PCI address, so disks keep 0 in the next
# nibble and cannot meet an HBA's address.
SAS_WWN_BASE = 0x3 << 60


def disk_wwn(group, index):
    """A SAS disk's WWN, which mptsas1068 reports as the end device's SAS
    address: QEMU leaves scsi-hd's at 0, and the guest's mptsas adds no
    end device for disks that share an address."""
    return SAS_WWN_BASE | group.number << 40 | index + 1


# NAA 3 names for the LUNs of multipath groups: 0x31 in the top byte, so
# that they meet neither the SAS disks' (0x30) nor mptsas1068's (0x35).
MULTIPATH_WWN_BASE = 0x31 << 56


def lun_wwn(group, index):
    """The WWN of a LUN of a multipath group, the same on every path: the
    guest's scsi_id reads it from VPD page 0x83 as the LUN's WWID, and
    multipath groups paths by it."""
    return MULTIPATH_WWN_BASE | group.number << 40 | index + 1


def multipath_wwid(group, index):
    """The WWID the guest's scsi_id gives the LUN (NAA designator: "3"
    and the name's 16 hex digits), which names its dm-multipath map."""
    return f"3{lun_wwn(group, index):016x}"


# BLKSCALE_MULTIPATH_FAULT=serial: every path but the first reports a
# serial of its own (the LUN's serial and "p<path>"), as paths that are
# not the same LUN would: for the tests, whose census must then fail.
MULTIPATH_FAULT = "BLKSCALE_MULTIPATH_FAULT"


def multipath_fault():
    value = os.environ.get(MULTIPATH_FAULT, "")
    if value not in ("", "serial"):
        raise UsageError(f"{MULTIPATH_FAULT}={value}: must be serial")
    return value


def disk_props(disk):
    """The properties every disk device has: its node, serial, sharing,
    and on a SAS HBA or a LUN with several paths its WWN."""
    serial = disk_serial(disk.group, disk.index)
    path = getattr(disk, "path", 0)
    if path and multipath_fault() == "serial":
        serial += f"p{path}"
    props = {"drive": node_name(disk.group, disk.index), "serial": serial}
    if disk.group.kind == "sas":
        props["wwn"] = f"{disk_wwn(disk.group, disk.index):#018x}"
    elif disk.group.multipath:
        props["wwn"] = f"{lun_wwn(disk.group, disk.index):#018x}"
    if disk.group.backing == "slice" or disk.group.multipath:
        # Slices of one file: every device writes to the same file node;
        # a LUN's paths are devices on one block node.
        props["share-rw"] = True
    if disk.group.multipath:
        props["id"] = path_device_id(disk.group, path, disk.index)
    return props


# Paths of multipath LUNs have ids, so that the launcher can remove one
# (device_del) while the guest runs and add it back (the pathfail step).
PATH_ID_PREFIX = "pa-"


def path_device_id(group, path, index):
    return f"{PATH_ID_PREFIX}{group.id}-{path}-{index}"


def parse_path_device_id(qemu_id):
    """(group id, path, LUN index) of a path's device id, or None."""
    if not qemu_id.startswith(PATH_ID_PREFIX):
        return None
    group, path, index = qemu_id[len(PATH_ID_PREFIX):].rsplit("-", 2)
    return group, int(path), int(index)
