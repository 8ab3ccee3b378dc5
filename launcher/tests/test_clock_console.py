"""guest.clocksource and guest.console: the kernel command line, QEMU's
devices and libvirt's, what a run records, and a panic on the 8250 while
the kernel's console is the virtio one."""

import json
import xml.etree.ElementTree as ET

import pytest

from blkscale import topology
from blkscale.errors import TopologyError
from blkscale.libvirt.domain_xml import domain_xml
from blkscale.machine import guest
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv
from launchertest import REPO, all_files, run_cli

FILES = RunFiles("K", "I", "C", "Q", "R", "D", serial="S")
DISKS = '[[virtio_blk]]\nid = "a"\ncount = 2\n'


def _planned(tmp_path, **fields):
    lines = "".join(f'{k} = "{v}"\n' for k, v in fields.items())
    path = tmp_path / "t.toml"
    path.write_text("[guest]\n" + lines + DISKS)
    return topology.prepare(path)


def _append(argv):
    return argv[argv.index("-append") + 1]


# Every command line has the NMI words (machine/guest.py, NMI_ARGS).
NMI = "unknown_nmi_panic panic_print=0x40"


@pytest.mark.parametrize("fields,accel,cmdline", [
    ({}, "tcg", "console=ttyS0 loglevel=5 log_buf_len=1M panic=-1 "
     f"rdinit=/init {NMI} tsc=reliable"),
    ({}, "kvm", "console=ttyS0 loglevel=5 log_buf_len=1M panic=-1 "
     f"rdinit=/init {NMI}"),
    ({"console": "virtio"}, "tcg", "earlycon=uart8250,io,0x3f8,"
     f"115200 console=hvc0 panic=-1 rdinit=/init {NMI} tsc=reliable"),
    ({"clocksource": "kernel", "console": "serial"}, "tcg",
     f"console=ttyS0 panic=-1 rdinit=/init {NMI}"),
    ({"clocksource": "hpet", "cmdline": "loglevel=7", "console": "virtio"},
     "kvm", "earlycon=uart8250,io,0x3f8,115200 console=hvc0 "
     f"panic=-1 rdinit=/init {NMI} clocksource=hpet loglevel=7"),
    ({"clocksource": "tsc", "console": "serial"}, "kvm",
     f"console=ttyS0 panic=-1 rdinit=/init {NMI} tsc=reliable"),
    ({"clocksource": "kernel", "cmdline": "clocksource=acpi_pm",
      "console": "serial"}, "tcg",
     f"console=ttyS0 panic=-1 rdinit=/init {NMI} clocksource=acpi_pm"),
])
def test_cmdline(fields, accel, cmdline, tmp_path):
    """Both backends boot the guest with this command line (libvirt's
    domain XML: test_libvirt_xml.py)."""
    topo = _planned(tmp_path, **fields).topo
    assert guest.kernel_cmdline(topo, accel) == cmdline


@pytest.mark.parametrize("disks,size", [
    (2, "1M"), (1024, "1M"), (1025, "2M"), (4096, "4M"), (5000, "8M"),
    (16384, "16M"), (65536, "64M"), (262144, "256M")])
