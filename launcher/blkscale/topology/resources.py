"""Resources a topology needs, checked before anything boots.

MSI-X vectors (as the layout's devices were given them: vectors.py),
legacy I/O space, host file descriptors, guest memory and the host
memory QEMU needs.
The numbers and where they come from are in topologies/README.md; each
check refuses with the field a user would change.
"""

import resource
from dataclasses import dataclass

from .. import kernels, paths
from ..errors import InputError, TopologyError

# SeaBIOS 1.16 puts PCI I/O at 0xc000-0xffff when the total fits in
# 16 KiB and otherwise at 0x1000-0x9fff (36 KiB); more is a firmware
# panic ("PCI: out of I/O address space", measured: 9 bridges with legacy
# virtio devices fail, 8 boot).  A bridge window is 4 KiB.
IO_SPACE = 0x9000
IO_BRIDGE_WINDOW = 0x1000
# Legacy virtio I/O BAR: 20-24 bytes of common registers plus the device
# config, rounded up to a power of two.
IO_LEGACY_BAR = 128
IO_ROOT_FIXED = 16          # PIIX3 IDE bus-master BAR

# QEMU's own descriptors (chardevs, QMP, eventfds, libraries), measured
# around 40; the rest is a margin.
QEMU_BASE_FDS = 64

# Guest memory model, KiB, from guest meminfo of our own boots (stock
# 6.1, TCG): with no disks MemTotal - MemAvailable is the initramfs (kept
# in the rootfs tmpfs) plus about 15 MiB; while it is unpacked the archive
# is in memory twice.  500 virtio-scsi LUNs cost 47 KiB each (DESIGN.md:
# 183 MB slab for 4000); a virtio-blk disk costs about 64 KiB plus its
# preallocated requests, 0.44 KiB each (queues x queue size): 177 KiB
# with one queue of 256.
MEM_FIXED_KIB = 48 * 1024           # kernel, page tables, tools' headroom
MEM_INITRAMFS_ASSUMED = 128 * 1024 * 1024   # bytes, when none is built yet
MEM_SCSI_DISK_KIB = 48
MEM_BLK_DISK_KIB = 64
MEM_REQUEST_KIB = 0.5
MEM_CONTROLLER_KIB = 128
MEM_NULLB_KIB = 64
# An mptsas1068 HBA with 8 disks, from MemTotal - MemFree at 125 and 500
# HBAs (evidence/20261206-sas-hba/): 1746 KiB per HBA, of which the
# disks' slab is 92-94 KiB each (their SAS port, end device and
# transport-class devices: 30 KiB more than on virtio-scsi) and the rest
# the HBA's own: mptbase's DMA frame pools and its threads' stacks.
MEM_SAS_HBA_KIB = 1024
MEM_SAS_DISK_KIB = 96
# A SCSI disk on a distribution's kernel config without udev: Debian's
# shipped 6.1 holds 116.7 KiB of slab per disk at 4000 disks against 40.5
# on tinyconfig and blkscale.config (DESIGN.md), plus 3.0 KiB percpu and
# 2.6 KiB vmalloc (evidence/20261206-dcfg-udev-4000).  scsi_debug's LUNs
# count the same.
MEM_SCSI_DISK_DISTRO_KIB = 122
# A SCSI disk with udev in the guest, on the Debian-config kernel (udev
# needs a distro's config) with sg loaded as Debian's rules load it:
# 156.5 KiB of slab (most of it the sysfs inodes and dentries udev's
# reads make, and devtmpfs's nodes and links), 3.0 KiB percpu and 2.6
# KiB vmalloc per disk between 250 and 4000 disks
# (evidence/20261206-dcfg-udev-4000).
MEM_SCSI_DISK_UDEV_KIB = 162
# A dm-multipath map with its paths' requests, multipathd's share
# (105 KiB RSS per map) and its kernel threads: 1000 maps over 2000
# paths had 2.0 GB in use, 1.6 GB more than the paths alone
# (evidence/20261206-multipath-1000); 2048 MiB ran out of memory.
MEM_MPATH_MAP_KIB = 1600

# QEMU's own memory, KiB (peak RSS with -S, no guest, blkscale_bench.qemustart
# on the SCSI boot-curve points: 235 MiB at 5000 disks, 425 at 10,000,
# 808 at 20,000): about 48 MiB and 39 KiB per SCSI disk; 0.8 MiB per
# virtio-blk-pci device (topologies/README.md, virtio-max).  The guest's
# RAM comes on top as the guest touches it: all of it, at worst.
QEMU_BASE_KIB = 48 * 1024
QEMU_SCSI_DISK_KIB = 39
QEMU_PCI_DISK_KIB = 800


