"""Machine (QEMU) and Domain (libvirt) provide the one interface a session
watches them through, QemuBackend and LibvirtBackend the one a run starts
them through (machine/backend.py: Backend, Starter)."""

import inspect

import pytest

from blkscale import backends
from blkscale.errors import UsageError
from blkscale.libvirt.backend import LibvirtBackend
from blkscale.libvirt.domain import Domain
from blkscale.machine.backend import Backend, Starter
from blkscale.qemu.backend import QemuBackend
from blkscale.qemu.machine import Machine


def interface(cls):
    return {name for name, _ in inspect.getmembers(cls, inspect.isfunction)
            if not name.startswith("_") or name in ("__enter__", "__exit__")}


def missing(cls, attrs, protocol=Backend):
    names = interface(protocol) | set(protocol.__annotations__)
    return sorted(n for n in names if n not in interface(cls)
                  and n not in attrs)


@pytest.mark.parametrize("cls, instance", [
    (Machine, lambda: Machine("/nonexistent/qemu.log")),
    (Domain, lambda: Domain("test:///default"))])
def test_backends_provide_the_interface(cls, instance):
    assert missing(cls, vars(instance())) == []


def test_a_missing_method_is_seen():
    class Half:
        argv = []
        spawned_at = 0.0

        def launch(self, timeout, tick=None):
            return 0.0
    assert "shutdown" in missing(Half, {})


@pytest.mark.parametrize("cls, instance", [
    (QemuBackend, lambda: QemuBackend("qemu-system-x86_64")),
    (LibvirtBackend, lambda: LibvirtBackend("test:///default"))])
def test_starters_provide_the_interface(cls, instance):
    assert missing(cls, vars(cls) | vars(instance()), Starter) == []


def test_the_backend_is_chosen_by_name():
    assert backends.chosen("qemu", "q").name == "qemu"
    libvirt = backends.chosen("libvirt", None, "qemu+ssh://h/system")
    assert (libvirt.name, libvirt.staging) == ("libvirt", "volumes")
    assert [backends.chosen(n).name for n in backends.NAMES] == \
        list(backends.NAMES)
    # libvirt starts its host's own QEMU, no other.
    with pytest.raises(UsageError, match="--qemu: the libvirt backend "):
        backends.chosen("libvirt", "q")
    with pytest.raises(UsageError, match="--staging: needs --backend libvirt"):
        backends.chosen("qemu", "q", staging="volumes")
