"""The backends a run can use, by the name --backend gives: each is one
object with machine/backend.py's Starter interface."""

from .errors import UsageError
from .libvirt.backend import SYSTEM_URI, LibvirtBackend
from .qemu.backend import QemuBackend

NAMES = ("qemu", "libvirt")


def chosen(name, qemu=None, uri=SYSTEM_URI, staging=None):
    """The backend `name`; libvirt's options refused for the other."""
    local = QemuBackend(qemu)
    if name == "libvirt":
        return LibvirtBackend(uri, staging, local)
    if staging is not None:
        raise UsageError("--staging: needs --backend libvirt")
    return local
