"""Which qemu-system-x86_64 a run starts, and what results.json says of it.

"distro": Debian's, found on PATH (BLKSCALE_QEMU overrides it, as tests
do); "patched": the one `make qemu` builds from Debian's source with
qemu/patches (build/qemu/out); anything else is a path.  A topology
chooses with guest.qemu, `--qemu` overrides it.  A `make qemu` build has
`version`, `base` and `patches` files beside it; results record its
patch set from them.
"""

import os
import shutil
from pathlib import Path

from . import paths
from .errors import TopologyError, UsageError
from .provenance import command_output

DISTRO = "distro"
PATCHED = "patched"
CHOICES = (DISTRO, PATCHED)


def patched_path():
    """Where `make qemu` puts its binary."""
    return paths.build_dir() / "qemu" / "out" / "qemu-system-x86_64"


def _refuse(problem, topo_path=None, from_topology=False):
    if from_topology:
        raise TopologyError(topo_path, "guest.qemu", problem)
    raise UsageError(f"--qemu: {problem}")


def choice(flag=None, topo=None):
    """What was asked for: --qemu's value, else the topology's
    guest.qemu, else the distro's."""
    if flag is not None:
        return flag
    return topo.guest.qemu if topo is not None else DISTRO


def resolve(flag=None, topo=None, refuse=None):
    """The binary to start: --qemu's value if given, else the topology's
    guest.qemu, else the distro's.  Refuses a patched binary not built
    and a path that is not an executable file, in one line: by
    refuse(problem) when given (a sweep names its own field), else as
    --qemu's or guest.qemu's error."""
    from_topology = flag is None and topo is not None
    chosen = choice(flag, topo)
    topo_path = topo.path if topo is not None else None
    if refuse is None:
        def refuse(problem):
            _refuse(problem, topo_path, from_topology)
    if chosen == DISTRO:
        return paths.qemu_binary()
    if chosen == PATCHED:
        path = patched_path()
        if not os.access(path, os.X_OK):
            refuse(f'"patched": {paths.display(path)} is not built '
                   "(run make qemu)")
        return str(path)
    path = Path(chosen).expanduser()
    if not path.is_file() or not os.access(path, os.X_OK):
        refuse(f"{chosen}: not an executable file (use distro, patched "
               "or the path of a qemu-system-x86_64)")
    return os.path.abspath(path)


def _lines(path):
    try:
        return [line for line in path.read_text().splitlines() if line]
    except OSError:
        return []


def describe(qemu, version=None):
    """What results.json's host.qemu says of the binary a run started:
    its path, version, which kind, and for a `make qemu` build the
    Debian source it was built from and its patches' subjects."""
    path = Path(os.path.abspath(shutil.which(qemu) or qemu))
    if qemu == paths.qemu_binary():
        kind = DISTRO
    elif path == Path(os.path.abspath(patched_path())):
        kind = PATCHED
    else:
        kind = "path"
    record = {"path": str(path), "kind": kind, "version": version,
              "base": None, "patches": []}
    out = path.parent
    if (out / "patches").is_file() and (out / "base").is_file():
        base = _lines(out / "base")
        record["base"] = base[0] if base else None
        record["patches"] = _lines(out / "patches")
    return record


def version_of(qemu):
    """First line of `qemu --version`, or None if it does not run."""
    out = command_output([qemu, "--version"])
    return out.splitlines()[0].strip() if out else None


def display(path):
    """A binary's path relative to the repository where inside it; not
    resolved: a symlink is named, not its target."""
    path = Path(os.path.abspath(path))
    try:
        return str(path.relative_to(paths.REPO))
    except ValueError:
        return str(path)


def shown(qemu):
    """describe() as a manifest or plan shows it, its version asked of
    the binary and its path display()ed."""
    record = describe(qemu, version_of(qemu))
    record["path"] = display(record["path"])
    return record
