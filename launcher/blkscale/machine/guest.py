"""What the guest boots with: kernel command line, firmware, results port."""

RESULTS_PORT = "org.blkscale.results"
# From Debian's qemu-system-data; SeaBIOS is QEMU's built-in default.
QBOOT_ROM = "/usr/share/qemu/qboot.rom"
BASE_CMDLINE = "console=ttyS0 panic=-1 rdinit=/init"
# hvc0 is the virtio console, registered when virtio_console probes; until
# then the 8250 prints as the boot console, so a panic before it is seen.
# A console that registers replays the kernel's log from its start.
VIRTIO_CMDLINE = ("earlycon=uart8250,io,0x3f8,115200 console=hvc0 "
                  "panic=-1 rdinit=/init")
# What each guest.clocksource adds to the command line.
CLOCK_ARGS = {"tsc": "tsc=reliable", "hpet": "clocksource=hpet",
              "kernel": ""}


def console_kind(topo, backend="qemu"):
    """"virtio" or "serial": guest.console with auto resolved.  libvirt
    streams only the serial port (virDomainOpenConsole)."""
    kind = topo.guest.console
    if kind == "auto":
        return "virtio" if backend == "qemu" else "serial"
    return kind


def clock_kind(topo, accel):
    """"tsc", "hpet" or "kernel": guest.clocksource with auto resolved.
    Under KVM the kernel picks kvm-clock by itself."""
    kind = topo.guest.clocksource
    if kind == "auto":
        return "tsc" if accel == "tcg" else "kernel"
    return kind


def kernel_cmdline(topo, accel="tcg", backend="qemu"):
    base = (VIRTIO_CMDLINE if console_kind(topo, backend) == "virtio"
            else BASE_CMDLINE)
    words = [base, CLOCK_ARGS[clock_kind(topo, accel)],
             topo.guest.cmdline.strip()]
    return " ".join(w for w in words if w)


def firmware_rom(topo):
    """The firmware image to load, or None for QEMU's own SeaBIOS."""
    return QBOOT_ROM if topo.guest.firmware == "qboot" else None
