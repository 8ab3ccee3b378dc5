"""What the guest boots with: kernel command line, firmware, results port."""

from .. import kernels
from ..topology.model import console_kind

RESULTS_PORT = "org.blkscale.results"
# From Debian's qemu-system-data; SeaBIOS is QEMU's built-in default.
QBOOT_ROM = "/usr/share/qemu/qboot.rom"
BASE_CMDLINE = "console=ttyS0 panic=-1 rdinit=/init"
# hvc0 is the virtio console, registered when virtio_console probes; until
# then the 8250 prints as the boot console, so a panic before it is seen.
# The kernel drops the boot console then, and hvc0 goes on from there.
VIRTIO_CMDLINE = ("earlycon=uart8250,io,0x3f8,115200 console=hvc0 "
                  "panic=-1 rdinit=/init")
# The quiet console: warnings, oopses and panics (levels 0-4) on the 8250,
# not the notices and information printed for every disk.  The guest
# sends the whole log home from its ring buffer (kmsgdump reads it
# through /dev/kmsg), sized for the disks: about 1 KiB of messages per
# disk (65,536 tiny-config disks print about 45 MB).
QUIET_LOGLEVEL = 5
LOG_KIB_PER_DISK = 1
LOG_BUF_MIN = 1 << 20
LOG_BUF_MAX = 256 << 20
# A guest stopped as hung while a vCPU runs gets an NMI from the launcher
# (session/backtrace.py): unknown_nmi_panic makes the kernel panic on it,
# printing where the CPU was, and panic_print=0x40 asks every other CPU
# for its backtrace too.  Nothing else sends a guest an NMI.
NMI_ARGS = "unknown_nmi_panic panic_print=0x40"
# What each guest.clocksource adds to the command line.
CLOCK_ARGS = {"tsc": "tsc=reliable", "hpet": "clocksource=hpet",
              "kernel": ""}


def max_vcpus(topo, accel):
    """The vCPUs QEMU's machine may have (-smp's maxcpus), of which
    guest.vcpus are present.

    Under TCG, QEMU (Debian's 7.2) translates the code of a machine that
    can only have one vCPU with no host barriers and its atomic
    instructions as a plain load and store, while device emulation reads
    and writes guest memory from other threads.  virtio's interrupt
    suppression needs a full barrier on both sides: a one-vCPU boot of
    512 virtio-scsi LUNs lost a completion (used ring ahead of the guest,
    no interrupt, the guest idle for good) in 1 of 70 boots on a busy
    host, 3 of about 35 on an idle one.  A second possible vCPU, never
    present (the guest sees one CPU and one it could hot-plug), makes
    QEMU translate for parallel vCPUs (evidence/20261205-one-vcpu-hang/).
    """
    if accel != "kvm" and topo.guest.vcpus == 1:
        return 2
    return topo.guest.vcpus


def log_buf_len(topo):
    """The kernel's log buffer for the quiet console, bytes (a power of
    two, as the kernel rounds it)."""
    disks = topo.expected_total
    if "pathfail" in topo.plan.steps:
        # Every removed path leaves and comes back: its lines again.
        disks += sum(g.disks for g in topo.multipath_groups) * \
            len(topo.plan.pathfail.paths)
    want = LOG_KIB_PER_DISK * 1024 * disks
    size = LOG_BUF_MIN
    while size < want and size < LOG_BUF_MAX:
        size *= 2
    return size


def clock_kind(topo, accel):
    """"tsc", "hpet" or "kernel": guest.clocksource with auto resolved.
    Under KVM the kernel picks kvm-clock by itself."""
    kind = topo.guest.clocksource
    if kind == "auto":
        return "tsc" if accel == "tcg" else "kernel"
    return kind


def kernel_cmdline(topo, accel="tcg", variant=None):
    """The guest kernel's command line, the same for either backend:
    the launcher's, the topology's guest.cmdline, then the variant's own
    (kernel/variants.toml)."""
    kind = console_kind(topo)
    base = BASE_CMDLINE
    if kind == "virtio":
        base = VIRTIO_CMDLINE
    elif kind == "quiet":
        base = (f"console=ttyS0 loglevel={QUIET_LOGLEVEL} log_buf_len="
                f"{log_buf_len(topo) >> 20}M panic=-1 rdinit=/init")
    words = [base, NMI_ARGS, CLOCK_ARGS[clock_kind(topo, accel)],
             topo.guest.cmdline.strip(),
             kernels.cmdline_of(variant) if variant else ""]
    return " ".join(w for w in words if w)


def firmware_rom(topo):
    """The firmware image to load, or None for QEMU's own SeaBIOS."""
    return QBOOT_ROM if topo.guest.firmware == "qboot" else None
