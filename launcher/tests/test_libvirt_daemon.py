"""libvirtd start-up and the QEMU command line libvirt makes of our XML.

The daemon tests need the libvirt daemons installed; ensure() starts them
when they are not running, as a run with --backend libvirt does.
"""

import os
import shutil
import socket

import pytest

from launchertest import HERE

from blkscale import topology
from blkscale.libvirt import daemon, domain_xml
from blkscale.libvirt.domain import parse_log_command
from blkscale.machine.files import RunFiles


def test_accepts_only_a_listening_socket(tmp_path):
    path = str(tmp_path / "s")
    assert not daemon.accepts(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    assert not daemon.accepts(path)     # bound, not listening
    server.listen(1)
    try:
        assert daemon.accepts(path)
    finally:
        server.close()


def test_other_uris_are_not_started():
    assert daemon.ensure("test:///default") is False


LOG = """\
2026-12-03 10:00:00.000+0000: starting up libvirt version: 9.0.0
LC_ALL=C \\
PATH=/usr/bin \\
HOME=/var/lib/libvirt/qemu/domain-1-x \\
/usr/bin/qemu-system-x86_64 \\
-name guest=old,debug-threads=on \\
-S
2026-12-03 10:00:05.000+0000: shutting down, reason=shutdown
2026-12-03 10:01:00.000+0000: starting up libvirt version: 9.0.0
LC_ALL=C \\
HOME=/var/lib/libvirt/qemu/domain-2-x \\
/usr/bin/qemu-system-x86_64 \\
-name guest=x,debug-threads=on \\
-blockdev '{"driver":"file","filename":"/r/a b.img"}' \\
-msg timestamp=on
char device redirected to /dev/pts/3 (label charserial0)
"""


def test_parse_log_command_takes_the_last_start():
    assert parse_log_command(LOG) == [
        "/usr/bin/qemu-system-x86_64", "-name", "guest=x,debug-threads=on",
        "-blockdev", '{"driver":"file","filename":"/r/a b.img"}',
        "-msg", "timestamp=on"]
    assert parse_log_command("no start here\n") == []


def _libvirt_or_skip():
    libvirt = pytest.importorskip("libvirt")
    if not (shutil.which("libvirtd") or os.path.exists("/usr/sbin/libvirtd")):
        pytest.skip("libvirtd not installed (libvirt-daemon-system)")
    if (not daemon.accepts(daemon.LIBVIRTD_SOCKET)
            and os.geteuid() != 0):
        pytest.skip("libvirtd not running and only root can start it")
    return libvirt


@pytest.fixture(scope="module")
def system_conn():
    libvirt = _libvirt_or_skip()
    daemon.ensure(daemon.SYSTEM_URI)
    assert daemon.accepts(daemon.LIBVIRTD_SOCKET)
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    conn = libvirt.open(daemon.SYSTEM_URI)
    yield conn
    conn.close()


def _files():
    return RunFiles(kernel="/k/bzImage", initrd="/r/initrd.cpio",
                          console="/r/console.log", qmp="/r/qmp.sock",
                          results="/r/results.stream", disks="/r/disks")


@pytest.mark.parametrize("topo", ["ci-small", "oracle-4000"])
def test_qemu_driver_accepts_and_uses_blockdev(system_conn, topo):
    """The real QEMU driver checks addresses and devices; what it would run
    declares every disk with -blockdev, never -drive."""
    planned = topology.prepare(HERE.parents[1] / "topologies" /
                               f"{topo}.toml")
    text = domain_xml.domain_xml(planned, _files(), "stock",
                                 name=f"blkscale-test-{topo}")
    argv = system_conn.domainXMLToNative("qemu-argv", text).split()
    assert "-drive" not in argv
    assert argv.count("-blockdev") >= planned.topo.expected_total
    assert "guest=blkscale-test-" + topo + ",debug-threads=on" in argv


def test_qemu_driver_refuses_what_the_layout_avoids(system_conn):
    """Why slot 0 of a bridge goes to the command line: libvirt refuses it."""
    libvirt = pytest.importorskip("libvirt")
    planned = topology.prepare(HERE.parents[1] / "topologies" /
                               "ci-small.toml")
    text = domain_xml.domain_xml(planned, _files(), "stock")
    bad = text.replace("bus=\"0x00\" slot=\"0x05\"", "bus=\"0x01\" slot=\"0x00\"",
                       1)
    assert bad != text
    with pytest.raises(libvirt.libvirtError, match="slot must be >= 1"):
        system_conn.domainXMLToNative("qemu-argv", bad)


def test_too_long_a_libvirt_command_line_is_refused(system_conn, tmp_path):
    """4000 slice-backed disks fit the QEMU backend's command line but not
    libvirt's; the run is refused with the field to change."""
    from blkscale.errors import TopologyError
    from blkscale.libvirt.domain import check_command_line
    from blkscale.machine.files import sample_files
    text = (HERE.parents[1] / "topologies" / "oracle-4000.toml").read_text()
    path = tmp_path / "oracle-slice.toml"
    path.write_text(text.replace('backing = "null"', 'backing = "slice"')
                    .replace("size_mib = 1024", "size_mib = 64"))
    planned = topology.prepare(path)
    with pytest.raises(TopologyError, match=r"virtio_scsi\[0\]\.luns: "
                       "through libvirt the QEMU command line would be"):
        check_command_line(domain_xml.domain_xml(planned, sample_files(),
                                                 "patched"),
                           planned.topo, daemon.SYSTEM_URI)
    ok = topology.prepare(HERE.parents[1] / "topologies" / "oracle-4000.toml")
    check_command_line(domain_xml.domain_xml(ok, sample_files(), "patched"),
                       ok.topo, daemon.SYSTEM_URI)