@dataclass(frozen=True)
class Resources:
    vector_budget: int
    vectors_used: int
    msix_devices: int
    intx_devices: int
    io_used: int
    io_bridges: int
    fds: int                        # under TCG
    eventfds: int                   # what KVM adds
    fd_limit: int
    memory_kib: int
    memory_parts: dict
    qemu_kib: int                   # QEMU's host memory, guest RAM included
    qemu_devices_kib: int           # of which QEMU's own and its devices'
    host_kib: int                   # the host's MemTotal
    notes: list

    def fds_for(self, accel):
        """File descriptors QEMU needs under this accelerator."""
        return self.fds + (self.eventfds if accel == "kvm" else 0)


def plan_resources(topo, layout, accel="tcg"):
    """The Resources of a laid-out topology, refused (TopologyError) where
    the guest, the firmware or the host cannot hold it; the descriptors
    are checked for the accelerator given."""
    io_used, io_bridges = _io_space(topo, layout)
    fds, eventfds = _fds(topo, layout)
    parts = _memory(topo, layout)
    qemu_devices_kib = (QEMU_BASE_KIB
                        + QEMU_SCSI_DISK_KIB * topo.expected["scsi"]
                        + QEMU_PCI_DISK_KIB * topo.expected["virtio"])
    msix = layout.msix
    res = Resources(
        vector_budget=msix.budget, vectors_used=msix.used,
        msix_devices=msix.msix_devices, intx_devices=msix.intx_devices,
        io_used=io_used, io_bridges=io_bridges, fds=fds, eventfds=eventfds,
        fd_limit=_hard_fd_limit(), memory_kib=sum(parts.values()),
        memory_parts=parts,
        qemu_kib=qemu_devices_kib + topo.guest.memory_mib * 1024,
        qemu_devices_kib=qemu_devices_kib, host_kib=host_memory_kib(),
        notes=msix.notes)
    check_fds(topo, res, accel)
    _check_memory(topo, res)
    _check_host_memory(topo, res)
    return res


