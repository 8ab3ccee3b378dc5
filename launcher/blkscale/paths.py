"""Where things are, relative to the repository (never absolute paths).

The repository (REPO) is the checkout or home the command works on,
never the current directory: BLKSCALE_HOME (`blkscale --home DIR` sets
it), else the checkout this package lives in (./blkscale), else the
checkout an installed package was installed from (pip records it,
direct_url.json).  A home has a checkout's layout: kernel/variants.toml,
topologies/, guest-tools/, build/, results/.
"""

import json
import os
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

HOME_VARIABLE = "BLKSCALE_HOME"


def _is_checkout(path):
    return (path / "launcher" / "blkscale").is_dir()


def _installed_from():
    """The local directory pip installed this package from, or None."""
    try:
        record = metadata.distribution("blkscale").read_text(
            "direct_url.json")
        url = urlsplit(json.loads(record or "{}").get("url", ""))
    except (metadata.PackageNotFoundError, ValueError, AttributeError):
        return None
    return Path(unquote(url.path)) if url.scheme == "file" else None


def _home(environ=os.environ):
    """(the repository, how it was found), or (None, None)."""
    given = environ.get(HOME_VARIABLE)
    if given:
        return Path(given).resolve(), HOME_VARIABLE
    here = Path(__file__).resolve().parents[2]
    if _is_checkout(here):
        return here, "checkout"
    source = _installed_from()
    if source is not None and _is_checkout(source):
        return source, "install"
    return None, None


HOME, FOUND_BY = _home()
# Without a home the package still imports (--help, --version); what it
# would read is then missing, and home_problem() says why in one line.
REPO = HOME or Path(__file__).resolve().parent


def home_problem():
    """Why the command has no repository to work on, or None."""
    if HOME is None:
        return ("no checkout to work on: give --home DIR or set "
                f"{HOME_VARIABLE} (a blkscale checkout)")
    if FOUND_BY == HOME_VARIABLE and not HOME.is_dir():
        return f"{HOME}: not a directory (--home, {HOME_VARIABLE})"
    return None


def given_file(path):
    """A file named on the command line: as given, or, when a relative
    path names nothing from the current directory, the repository's
    (`blkscale plan topologies/smoke.toml` from anywhere)."""
    path = Path(path)
    if path.is_absolute() or path.exists() or not (REPO / path).exists():
        return path
    return REPO / path


def build_dir():
    """The build directory: $BUILD (as the Makefile exports it) or build/."""
    value = os.environ.get("BUILD", "build")
    path = Path(value)
    return path if path.is_absolute() else REPO / path


def kernel_dir(variant):
    return build_dir() / "kernel" / "out" / variant


def initramfs(variant):
    return build_dir() / "initramfs" / f"{variant}.cpio"


def results_dir():
    return REPO / "results"


def qemu_binary():
    """The QEMU to run; BLKSCALE_QEMU overrides it (tests use a fake)."""
    return os.environ.get("BLKSCALE_QEMU", "qemu-system-x86_64")


def display(path):
    """A path as people read it: relative to the repository if inside."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)
