"""A System.map names a boot's functions only when it lists the kernel's
text and the text is where it says (qemu/kernelmap.py); otherwise a hung
guest's vCPUs are given by address, saying why, and --profile is refused."""

import pytest

from blkscale import paths
from blkscale.qemu import kernelmap, vcpuread
from test_profiler import REGS, STACK, SYSTEM_MAP

# Debian's linux-image ships this line as its System.map.
STUB = ("ffffffffffffffff B The real System.map is in the "
        "linux-image-<version>-dbg package\n")


def kernel(tmp_path, system_map=SYSTEM_MAP, config="CONFIG_SMP=y\n"):
    kdir = tmp_path / "kernel"
    kdir.mkdir()
    if system_map is not None:
        (kdir / "System.map").write_text(system_map)
    if config is not None:
        (kdir / "config").write_text(config)
    return kdir


@pytest.mark.parametrize("system_map, config, cmdline, problem", [
    (SYSTEM_MAP, "CONFIG_SMP=y\n", "console=ttyS0", None),
    (SYSTEM_MAP, None, "", None),
    (None, None, "", "missing (make kernel)"),
    (STUB, None, "", "lists no kernel function"),
    (SYSTEM_MAP, "CONFIG_RANDOMIZE_BASE=y\n", "console=ttyS0 quiet",
     "places its text at random (CONFIG_RANDOMIZE_BASE=y)"),
    (SYSTEM_MAP, "CONFIG_RANDOMIZE_BASE=y\n", "console=ttyS0 nokaslr", None),
    (SYSTEM_MAP, "# CONFIG_RANDOMIZE_BASE is not set\n", "", None),
])
def test_problem(tmp_path, system_map, config, cmdline, problem):
    kdir = kernel(tmp_path, system_map, config)
    found = kernelmap.problem(kdir, cmdline)
    if problem is None:
        assert found is None
    else:
        assert problem in found


def test_cmdline_of_a_qemu_argv():
    argv = ["qemu-system-x86_64", "-kernel", "bzImage", "-append",
            "console=ttyS0 nokaslr", "-m", "512"]
    assert kernelmap.cmdline_of(argv) == "console=ttyS0 nokaslr"
    assert kernelmap.cmdline_of(["qemu-system-x86_64"]) == ""
    assert kernelmap.cmdline_of(None) == ""


class Machine:
    """What vcpuread asks of a machine: its argv and the monitor."""

    def __init__(self, append):
        self.argv = ["qemu-system-x86_64", "-append", append]

    def hmp(self, command, cpu_index=None):
        return REGS if command.startswith("info registers") else STACK

    def qmp(self, name, **arguments):
        return []


@pytest.mark.parametrize("append, named", [("console=ttyS0 nokaslr", True),
                                           ("console=ttyS0", False)])
def test_a_randomized_kernel_is_read_by_address(tmp_path, monkeypatch,
                                                append, named):
    """The map of a KASLR kernel booted without nokaslr would name the
    wrong functions: the snapshot gives addresses and says why."""
    kdir = kernel(tmp_path, config="CONFIG_RANDOMIZE_BASE=y\n")
    monkeypatch.setattr(paths, "kernel_dir", lambda variant: kdir)
    snap = vcpuread.snapshot(Machine(append), "v")
    first = snap.lines[0]
    assert snap.busy
    if named:
        assert first.startswith("+0.0 s vCPU 0: in pci_conf1_read"), first
        assert not any("not named" in ln for ln in snap.lines)
    else:
        assert first == ("+0.0 s vCPU 0: running, not named at "
                         "0xffffffff81003010"), first
        assert any(ln.startswith("addresses not named: ") and
                   ln.endswith("/System.map: the kernel places its text at "
                               "random (CONFIG_RANDOMIZE_BASE=y) and the "
                               "command line has no nokaslr (add it to "
                               "guest.cmdline)")
                   for ln in snap.lines), snap.lines
