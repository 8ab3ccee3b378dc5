"""Resources a topology needs, checked before anything boots.

MSI-X vectors, legacy I/O space, host file descriptors, guest memory and
the host memory QEMU needs.
The numbers and where they come from are in topologies/README.md; each
check refuses with the field a user would change.
"""

import resource
from dataclasses import dataclass, field

from .. import paths
from ..errors import TopologyError
from .schema import AUTO

# x86 gives each CPU vectors 0x20..0xeb for devices: about 200 per vCPU;
# the ISA IRQs and the timer take some of CPU 0's.
VECTORS_PER_VCPU = 200
VECTORS_SYSTEM = 16
# The results port (virtio-serial-pci) is given two vectors.
RESULTS_VECTORS = 2

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

# QEMU's own memory, KiB (peak RSS with -S, no guest, blkscale_bench.qemustart
# on the SCSI boot-curve points: 235 MiB at 5000 disks, 425 at 10,000,
# 808 at 20,000): about 48 MiB and 39 KiB per SCSI disk; 0.8 MiB per
# virtio-blk-pci device (topologies/README.md, virtio-max).  The guest's
# RAM comes on top as the guest touches it: all of it, at worst.
QEMU_BASE_KIB = 48 * 1024
QEMU_SCSI_DISK_KIB = 39
QEMU_PCI_DISK_KIB = 800


def qemu_default_queues(group, vcpus):
    """QEMU 7.2 gives virtio-blk/-scsi-pci one request queue per vCPU."""
    return vcpus if group.num_queues == AUTO else group.num_queues


def queue_size(group):
    return 256 if group.queue_size == AUTO else group.queue_size


def fixed_vectors(kind):
    """Vectors that are not per request queue: config (+ scsi ctrl, event)."""
    return 1 if kind == "virtio_blk" else 3


def table_size(kind, queues):
    """QEMU's default MSI-X table: one entry per virtqueue plus config."""
    return queues + fixed_vectors(kind)


def vector_cost(kind, queues, vectors, vcpus):
    """Vectors the guest kernel really takes for one device.

    virtio_pci first asks for one vector per virtqueue; the request queue
    vectors are managed interrupts spread over the CPUs, and the kernel
    reserves a managed vector on every CPU of its mask, so the queues cost
    max(queues, vCPUs), whatever the number of queues (measured: 2 vCPUs
    run out after 136 single-queue virtio-blk devices, 3 vectors each).
    With a smaller MSI-X table it falls back to 2 shared vectors, with
    fewer than 2 to INTx.
    """
    if vectors >= table_size(kind, queues):
        return fixed_vectors(kind) + max(queues, vcpus)
    return 2 if vectors >= 2 else 0


@dataclass
class Resources:
    vector_budget: int = 0
    vectors_used: int = 0
    msix_devices: int = 0
    intx_devices: int = 0
    io_used: int = 0
    io_bridges: int = 0
    fds: int = 0
    fd_limit: int = 0
    memory_kib: int = 0
    memory_parts: dict = field(default_factory=dict)
    qemu_kib: int = 0               # QEMU's host memory, guest RAM included
    qemu_devices_kib: int = 0       # of which QEMU's own and its devices'
    host_kib: int = 0               # the host's MemTotal
    notes: list = field(default_factory=list)


def plan_resources(topo, layout, accel="tcg"):
    res = Resources()
    _vectors(topo, layout, res)
    _io_space(topo, layout, res)
    check_fds(topo, layout, res, accel)
    _memory(topo, layout, res)
    check_host_memory(topo, res)
    return res


def _vectors(topo, layout, res):
    """Choose vectors per device within the MSI-X budget.

    Values set in the file are kept; "auto" starts at QEMU's default table
    and, while the budget is exceeded, shares two vectors per device, then
    gives the first devices in enumeration order INTx (vectors = 0).  The
    first ones, so that the PCI INTx lines are set up while vectors remain:
    a device whose MSI-X allocation fails later falls back to a working
    INTx line instead of failing its probe with ENOSPC.
    """
    vcpus = topo.guest.vcpus
    res.vector_budget = (VECTORS_PER_VCPU * vcpus - VECTORS_SYSTEM
                         - RESULTS_VECTORS)
    devices = layout.devices
    for dev in devices:
        g = dev.group
        dev.num_queues = qemu_default_queues(g, vcpus)
        dev.queue_size = queue_size(g)
        dev.vectors = (table_size(g.kind, dev.num_queues)
                       if g.vectors == AUTO else g.vectors)

    def cost(devs):
        return sum(vector_cost(d.group.kind, d.num_queues, d.vectors, vcpus)
                   for d in devs)

    fixed = [d for d in devices if d.group.vectors != AUTO]
    if cost(fixed) > res.vector_budget:
        group = fixed[0].group
        cpus = f"{vcpus} vCPU" + ("s" if vcpus > 1 else "")
        raise TopologyError(topo.path, f"{group.field}.vectors", "devices "
                            f"with fixed vectors need {cost(fixed)} MSI-X "
                            f"vectors; {cpus} give about {res.vector_budget}:"
                            ' lower vectors (0 = INTx) or use "auto"')
    auto = [d for d in devices if d.group.vectors == AUTO]
    if cost(devices) > res.vector_budget:
        shared = 0
        for d in auto:
            if table_size(d.group.kind, d.num_queues) > 2:
                d.vectors = 2
                shared += 1
        if shared:
            res.notes.append(f"MSI-X budget: {shared} auto devices share 2 "
                             "vectors")
    over = cost(devices) - res.vector_budget
    if over > 0:
        intx = 0
        for d in auto:
            if over <= 0:
                break
            over -= cost([d])
            d.vectors = 0
            intx += 1
        res.notes.append(f"MSI-X budget: the first {intx} auto devices use "
                         "INTx (vectors = 0)")
    res.vectors_used = cost(devices) + RESULTS_VECTORS
    res.msix_devices = sum(1 for d in devices if d.vectors)
    res.intx_devices = len(devices) - res.msix_devices


