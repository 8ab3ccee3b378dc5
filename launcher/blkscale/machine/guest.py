"""What the guest boots with: kernel command line, firmware, results port."""

RESULTS_PORT = "org.blkscale.results"
# From Debian's qemu-system-data; SeaBIOS is QEMU's built-in default.
QBOOT_ROM = "/usr/share/qemu/qboot.rom"
BASE_CMDLINE = "console=ttyS0 panic=-1 rdinit=/init"


def kernel_cmdline(topo):
    extra = topo.guest.cmdline.strip()
    return BASE_CMDLINE + (" " + extra if extra else "")


def firmware_rom(topo):
    """The firmware image to load, or None for QEMU's own SeaBIOS."""
    return QBOOT_ROM if topo.guest.firmware == "qboot" else None
