"""Machine (QEMU) and Domain (libvirt) provide the one interface a session
watches them through (machine/backend.py)."""

import inspect

import pytest

from blkscale.libvirt.domain import Domain
from blkscale.machine.backend import Backend
from blkscale.qemu.machine import Machine


def interface(cls):
    return {name for name, _ in inspect.getmembers(cls, inspect.isfunction)
            if not name.startswith("_") or name in ("__enter__", "__exit__")}


def missing(cls, attrs):
    names = interface(Backend) | set(Backend.__annotations__)
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