def test_quiet_log_buffer_grows_with_the_disks(disks, size, tmp_path):
    path = tmp_path / "n.toml"
    hosts = max(1, disks // 16384)
    path.write_text("[guest]\nmemory_mib = 16384\n[scsi_debug]\n"
                    + (f"max_luns = {disks}\n" if disks <= 16384 else
                       f"add_host = {hosts}\nmax_luns = {disks // hosts}\n"))
    topo = topology.prepare(path).topo
    assert f" log_buf_len={size} " in guest.kernel_cmdline(topo)


def test_virtio_console_argv(tmp_path):
    argv = qargv.build_argv(_planned(tmp_path, console="virtio"), FILES,
                            "stock", "tcg", "q")
    assert "console=hvc0" in _append(argv).split()
    assert "file,id=console,path=C" in argv
    assert argv[argv.index("-serial") + 1] == "chardev:serial"
    assert "file,id=serial,path=S" in argv
    assert "virtconsole,bus=results-bus.0,chardev=console,nr=0" in argv


def test_quiet_console_argv_is_the_serial_one(tmp_path):
    argv = qargv.build_argv(_planned(tmp_path), FILES, "stock", "tcg", "q")
    assert "loglevel=5" in _append(argv).split()
    assert argv[argv.index("-serial") + 1] == "chardev:console"
    assert not [a for a in argv if "virtconsole" in a or "id=serial" in a]


def test_serial_console_argv_is_the_old_one(tmp_path):
    argv = qargv.build_argv(_planned(tmp_path, console="serial",
                                     clocksource="kernel"),
                            FILES, "stock", "tcg", "q")
    assert _append(argv) == f"{guest.BASE_CMDLINE} {guest.NMI_ARGS}"
    assert argv[argv.index("-serial") + 1] == "chardev:console"
    assert not [a for a in argv if "virtconsole" in a or "id=serial" in a]


def test_libvirt_keeps_the_serial_console(tmp_path):
    root = ET.fromstring(domain_xml(_planned(tmp_path), FILES, "stock",
                                    "tcg"))
    assert root.findtext("os/cmdline").startswith("console=ttyS0 ")
    # a pty libvirt hands over as a stream: a file would go through
    # virtlogd, which rolls it over at 2 MiB
    assert root.find("devices/serial").get("type") == "pty"
    assert root.find("devices/serial/source") is None
    with pytest.raises(TopologyError, match="guest.console"):
        domain_xml(_planned(tmp_path, console="virtio"), FILES, "stock",
                   "tcg")


def test_scsi_debug_delay(tmp_path):
    path = tmp_path / "sd.toml"
    path.write_text("[scsi_debug]\nmax_luns = 4\n")
    assert " delay=0" in topology.prepare(path).topo.modprobe()
    path.write_text("[scsi_debug]\nmax_luns = 4\ndelay = 1\n")
    assert " delay=1" in topology.prepare(path).topo.modprobe()


def _run(tmp_path, fake_env, fields, scenario="ok"):
    topo = tmp_path / "cc.toml"
    lines = "".join(f'{k} = "{v}"\n' for k, v in fields.items())
    topo.write_text('[guest]\nvariants = ["patched"]\n' + lines + DISKS)
    env = dict(fake_env, FAKE_QEMU_SCENARIO=scenario)
    out = run_cli("run", topo, "--accel", "tcg", "--run-id", "r",
                  "--results-dir", tmp_path / "results", env=env)
    summary = json.loads((tmp_path / "results" / "r" /
                          "summary.json").read_text())
    return out, summary["variants"]["patched"]


@pytest.mark.parametrize("fields,clock,console", [
    ({}, "tsc", "quiet"),
    ({"console": "virtio"}, "tsc", "virtio"),
    ({"clocksource": "kernel", "console": "serial"}, "hpet", "serial"),
])
def test_a_run_records_clock_and_console(fields, clock, console, tmp_path,
                                         fake_env):
    out, entry = _run(tmp_path, fake_env, fields)
    assert out.returncode == 0, out.stderr
    assert (entry["clocksource"], entry["kernel_console"]) == (clock, console)
    assert f"clocksource {clock}, console {console}" in out.stdout
    vdir = tmp_path / "results" / "r" / "patched"
    doc = json.loads((vdir / "results.json").read_text())
    assert doc["guest"]["clocksource"] == clock
    assert doc["host"]["console"] == console
    assert all_files(vdir) == ["console.log", "dmesg.log", "results.json"]
    assert "Linux version 6.1.0-fake" in (vdir / "console.log").read_text()
    # the log the guest sent, as it sent it
    assert (vdir / "dmesg.log").read_text().endswith(
        "[sda] Attached SCSI disk\n")


def test_a_panic_on_the_boot_console_is_a_panic(tmp_path, fake_env):
    """Before the virtio console registers only the 8250 prints: a panic
    there still ends the run with status 5, and console.log keeps it."""
    out, entry = _run(tmp_path, fake_env, {"console": "virtio"},
                      scenario="boot-panic")
    assert out.returncode == 5, out.stdout + out.stderr
    assert entry["outcome"] == "panic"
    assert "Kernel panic - not syncing: early trouble" in entry["message"]
    assert "early trouble" in out.stderr        # the tail shown
    vdir = tmp_path / "results" / "r" / "patched"
    assert all_files(vdir) == ["console.log"]
    assert "early trouble" in (vdir / "console.log").read_text()


def test_console_log_is_the_boot_console_then_the_virtio_one(tmp_path):
    """What the 8250 printed before the virtio console took over comes
    first in console.log, then the virtio console's lines."""
    from blkscale.session import variant
    (tmp_path / "serial.log").write_text("[0.1] Linux version\n")
    (tmp_path / "console.log").write_text("[1.3] sd 0:0:0:0: [sda] "
                                          "Attached SCSI disk\n")
    variant._join_consoles(tmp_path, tmp_path / "out.log")
    assert (tmp_path / "out.log").read_text() == (
        "[0.1] Linux version\n[1.3] sd 0:0:0:0: [sda] Attached SCSI disk\n")


def test_removed_paths_count_twice_in_the_log_buffer():
    """A path removed and added back under pathfail logs its lines
    again: 1000 LUNs on two paths with path 1 removed are 3000 disks'
    worth, not 2000 (evidence/20261206-multipath-1000)."""
    topo = topology.prepare(REPO / "evidence" /
                            "20261206-multipath-1000" /
                            "oracle-1000-multipath.toml").topo
    assert " log_buf_len=4M " in guest.kernel_cmdline(topo)
