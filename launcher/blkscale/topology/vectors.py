"""Each virtio device's request queues, queue size and MSI-X vectors,
chosen within the guest's vector budget before the device's record is
made (layout.py).  The numbers and where they come from are in
topologies/README.md.
"""

from dataclasses import dataclass

from ..errors import TopologyError
from .schema import AUTO

# x86 gives each CPU vectors 0x20..0xeb for devices: about 200 per vCPU;
# the ISA IRQs and the timer take some of CPU 0's.
VECTORS_PER_VCPU = 200
VECTORS_SYSTEM = 16
# The results port (virtio-serial-pci) is given two vectors.
RESULTS_VECTORS = 2


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


@dataclass(frozen=True)
class Virtqueues:
    """What one device is started with."""
    num_queues: int
    queue_size: int
    vectors: int


@dataclass(frozen=True)
class Msix:
    """The guest's vector budget and how the devices spend it."""
    budget: int
    used: int                 # the results port's included
    msix_devices: int
    intx_devices: int
    notes: list


def choose(topo, groups):
    """([Virtqueues], Msix) of the devices whose groups are given in
    enumeration order, or TopologyError.

    Values set in the file are kept; "auto" starts at QEMU's default table
    and, while the budget is exceeded, shares two vectors per device, then
    gives the first devices in enumeration order INTx (vectors = 0).  The
    first ones, so that the PCI INTx lines are set up while vectors remain:
    a device whose MSI-X allocation fails later falls back to a working
    INTx line instead of failing its probe with ENOSPC.
    """
    vcpus = topo.guest.vcpus
    budget = VECTORS_PER_VCPU * vcpus - VECTORS_SYSTEM - RESULTS_VECTORS
    queues = [qemu_default_queues(g, vcpus) for g in groups]
    vectors = [table_size(g.kind, q) if g.vectors == AUTO else g.vectors
               for g, q in zip(groups, queues)]

    def cost(devices):
        return sum(vector_cost(groups[i].kind, queues[i], vectors[i], vcpus)
                   for i in devices)

    every = range(len(groups))
    fixed = [i for i in every if groups[i].vectors != AUTO]
    if cost(fixed) > budget:
        group = groups[fixed[0]]
        cpus = f"{vcpus} vCPU" + ("s" if vcpus > 1 else "")
        raise TopologyError(topo.path, f"{group.field}.vectors", "devices "
                            f"with fixed vectors need {cost(fixed)} MSI-X "
                            f"vectors; {cpus} give about {budget}:"
                            ' lower vectors (0 = INTx) or use "auto"')
    auto = [i for i in every if groups[i].vectors == AUTO]
    notes = []
    if cost(every) > budget:
        shared = 0
        for i in auto:
            if table_size(groups[i].kind, queues[i]) > 2:
                vectors[i] = 2
                shared += 1
        if shared:
            notes.append(f"MSI-X budget: {shared} auto devices share 2 "
                         "vectors")
    over = cost(every) - budget
    if over > 0:
        intx = 0
        for i in auto:
            if over <= 0:
                break
            over -= cost([i])
            vectors[i] = 0
            intx += 1
        notes.append(f"MSI-X budget: the first {intx} auto devices use "
                     "INTx (vectors = 0)")
    msix = sum(1 for v in vectors if v)
    return ([Virtqueues(q, queue_size(g), v)
             for g, q, v in zip(groups, queues, vectors)],
            Msix(budget, cost(every) + RESULTS_VECTORS, msix,
                 len(groups) - msix, notes))