def _io_space(topo, layout, res):
    """Legacy I/O BARs: 4 KiB windows per bridge out of SeaBIOS' 36 KiB."""
    def bus_io(bus):
        legacy = sum(1 for d in bus.devices.values()
                     if not d.group.disable_legacy)
        size = legacy * IO_LEGACY_BAR + sum(bus_io(b)
                                            for b in bus.bridges.values())
        if bus.kind == "root":
            return size
        if size:
            res.io_bridges += bus.kind == "leaf"
            return -(-size // IO_BRIDGE_WINDOW) * IO_BRIDGE_WINDOW
        return 0

    res.io_used = bus_io(layout.root) + IO_ROOT_FIXED
    if res.io_used > IO_SPACE:
        group = next(d.group for d in layout.devices
                     if not d.group.disable_legacy)
        raise TopologyError(topo.path, f"{group.field}.disable_legacy",
                            f"legacy I/O BARs need {res.io_used // 1024} KiB "
                            f"of I/O space ({res.io_bridges} pci-bridges at "
                            "4 KiB each); the firmware has "
                            f"{IO_SPACE // 1024} KiB: set disable_legacy = "
                            "true")


def check_fds(topo, layout, res, accel):
    """One descriptor per file-backed disk; KVM adds eventfds."""
    fds = QEMU_BASE_FDS
    for g in topo.pci_groups:
        if g.backing in ("sparse", "slice"):
            fds += g.disks
    if accel == "kvm":
        # ioeventfd per virtqueue and irqfd per vector.
        fds += sum(d.num_queues + d.vectors for d in layout.devices)
    res.fds = fds
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    res.fd_limit = hard if hard != resource.RLIM_INFINITY else 1 << 30
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


def _memory(topo, layout, res):
    initrd_kib = initramfs_bytes(topo.guest.variants) // 1024
    parts = {"kernel": MEM_FIXED_KIB, "initramfs x2": 2 * initrd_kib}
    blk = 0
    ctrl = 0
    for d in layout.devices:
        requests = d.num_queues * d.queue_size * MEM_REQUEST_KIB
        if d.group.kind == "virtio_blk":
            blk += MEM_BLK_DISK_KIB + requests
        else:
            ctrl += MEM_CONTROLLER_KIB + requests
    parts["virtio_blk"] = int(blk)
    scsi = MEM_SCSI_DISK_KIB * topo.expected["scsi"]
    parts["virtio_scsi"] = int(ctrl + scsi)
    sim = 0
    if topo.scsi_debug:
        sim += (MEM_SCSI_DISK_KIB * topo.scsi_debug.disks
                + topo.scsi_debug.dev_size_mb * 1024)
    if topo.null_blk:
        sim += MEM_NULLB_KIB * topo.null_blk.disks
    parts["sim"] = sim
    res.memory_parts = parts
    res.memory_kib = sum(parts.values())
    have = topo.guest.memory_mib * 1024
    if res.memory_kib > have:
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


def check_host_memory(topo, res):
    """QEMU's memory against the host's: refuse what the host cannot hold.

    One QEMU runs at a time (variants boot one after the other), so the
    figure is one QEMU's: its own, its devices' and the guest's RAM.
    """
    devices = (QEMU_BASE_KIB + QEMU_SCSI_DISK_KIB * topo.expected["scsi"]
               + QEMU_PCI_DISK_KIB * topo.expected["virtio"])
    guest = topo.guest.memory_mib * 1024
    res.qemu_devices_kib = devices
    res.qemu_kib = devices + guest
    res.host_kib = host_memory_kib()
    if res.host_kib and res.qemu_kib > res.host_kib:
        where = ("guest.memory_mib" if guest >= devices
                 else topo.largest_disk_field())
        raise TopologyError(topo.path, where, "QEMU would need about "
                            f"{res.qemu_kib // 1024} MiB (guest RAM "
                            f"{guest // 1024}, QEMU and its disks "
                            f"{devices // 1024}); the host has "
                            f"{res.host_kib // 1024} MiB")
