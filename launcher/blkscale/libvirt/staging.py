"""How a run's files reach the libvirt host: shared or through volumes.

shared: the daemon runs on this machine and opens the files the launcher
made (kernel, per-run initramfs, disk images) where they are; console and
results are files it writes and the launcher reads.

volumes: the host shares no file with the launcher.  Everything goes
through the libvirt connection: a directory pool of blkscale's own
(`blkscale`, under the host's libvirt images directory, created when
missing) holds the kernel (content-addressed, kept and reused by later
runs), the run's initramfs and its file-backed disk images (named after
the domain, deleted when the run ends).  Images are created on the host
with their capacity (sparse) and only their written extents are sent
(the signature sectors).  Console and results come back as libvirt
streams (domain.py).
"""

import hashlib
import os
import posixpath
import xml.etree.ElementTree as ET

from ..machine.disks import image_files
from ..machine.errors import LaunchError
from ..machine.files import RunFiles
from . import orphans
from . import uri as uri_form

try:
    import libvirt
except ImportError:
    libvirt = None

MODES = ("shared", "volumes")
POOL = "blkscale"
# Where libvirt keeps images when the host has no `default` pool.
IMAGES_DIR = "/var/lib/libvirt/images"
CHUNK = 1 << 20


class StagingError(LaunchError):
    """The host's pool or a volume could not be made or filled."""

    kind = "launch-failure"


class Cancelled(Exception):
    """The run was interrupted while files were being sent."""


def default_mode(uri):
    """shared for a daemon on this machine, volumes over the network."""
    return "shared" if uri_form.is_local(uri) else "volumes"


def mode_problem(mode, uri):
    """Why `mode` cannot serve `uri`, or None."""
    if mode not in MODES:
        return f"{mode!r}: use shared or volumes"
    if mode == "shared" and not uri_form.is_local(uri):
        return (f"shared: {uri} is not on this machine and sees none of "
                "its files (use volumes)")
    return None


def kernel_volume(digest):
    return f"kernel-{digest[:16]}.bzImage"


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def host_files(local, target, prefix, kernel_name):
    """The run's files as the host sees them: volumes of the pool whose
    target directory is `target`.  Console, QMP and results stay local
    (they are streams, not host files)."""
    return RunFiles(kernel=posixpath.join(target, kernel_name),
                    initrd=posixpath.join(target, f"{prefix}.initrd.cpio"),
                    console=local.console, qmp=local.qmp,
                    results=local.results, disks=target,
                    disk_prefix=f"{prefix}.")


def data_extents(fd, size):
    """(offset, length) of the parts of a file that hold data, from
    SEEK_DATA/SEEK_HOLE; the whole file where holes are not reported."""
    offset = 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError:         # ENXIO: only a hole is left
            return
        end = min(os.lseek(fd, start, os.SEEK_HOLE), size)
        if end > start:
            yield start, end - start
        offset = end


def send_range(stream, f, offset, length, cancelled=None):
    """Send `length` bytes of file f from `offset` on a blocking stream."""
    f.seek(offset)
    left = length
    while left:
        if cancelled is not None and cancelled.is_set():
            raise Cancelled()
        data = f.read(min(CHUNK, left))
        if not data:
            raise OSError(f"{f.name}: shorter than {offset + length} bytes")
        left -= len(data)
        while data:
            sent = stream.send(data)
            if sent < 0:
                raise OSError(f"{f.name}: stream refused data")
            data = data[sent:]


def pool_xml(target):
    pool = ET.Element("pool", type="dir")
    ET.SubElement(pool, "name").text = POOL
    tgt = ET.SubElement(pool, "target")
    ET.SubElement(tgt, "path").text = target
    perms = ET.SubElement(tgt, "permissions")
    ET.SubElement(perms, "mode").text = "0755"
    return ET.tostring(pool, encoding="unicode")


def volume_xml(name, capacity):
    vol = ET.Element("volume", type="file")
    ET.SubElement(vol, "name").text = name
    ET.SubElement(vol, "capacity", unit="bytes").text = str(capacity)
    ET.SubElement(vol, "allocation", unit="bytes").text = "0"
    tgt = ET.SubElement(vol, "target")
    ET.SubElement(tgt, "format", type="raw")
    return ET.tostring(vol, encoding="unicode")


def _pool_target(pool):
    return ET.fromstring(pool.XMLDesc()).findtext("target/path")


def _message(e):
    return e.get_error_message() if hasattr(e, "get_error_message") \
        else str(e)


def planned_target(conn):
    """The pool's target directory on the host: the existing pool's, or
    the one ensure_pool() would create (read-only questions)."""
    try:
        return _pool_target(conn.storagePoolLookupByName(POOL))
    except libvirt.libvirtError:
        pass
    try:
        images = _pool_target(conn.storagePoolLookupByName("default"))
    except libvirt.libvirtError:
        images = IMAGES_DIR
    return posixpath.join(images or IMAGES_DIR, POOL)


