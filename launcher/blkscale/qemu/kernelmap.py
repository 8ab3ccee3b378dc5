"""Whether a variant's System.map names the functions its guest runs.

The profiler and a hung guest's vCPU snapshot name kernel addresses from
the variant's System.map.  That holds only when the file lists the
kernel's text (a distribution's image package ships a stub: Debian's
real map is in its linux-image-*-dbg package) and the text is where the
map says: a kernel built with CONFIG_RANDOMIZE_BASE moves it on every
boot unless its command line has nokaslr.  A wrong name is worse than an
address, so a map that cannot name this boot's functions is not used.
"""

KASLR = "CONFIG_RANDOMIZE_BASE=y"


def problem(kdir, cmdline):
    """Why kdir/System.map cannot name the functions of a boot with this
    kernel command line, or None."""
    path = kdir / "System.map"
    if not path.is_file():
        return "missing (make kernel)"
    if not _lists_text(path):
        return ("lists no kernel function (a distribution's stub: Debian "
                "ships the real map in linux-image-*-dbg)")
    if _config_has(kdir / "config", KASLR) and \
            "nokaslr" not in cmdline.split():
        return (f"the kernel places its text at random ({KASLR}) and the "
                "command line has no nokaslr (add it to guest.cmdline)")
    return None


def cmdline_of(argv):
    """The kernel command line of a QEMU argv (its -append), or ""."""
    argv = argv or []
    for flag, value in zip(argv, argv[1:]):
        if flag == "-append":
            return value
    return ""


def _lists_text(path):
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in ("T", "t"):
                return True
    return False


def _config_has(path, line):
    try:
        with open(path, errors="replace") as f:
            return any(ln.strip() == line for ln in f)
    except OSError:
        return False
