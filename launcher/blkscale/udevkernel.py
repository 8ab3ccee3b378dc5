"""What a kernel needs to run Debian's systemd-udevd (guest.udev).

The options come from systemd's own README (its "Kernel Config Options");
those udevd needs to start and to hear uevents are required, a run on a
kernel without them is refused before anything boots.  The guest checks
the same again (guest-tools/initramfs/udev/start) for a kernel given
without its config.
"""

from . import paths
from .errors import TopologyError

# option -> what udevd uses it for
REQUIRED = {
    "NET": "netlink sockets, which carry the kernel's uevents",
    "UNIX": "udevd's control socket and its workers' socket pairs",
    "INOTIFY_USER": "the watches on rules files and disks (inotify)",
    "SIGNALFD": "its event loop's signals",
    "TIMERFD": "its event loop's timers",
    "EPOLL": "its event loop",
    "FHANDLE": "libudev's name_to_handle_at()",
    "DEVTMPFS": "the device nodes it adds links to",
}
# Options whose presence breaks udev.
FORBIDDEN = ("SYSFS_DEPRECATED",)


def read_config(variant):
    """{option: value} of a variant's kernel config, or None without one."""
    try:
        text = (paths.kernel_dir(variant) / "config").read_text()
    except OSError:
        return None
    options = {}
    for line in text.splitlines():
        if line.startswith("CONFIG_") and "=" in line:
            key, value = line[len("CONFIG_"):].split("=", 1)
            options[key] = value
    return options


def missing(options):
    """The options a config lacks for udevd (CONFIG_X, CONFIG_Y=n)."""
    lacking = [f"CONFIG_{o}" for o in REQUIRED
               if options.get(o) not in ("y", "m")]
    lacking += [f"CONFIG_{o}=n" for o in FORBIDDEN
                if options.get(o) == "y"]
    return lacking


def check(topo, variants):
    """Refuse guest.udev on a kernel that cannot run udevd."""
    if not topo.guest.udev:
        return
    for variant in variants:
        options = read_config(variant)
        if options is None:
            continue
        lacking = missing(options)
        if lacking:
            raise TopologyError(topo.path, "guest.udev", "the "
                                f"{variant} kernel cannot run systemd-udevd:"
                                " it lacks " + ", ".join(lacking))
