"""Machine (QEMU) and Domain (libvirt) provide the one interface a session
watches them through, QemuBackend and LibvirtBackend the one a run starts
them through (machine/backend.py: Backend, Starter).  A command checks
a topology against the backend it is for, and nothing outside the
chooser (backends.py) branches on a backend's name."""

import ast
import inspect

import pytest

from blkscale import backends, commands
from blkscale.errors import TopologyError, UsageError
from blkscale.libvirt.backend import LibvirtBackend
from blkscale.libvirt.domain import Domain
from blkscale.machine.backend import Backend, Starter
from blkscale.qemu.backend import QemuBackend
from blkscale.qemu.machine import Machine
from launchertest import REPO


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


class _Refusing:
    """A backend that refuses every topology."""
    name = "refusing"

    def check(self, planned, variants=(), profile=False):
        raise TopologyError(planned.topo.path, "guest", "refused here")


def test_a_command_checks_the_backend_it_is_for():
    smoke = REPO / "topologies" / "smoke.toml"
    assert commands.prepare(smoke).topo.name == "smoke"
    with pytest.raises(TopologyError, match="refused here"):
        commands.prepare(smoke, backend=_Refusing())


def _backend_branches(path):
    """`if backend == "libvirt"` and the like: a comparison of something
    named backend with a backend's name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        names = [s.value for s in sides if isinstance(s, ast.Constant)]
        if set(names) & set(backends.NAMES) and \
                any("backend" in ast.unparse(s) for s in sides):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_branch_on_the_backend_outside_the_chooser(tmp_path):
    sources = [p for d in ("launcher/blkscale", "bench/blkscale_bench",
                           "reports/blkscale_reports", "cli/blkscale_cli")
               for p in (REPO / d).rglob("*.py") if p.name != "backends.py"]
    assert len(sources) > 100
    assert [b for p in sources for b in _backend_branches(p)] == []
    bad = tmp_path / "bad.py"
    bad.write_text('if args.backend == "libvirt":\n    pass\n')
    assert _backend_branches(bad) == ["bad.py:1"]
