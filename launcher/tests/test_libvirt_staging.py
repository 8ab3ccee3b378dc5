"""Staging through volumes without a daemon: the domain XML names only
the host's volumes, the stream reader copies what arrives and stops, the
extent reader sends only what a sparse image holds, and the Stager
leaves no volume of a run behind when an upload fails."""

import io
import os
import re
import threading
import xml.etree.ElementTree as ET

import pytest

from launchertest import HERE, run_cli

from blkscale import topology
from blkscale.libvirt import domain_xml, hostcheck, staging
from blkscale.libvirt.streams import StreamPump
from blkscale.machine import disks
from blkscale.machine.files import RunFiles

LOCAL = "/local/run-dir"
TARGET = "/var/lib/libvirt/images/blkscale"
Q = "{" + domain_xml.QEMU_NS + "}"


def planned_of(topo):
    return topology.prepare(HERE.parents[1] / "topologies" / f"{topo}.toml")


def local_files():
    return RunFiles.under("/build/patched/bzImage", LOCAL)


def volumes_xml(topo, prefix="blkscale-x-patched-ab"):
    files = staging.host_files(local_files(), TARGET, prefix,
                               staging.kernel_volume("f" * 64))
    return domain_xml.domain_xml(planned_of(topo), files, "patched",
                                 staging="volumes")


# -- the domain XML -------------------------------------------------------

@pytest.mark.parametrize("topo", ["ci-small", "default", "oracle-4000-verify"])
def test_volumes_xml_names_only_the_hosts_volumes(topo):
    text = volumes_xml(topo)
    # Nothing the launcher made on its own machine.
    assert LOCAL not in text and "/build/" not in text
    root = ET.fromstring(text)
    assert root.findtext("os/kernel") == \
        f"{TARGET}/kernel-ffffffffffffffff.bzImage"
    assert root.findtext("os/initrd") == \
        f"{TARGET}/blkscale-x-patched-ab.initrd.cpio"
    sources = [s.get("file") for s in root.iter("source") if s.get("file")]
    args = [a.get("value") for a in root.iter(Q + "arg")]
    filenames = [m for a in args for m in re.findall(r"filename=([^,]+)", a)]
    planned = planned_of(topo)
    images = {p for p, _ in disks.image_files(planned, staging.host_files(
        local_files(), TARGET, "blkscale-x-patched-ab", "k"))}
    assert images, "the topology has file-backed disks"
    assert set(sources) | set(filenames) == images
    assert all(p.startswith(f"{TARGET}/blkscale-x-patched-ab.")
               for p in images)


def test_volumes_xml_streams_console_and_results():
    root = ET.fromstring(volumes_xml("ci-small"))
    serial = root.find("devices/serial")
    assert serial.get("type") == "pty" and serial.find("source") is None
    channel = root.find("devices/channel")
    # virDomainOpenChannel takes only a UNIX socket; libvirt picks its path.
    assert channel.get("type") == "unix"
    assert channel.find("source").attrib == {"mode": "bind"}
    assert channel.find("target").get("name") == "org.blkscale.results"
    # The host's own policy labels its volumes for its QEMU user.
    assert root.find("seclabel") is None


def test_shared_xml_keeps_files_and_label():
    """The run's files, but console and results as streams in either
    staging: virtlogd would roll files over at 2 MiB."""
    files = local_files()
    root = ET.fromstring(domain_xml.domain_xml(planned_of("ci-small"), files,
                                               "patched"))
    assert root.find("devices/serial").get("type") == "pty"
    assert root.find("devices/channel").get("type") == "unix"
    assert files.console not in ET.tostring(root, encoding="unicode")
    assert files.results not in ET.tostring(root, encoding="unicode")
    assert root.find("seclabel").get("relabel") == "no"
    assert files.disk_prefix == ""
    assert disks.sparse_path(files, planned_of("ci-small").topo
                             .pci_groups[0], 3).startswith(f"{LOCAL}/disks/")