def _io_space(topo, layout):
    """Legacy I/O BARs: 4 KiB windows per bridge out of SeaBIOS' 36 KiB;
    (bytes used, leaf bridges with legacy devices behind them)."""
    bridges = 0

    def bus_io(bus):
        nonlocal bridges
        legacy = sum(1 for d in bus.devices.values() if _legacy_io(d))
        size = legacy * IO_LEGACY_BAR + sum(bus_io(b)
                                            for b in bus.bridges.values())
        if bus.kind == "root":
            return size
        if size:
            bridges += bus.kind == "leaf"
            return -(-size // IO_BRIDGE_WINDOW) * IO_BRIDGE_WINDOW
        return 0

    used = bus_io(layout.root) + IO_ROOT_FIXED
    if used > IO_SPACE:
        group = next(d.group for d in layout.devices if _legacy_io(d))
        raise TopologyError(topo.path, f"{group.field}.disable_legacy",
                            f"legacy I/O BARs need {used // 1024} KiB "
                            f"of I/O space ({bridges} pci-bridges at "
                            "4 KiB each); the firmware has "
                            f"{IO_SPACE // 1024} KiB: set disable_legacy = "
                            "true")
    return used, bridges


def _legacy_io(device):
    """Whether the guest's driver needs the device's I/O BAR: a legacy
    virtio device's registers are there.  An mptsas1068 HBA has a 256-byte
    I/O BAR too, but mptbase maps its MMIO BAR alone (mpt_mapresources()),
    so an HBA whose I/O BAR the firmware leaves unassigned still works."""
    return device.group.kind != "sas" and not device.group.disable_legacy


def _fds(topo, layout):
    """One descriptor per file-backed disk; KVM adds an ioeventfd per
    virtqueue and an irqfd per vector: (QEMU's under TCG, KVM's more)."""
    fds = QEMU_BASE_FDS
    for g in topo.pci_groups:
        if g.backing in ("sparse", "slice"):
            fds += g.disks
    return fds, sum(d.num_queues + d.vectors for d in layout.devices)


def _hard_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return hard if hard != resource.RLIM_INFINITY else 1 << 30


def check_fds(topo, res, accel):
    """Refuse what needs more descriptors under the accelerator than the
    hard limit allows."""
    fds = res.fds_for(accel)
    if fds > res.fd_limit:
        group = max((g for g in topo.pci_groups
                     if g.backing in ("sparse", "slice")),
                    key=lambda g: g.disks, default=None)
        field_ = f"{group.field}.backing" if group else "guest.vcpus"
        raise TopologyError(topo.path, field_, f"QEMU would need {fds} file "
                            "descriptors; the hard limit (ulimit -Hn) is "
                            f"{res.fd_limit}: use null backing for some "
                            "groups or raise the limit")


def initramfs_bytes(variants):
    """Size of the largest built base initramfs of these variants."""
    sizes = [paths.initramfs(v).stat().st_size for v in variants
             if paths.initramfs(v).is_file()]
    return max(sizes) if sizes else MEM_INITRAMFS_ASSUMED


def distro_config(variants):
    """Whether any of these variants is built with a distribution's
    config (kernel/variants.toml); a name it does not declare is not."""
    try:
        known = kernels.load()
    except InputError:
        return False
    return any(known[v].distro_config for v in variants if v in known)


def _memory(topo, layout):
    """The guest memory estimate, KiB by part."""
    initrd_kib = initramfs_bytes(topo.guest.variants) // 1024
    scsi_disk = MEM_SCSI_DISK_DISTRO_KIB if distro_config(
        topo.guest.variants) else MEM_SCSI_DISK_KIB
    parts = {"kernel": MEM_FIXED_KIB, "initramfs x2": 2 * initrd_kib}
    blk = 0
    ctrl = {"virtio_scsi": 0, "sas": 0}
    for d in layout.devices:
        requests = d.num_queues * d.queue_size * MEM_REQUEST_KIB
        if d.group.kind == "virtio_blk":
            blk += MEM_BLK_DISK_KIB + requests
        elif d.group.kind == "sas":
            ctrl["sas"] += MEM_SAS_HBA_KIB
        else:
            ctrl[d.group.kind] += MEM_CONTROLLER_KIB + requests
    parts["virtio_blk"] = int(blk)
    for kind, groups in (("virtio_scsi", topo.scsi_groups),
                         ("sas", topo.sas_groups)):
        per_disk = MEM_SAS_DISK_KIB if kind == "sas" else \
            MEM_SCSI_DISK_UDEV_KIB if topo.guest.udev else scsi_disk
        scsi = per_disk * sum(g.path_disks for g in groups)
        if kind == "virtio_scsi" or groups:
            parts[kind] = int(ctrl[kind] + scsi)
    maps = sum(g.disks for g in topo.multipath_groups)
    if maps:
        parts["multipath maps"] = MEM_MPATH_MAP_KIB * maps
    sim = 0
    if topo.scsi_debug:
        sim += (scsi_disk * topo.scsi_debug.disks
                + topo.scsi_debug.dev_size_mb * 1024)
    if topo.null_blk:
        sim += MEM_NULLB_KIB * topo.null_blk.disks
    parts["sim"] = sim
    return parts


def _check_memory(topo, res):
    if res.memory_kib > topo.guest.memory_mib * 1024:
        need = -(-res.memory_kib // 1024)
        raise TopologyError(topo.path, "guest.memory_mib",
                            f"{topo.guest.memory_mib} MiB is less than the "
                            f"{need} MiB estimated for {topo.expected_total} "
                            "disks")


def host_memory_kib():
    """The host's MemTotal, KiB (0 if unknown: nothing is refused)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _check_host_memory(topo, res):
    """QEMU's memory against the host's: refuse what the host cannot hold.

    One QEMU runs at a time (variants boot one after the other), so the
    figure is one QEMU's: its own, its devices' and the guest's RAM.
    """
    devices = res.qemu_devices_kib
    guest = topo.guest.memory_mib * 1024
    if res.host_kib and res.qemu_kib > res.host_kib:
        where = ("guest.memory_mib" if guest >= devices
                 else topo.largest_disk_field())
        raise TopologyError(topo.path, where, "QEMU would need about "
                            f"{res.qemu_kib // 1024} MiB (guest RAM "
                            f"{guest // 1024}, QEMU and its disks "
                            f"{devices // 1024}); the host has "
                            f"{res.host_kib // 1024} MiB")