def ensure_pool(conn):
    """blkscale's pool on the host, defined, built and started when
    missing; StagingError in one line when it cannot be."""
    try:
        pool = conn.storagePoolLookupByName(POOL)
    except libvirt.libvirtError:
        pool = None
    defined = False
    try:
        if pool is None:
            target = planned_target(conn)
            pool = conn.storagePoolDefineXML(pool_xml(target), 0)
            defined = True
            pool.build(0)
        if not pool.isActive():
            pool.create(0)
        return pool
    except libvirt.libvirtError as e:
        if defined:
            try:        # nothing half made: no pool that cannot start
                pool.undefine()
            except libvirt.libvirtError:
                pass
        raise StagingError(f"storage pool {POOL}: cannot create: "
                           f"{_message(e)}") from None


class Stager:
    """Puts one run's files into the host's pool and takes them away.

    Volumes of the run are named `<prefix>.*` (prefix: the domain's name)
    and remembered as they are created, so cleanup() deletes every one,
    also those of an upload cut short, without listing the pool (which
    other runs fill at the same time).  The kernel volume is shared by runs of the same kernel: a run
    that finds it complete uses it; one that finds it being written by
    another run (or cut short) sends a copy of its own instead.

    While it stages, the run holds the lock of orphans.py in its
    temporary directory `tmpdir`, so that a later run can tell its
    volumes from a killed run's; it removes those first.
    """

    def __init__(self, planned, local, prefix, target, tmpdir=None,
                 uri=None):
        self.planned, self.local, self.prefix = planned, local, prefix
        self.target = target
        self.tmpdir, self.uri = tmpdir, uri
        self._lock = None
        self.orphans_removed = []
        self.digest = file_digest(local.kernel)
        self.kernel_name = kernel_volume(self.digest)
        self.conn = None
        self.pool = None
        self._claimed = None        # the kernel volume we create and fill
        self._made = []             # names of this run's volumes

    def files(self):
        return host_files(self.local, self.target, self.prefix,
                          self.kernel_name)

    # -- volumes -----------------------------------------------------------

    def _create(self, name, capacity, own=True):
        vol = self.pool.createXML(volume_xml(name, capacity), 0)
        if own:
            self._made.append(name)
        return vol

    def _upload(self, vol, path, extents, cancelled):
        with open(path, "rb") as f:
            for offset, length in extents:
                stream = self.conn.newStream(0)
                try:
                    vol.upload(stream, offset, length, 0)
                    send_range(stream, f, offset, length, cancelled)
                    stream.finish()
                except BaseException:
                    try:
                        stream.abort()
                    except Exception:
                        pass
                    raise

    def _whole(self, name, path, cancelled):
        size = os.path.getsize(path)
        vol = self._create(name, size)
        self._upload(vol, path, [(0, size)] if size else [], cancelled)
        return vol

    def _lookup(self, name):
        try:
            return self.pool.storageVolLookupByName(name)
        except libvirt.libvirtError:
            return None

    def _kernel(self, cancelled):
        """The kernel's volume name: the shared one if complete, else the
        shared one filled by us, else a copy of this run's."""
        size = os.path.getsize(self.local.kernel)
        vol = self._lookup(self.kernel_name)
        if vol is not None and vol.info()[1] == size:
            return self.kernel_name
        if vol is None:
            try:
                # Capacity 0: an upload cut short leaves a short file,
                # which no later run mistakes for the kernel.
                vol = self._create(self.kernel_name, 0, own=False)
            except libvirt.libvirtError:
                vol = None          # another run created it first
            if vol is not None:
                self._claimed = vol
                self._upload(vol, self.local.kernel, [(0, size)], cancelled)
                self._claimed = None
                return self.kernel_name
        name = f"{self.prefix}.bzImage"
        self._whole(name, self.local.kernel, cancelled)
        return name

    def stage(self, conn, cancelled=None):
        """Send everything; returns the host's RunFiles.  Raises
        StagingError (cleanup() removes what was made) or Cancelled."""
        self.conn = conn
        if self.tmpdir is not None:
            self._lock = orphans.claim(self.tmpdir, self.uri, self.prefix)
        self.pool = ensure_pool(conn)
        try:
            if self._lock is not None:
                self.orphans_removed = orphans.remove(conn, self.pool,
                                                      self.uri)
            self.kernel_name = self._kernel(cancelled)
            files = self.files()
            self._whole(f"{self.prefix}.initrd.cpio", self.local.initrd,
                        cancelled)
            for (path, size), (host_path, _) in zip(
                    image_files(self.planned, self.local),
                    image_files(self.planned, files)):
                vol = self._create(posixpath.basename(host_path), size)
                fd = os.open(path, os.O_RDONLY)
                try:
                    extents = list(data_extents(fd, size))
                finally:
                    os.close(fd)
                self._upload(vol, path, extents, cancelled)
            return files
        except libvirt.libvirtError as e:
            raise StagingError(f"storage pool {POOL}: {_message(e)}") \
                from None
        except OSError as e:
            raise StagingError(f"storage pool {POOL}: {e}") from None

    def cleanup(self):
        """Delete the run's volumes and a kernel volume left unfilled;
        returns the names that could not be deleted."""
        left = []
        if self._claimed is not None:
            try:
                self._claimed.delete(0)
            except libvirt.libvirtError:
                left.append(self.kernel_name)
            self._claimed = None
        for name in self._made:
            try:
                self.pool.storageVolLookupByName(name).delete(0)
            except libvirt.libvirtError:
                left.append(name)
        self._made = []
        orphans.release(self._lock)
        self._lock = None
        return left