def test_dry_run_shows_the_volumes_xml():
    out = run_cli("run", "topologies/ci-small.toml", "--backend", "libvirt",
                  "--staging", "volumes", "--variant", "patched", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "<kernel>/@POOL@/kernel-@SHA256@" in out.stdout
    assert '<serial type="pty">' in out.stdout
    assert "@RUNDIR@" not in out.stdout


@pytest.mark.parametrize("args, problem", [
    (["--staging", "volumes"], "--staging: needs --backend libvirt"),
    (["--backend", "libvirt", "--libvirt-uri", "qemu+ssh://h/system",
      "--staging", "shared"], "--staging: shared: qemu+ssh://h/system is "
     "not on this machine"),
])
def test_bad_staging_is_one_line(args, problem, tmp_path):
    out = run_cli("run", "topologies/smoke.toml", "--results-dir",
                  tmp_path, *args)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert problem in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_default_staging_follows_where_the_host_is():
    assert staging.default_mode("qemu:///system") == "shared"
    assert staging.default_mode(
        "qemu+unix:///system?socket=/x/libvirt-sock") == "shared"
    assert staging.default_mode("qemu+ssh://u@h/system") == "volumes"
    assert staging.default_mode("qemu+tls://h/system") == "volumes"
    assert staging.mode_problem("volumes", "qemu:///system") is None
    assert "use shared or volumes" in staging.mode_problem("nfs", "x")


def test_hosts_check_line_says_volumes():
    facts = {"uri": "qemu+ssh://h/system", "ok": True, "local": False,
             "staging": "volumes", "problem": None,
             "libvirt_version": "9.0.0",
             "qemu_version": "QEMU emulator version 7.2.0",
             "machines": ["pc"], "kvm": True, "cpus": 8,
             "cpu_model": "AMD EPYC", "memory_free_mib": 4096,
             "disk_free_mib": 2048}
    assert hostcheck.line(facts).endswith(
        "disk 2.0 GiB free, 8 CPUs (AMD EPYC); run: yes (staged through "
        "volumes)")


# -- reading a file's extents and sending them ----------------------------

def test_extents_of_a_sparse_image(tmp_path):
    path = tmp_path / "img"
    size = 64 << 20
    with open(path, "wb") as f:
        f.truncate(size)
        f.seek(0)
        f.write(b"A" * 512)
        f.seek(32 << 20)
        f.write(b"B" * 512)
    fd = os.open(path, os.O_RDONLY)
    try:
        extents = list(staging.data_extents(fd, size))
    finally:
        os.close(fd)
    sent = sum(length for _, length in extents)
    # Every written byte is in an extent, and far less than the file.
    assert any(o <= 0 < o + n for o, n in extents)
    assert any(o <= (32 << 20) < o + n for o, n in extents)
    assert sent < size // 8, extents


def test_extents_of_an_empty_image(tmp_path):
    path = tmp_path / "img"
    with open(path, "wb") as f:
        f.truncate(1 << 20)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert list(staging.data_extents(fd, 1 << 20)) == []
    finally:
        os.close(fd)


class ShortSends:
    """A stream that takes at most 3 bytes per send()."""

    def __init__(self):
        self.got = b""

    def send(self, data):
        self.got += data[:3]
        return min(3, len(data))


def test_send_range_sends_exactly_the_range():
    f = io.BytesIO(b"0123456789abcdef")
    f.name = "mem"
    stream = ShortSends()
    staging.send_range(stream, f, 4, 9)
    assert stream.got == b"456789abc"


def test_send_range_stops_when_cancelled():
    f = io.BytesIO(b"x" * 100)
    f.name = "mem"
    cancelled = threading.Event()
    cancelled.set()
    with pytest.raises(staging.Cancelled):
        staging.send_range(ShortSends(), f, 0, 100, cancelled)


def test_send_range_of_a_short_file_fails():
    f = io.BytesIO(b"abc")
    f.name = "mem"
    with pytest.raises(OSError, match="shorter than 10 bytes"):
        staging.send_range(ShortSends(), f, 0, 10)


# -- the stream reader ----------------------------------------------------

class FakeStream:
    """recv() hands out the given items in order; then blocks until
    abort() if `block`, else ends."""

    def __init__(self, items, block=False):
        self.items = list(items)
        self.block = block
        self.aborted = threading.Event()

    def recv(self, _n):
        if self.items:
            item = self.items.pop(0)
            if isinstance(item, Exception):
                raise item
            return item
        if self.block:
            self.aborted.wait(30)
            raise RuntimeError("aborted")
        return b""

    def abort(self):
        self.aborted.set()


def test_pump_copies_until_the_end(tmp_path):
    path = tmp_path / "console.log"
    pump = StreamPump(FakeStream([b"Linux ", -2, b"version\n", b"x"]),
                      path, "console").start()
    assert pump.join(10)
    assert path.read_bytes() == b"Linux version\nx"
    assert pump.received == 15 and pump.error is None


def test_pump_keeps_what_came_before_an_error(tmp_path):
    path = tmp_path / "results"
    pump = StreamPump(FakeStream([b"BLKSCALE-HELLO", OSError("gone")]),
                      path, "results").start()
    assert pump.join(10)
    assert path.read_bytes() == b"BLKSCALE-HELLO"
    assert pump.error == "gone"


def test_pump_stops_a_stream_that_never_ends(tmp_path):
    stream = FakeStream([b"a"], block=True)
    pump = StreamPump(stream, tmp_path / "c", "console").start()
    assert not pump.join(0.3)
    pump.stop(timeout=0.3)
    assert stream.aborted.is_set() and pump.done()
    assert pump.error is None, "a stop is not an error"


# -- the Stager against a fake pool ---------------------------------------

try:
    import libvirt
except ImportError:
    libvirt = None
needs_libvirt = pytest.mark.skipif(libvirt is None,
                                   reason="python3-libvirt not installed")


def lverror(msg):
    e = libvirt.libvirtError(msg)
    e.get_error_message = lambda: msg
    return e


class FakeVol:
    def __init__(self, pool, name, capacity):
        self.pool, self.name, self.capacity = pool, name, capacity
        self.data = bytearray()

    def info(self):
        return [0, len(self.data) or self.capacity, 0]

    def upload(self, stream, offset, length, _flags):
        stream.target = (self, offset)

    def delete(self, _flags):
        del self.pool.vols[self.name]


class FakeUploadStream:
    def __init__(self, conn):
        self.conn, self.target = conn, None

    def send(self, data):
        vol, offset = self.target
        if self.conn.fail_on and vol.name.endswith(self.conn.fail_on):
            raise lverror("No space left on device")
        end = offset + len(data)
        vol.data[len(vol.data):end] = bytes(max(0, end - len(vol.data)))
        vol.data[offset:end] = data
        self.target = (vol, end)
        return len(data)

    def finish(self):
        pass

    def abort(self):
        pass


class FakePool:
    def __init__(self, conn, target):
        self.conn, self.target, self.vols = conn, target, {}
        self.active = False

    def XMLDesc(self):
        return f"<pool><target><path>{self.target}</path></target></pool>"

    def build(self, _f):
        if self.conn.build_fails:
            raise lverror("cannot create path: Not a directory")

    def isActive(self):
        return self.active

    def create(self, _f):
        self.active = True

    def undefine(self):
        self.conn.pools.pop(staging.POOL)

    def refresh(self, _f):
        pass

    def createXML(self, xml, _f):
        root = ET.fromstring(xml)
        name = root.findtext("name")
        if name in self.vols:
            raise lverror(f"volume {name} exists")
        self.vols[name] = FakeVol(self, name, int(root.findtext("capacity")))
        return self.vols[name]

    def storageVolLookupByName(self, name):
        if name not in self.vols:
            raise lverror("no volume")
        return self.vols[name]

    def listVolumes(self):
        return list(self.vols)


class FakeConn:
    def __init__(self, build_fails=False, fail_on=None):
        self.pools = {}
        self.build_fails, self.fail_on = build_fails, fail_on

    def storagePoolLookupByName(self, name):
        if name not in self.pools:
            raise lverror(f"no pool {name}")
        return self.pools[name]

    def storagePoolDefineXML(self, xml, _f):
        target = ET.fromstring(xml).findtext("target/path")
        self.pools[staging.POOL] = FakePool(self, target)
        return self.pools[staging.POOL]

    def newStream(self, _f):
        return FakeUploadStream(self)


@pytest.fixture
def run_files(tmp_path):
    """A ci-small run's local files: kernel, initramfs, signed images."""
    planned = planned_of("ci-small")
    kernel = tmp_path / "bzImage"
    kernel.write_bytes(os.urandom(5000))
    files = RunFiles.under(str(kernel), str(tmp_path / "run"))
    os.makedirs(files.disks)
    with open(files.initrd, "wb") as f:
        f.write(b"initrd" * 1000)
    for path, size in disks.image_files(planned, files):
        with open(path, "wb") as f:
            f.truncate(size)
            f.write(b"signature")
    return planned, files


def stager_of(run_files, conn):
    planned, files = run_files
    return staging.Stager(planned, files, "blkscale-ci-small-patched-ab",
                          staging.planned_target(conn))


@needs_libvirt
def test_stager_sends_everything_and_cleans_up(run_files):
    conn = FakeConn()
    stager = stager_of(run_files, conn)
    assert stager.target == f"{staging.IMAGES_DIR}/blkscale"
    host = stager.stage(conn)
    pool = conn.pools[staging.POOL]
    planned, local = run_files
    assert bytes(pool.vols[stager.kernel_name].data) == \
        open(local.kernel, "rb").read()
    assert host.kernel == f"{pool.target}/{stager.kernel_name}"
    assert bytes(pool.vols["blkscale-ci-small-patched-ab.initrd.cpio"]
                 .data) == b"initrd" * 1000
    images = disks.image_files(planned, host)
    for path, size in images:
        vol = pool.vols[os.path.basename(path)]
        assert vol.capacity == size
        assert bytes(vol.data[:9]) == b"signature"
        # Only the written extent was sent, not the sparse image.
        assert len(vol.data) < size
    assert stager.cleanup() == []
    assert list(pool.vols) == [stager.kernel_name], "kernel kept, run gone"

    # The next run of the same kernel reuses its volume.
    again = stager_of(run_files, conn)
    again.prefix = "blkscale-ci-small-patched-cd"
    assert again.stage(conn).kernel == host.kernel
    again.cleanup()
    assert list(pool.vols) == [stager.kernel_name]


@needs_libvirt
def test_a_kernel_volume_being_written_is_not_used(run_files):
    conn = FakeConn()
    first = stager_of(run_files, conn)
    pool = staging.ensure_pool(conn)
    # Another run created the volume and has sent nothing yet.
    pool.createXML(staging.volume_xml(first.kernel_name, 0), 0)
    host = first.stage(conn)
    assert host.kernel.endswith("/blkscale-ci-small-patched-ab.bzImage")
    first.cleanup()
    assert list(pool.vols) == [staging.kernel_volume(first.digest)]


@needs_libvirt
@pytest.mark.parametrize("fail_on", ["bzImage", ".initrd.cpio",
                                     "data-1.img"])
def test_a_failed_upload_leaves_no_volume(run_files, fail_on):
    conn = FakeConn(fail_on=fail_on)
    stager = stager_of(run_files, conn)
    with pytest.raises(staging.StagingError) as e:
        stager.stage(conn)
    assert str(e.value) == "storage pool blkscale: No space left on device"
    assert stager.cleanup() == []
    left = conn.pools[staging.POOL].vols
    if fail_on == "bzImage":
        assert left == {}, "a kernel volume cut short is deleted"
    else:
        # Only the complete kernel stays, for the next run.
        assert list(left) == [staging.kernel_volume(stager.digest)]
        assert len(left[stager.kernel_name].data) == 5000


@needs_libvirt
def test_a_pool_that_cannot_be_built_is_not_left_defined(run_files):
    conn = FakeConn(build_fails=True)
    stager = stager_of(run_files, conn)
    with pytest.raises(staging.StagingError) as e:
        stager.stage(conn)
    assert str(e.value) == ("storage pool blkscale: cannot create: cannot "
                            "create path: Not a directory")
    assert conn.pools == {}
    assert stager.cleanup() == []


@needs_libvirt
def test_the_pool_goes_beside_the_default_pool(run_files):
    conn = FakeConn()
    conn.pools["default"] = FakePool(conn, "/srv/images")
    assert staging.planned_target(conn) == "/srv/images/blkscale"


# -- the accelerator of a host over the network ---------------------------

@pytest.mark.parametrize("requested, kvm, expected", [
    ("auto", True, ("kvm", "libvirt on qemu+ssh://h/system offers KVM")),
    ("auto", False, ("tcg", "libvirt on qemu+ssh://h/system offers no KVM")),
    ("tcg", True, ("tcg", "requested")),
    ("kvm", True, ("kvm", "requested")),
    ("kvm", False, "--accel kvm: qemu+ssh://h/system offers no KVM domain "
     "type"),
    ("auto", None, "--libvirt-uri: qemu+ssh://h/system: cannot connect: x"),
])
def test_remote_accelerator_comes_from_the_hosts_libvirt(
        monkeypatch, requested, kvm, expected):
    from blkscale.errors import UsageError
    from blkscale.libvirt.backend import LibvirtBackend

    def check(uri, mode):
        assert mode == "volumes"
        if kvm is None:
            return {"libvirt_version": None, "problem": "cannot connect: x"}
        return {"libvirt_version": "9.0.0", "kvm": kvm,
                "qemu_version": "QEMU 7.2.0", "cpu_model": "AMD Zen"}

    monkeypatch.setattr(hostcheck, "check", check)
    backend = LibvirtBackend("qemu+ssh://h/system")
    if isinstance(expected, tuple):
        chosen = backend.accelerator(requested, None)
        assert (chosen.accel, chosen.reason) == expected
        # results.json describes the host that ran the guest.
        assert (chosen.qemu_version, chosen.host_cpu) == ("QEMU 7.2.0",
                                                          "AMD Zen")
    else:
        with pytest.raises(UsageError) as e:
            backend.accelerator(requested, None)
        assert str(e.value) == expected
