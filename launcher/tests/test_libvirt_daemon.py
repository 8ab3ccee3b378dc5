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


def test_disks_past_libvirt_s_command_line_are_attached_live(system_conn,
                                                             tmp_path):
    """4000 slice-backed disks fit the QEMU backend's command line but not
    libvirt's: the last ones are attached live, as many as libvirt's own
    spelling needs, and the estimate `plan` uses errs on the safe side."""
    from blkscale.libvirt import domain, livedisks
    from blkscale.machine.files import sample_files
    text = (HERE.parents[1] / "topologies" / "oracle-4000.toml").read_text()
    path = tmp_path / "oracle-slice.toml"
    path.write_text(text.replace('backing = "null"', 'backing = "slice"')
                    .replace("size_mib = 1024", "size_mib = 64"))
    planned = topology.prepare(path)
    files = sample_files()

    def make(n):
        return domain_xml.split_xml(planned, files, "patched", late=n)

    def real(xml):
        return livedisks.command_line_bytes(
            system_conn.domainXMLToNative("qemu-argv", xml))

    whole = real(make(0)[0])
    assert whole > livedisks.LIBVIRT_ARG_MAX
    xml, late = domain.fit_command_line(make, planned, daemon.SYSTEM_URI,
                                        files)
    assert real(xml) <= livedisks.BUDGET
    assert 0 < late.disks == late.native < 4000
    estimate = domain.planned_late(planned, files)
    assert estimate["late"] >= late.disks
    assert whole <= estimate["argv_bytes"] + sum(
        livedisks.native_disk_bytes(files.disks) for _ in range(
            estimate["late"])) <= 1.1 * whole
    # Not many more disks late than libvirt's own size needs (the
    # estimate overstates libvirt's spelling by a few per cent).
    assert real(make(int(late.disks * 0.85))[0]) > livedisks.BUDGET

