"""Disk identity for the guest's census: the plan's disk groups and the
signature in sector 0 of every file-backed disk.

The launcher writes, before the boot, into the first sector of each
sparse or slice disk's image:

    BLKSCALE-DISK 1
    serial <group>-<index>
    group <group>
    index <index>
    nonce <run nonce>

(then NUL bytes), and tells the guest each group's id, kind, disk count,
size and whether it is signed (/etc/blkscale/disk-groups).  The census
reads sector 0 of each disk through its /dev node and checks that the
signature names the serial sysfs gives for that node's dev_t
(guest-tools/src/lib/disksig.h parses the same format).
"""

import hashlib
import os

from ..errors import UsageError
from .disks import disk_serial, slice_place, sparse_path

SECTOR = 512
MAGIC = "BLKSCALE-DISK 1"
# Test-only: the serial of one disk whose image gets another disk's
# signature, so that a boot test sees the census name exactly that disk.
WRONG_SIGNATURE_ENV = "BLKSCALE_TEST_WRONG_SIGNATURE"


def run_nonce(run_id, variant):
    """The nonce of one variant's run: a disk image from any other run
    (or variant) carries another one."""
    return hashlib.sha256(f"{run_id}/{variant}".encode()).hexdigest()[:16]


def signature(group_id, index, nonce):
    """The 512 bytes of sector 0 of disk `index` of a group."""
    text = (f"{MAGIC}\nserial {group_id}-{index}\ngroup {group_id}\n"
            f"index {index}\nnonce {nonce}\n").encode()
    if len(text) > SECTOR:
        raise ValueError(f"signature of {group_id}-{index} is too long")
    return text + bytes(SECTOR - len(text))


def disk_groups(topo):
    """/etc/blkscale/disk-groups: one line per PCI disk group; a group
    whose LUNs have several paths adds their number."""
    lines = ["# id kind disks sectors signed [paths]"]
    for g in topo.pci_groups:
        paths = f" {g.paths}" if g.multipath else ""
        lines.append(f"{g.id} {g.kind} {g.disks} {g.size_bytes // SECTOR} "
                     f"{1 if g.file_backed else 0}{paths}")
    return "\n".join(lines) + "\n"


def _wrong_for(group, index, nonce):
    """Another disk's signature: a neighbour's, or a stale nonce when the
    group has only one disk."""
    if group.disks > 1:
        return signature(group.id, (index + 1) % group.disks, nonce)
    return signature(group.id, index, nonce[::-1] + "0")


def write_signatures(topo, files, nonce, wrong=None):
    """Sign every file-backed disk's image (the files exist already).

    wrong: the serial of one disk to sign as another (tests only); a
    serial that is no file-backed disk of the topology is an error, so a
    test cannot pass by signing nothing wrong.
    """
    done_wrong = False
    for g in topo.pci_groups:
        if not g.file_backed:
            continue
        if g.backing == "slice":
            fds = {}
            try:
                for i in range(g.disks):
                    bad = wrong == disk_serial(g, i)
                    done_wrong |= bad
                    data = (_wrong_for(g, i, nonce) if bad
                            else signature(g.id, i, nonce))
                    path, offset = slice_place(files, g, i)
                    if path not in fds:
                        fds[path] = os.open(path, os.O_WRONLY)
                    os.pwrite(fds[path], data, offset)
            finally:
                for fd in fds.values():
                    os.close(fd)
            continue
        for i in range(g.disks):
            bad = wrong == disk_serial(g, i)
            done_wrong |= bad
            data = _wrong_for(g, i, nonce) if bad else signature(g.id, i,
                                                                 nonce)
            fd = os.open(sparse_path(files, g, i), os.O_WRONLY)
            try:
                os.pwrite(fd, data, 0)
            finally:
                os.close(fd)
    if wrong and not done_wrong:
        raise UsageError(f"{WRONG_SIGNATURE_ENV}={wrong}: no file-backed "
                         "disk has this serial")


def wrong_signature_serial():
    """The test-only switch, from the environment (empty: none)."""
    return os.environ.get(WRONG_SIGNATURE_ENV) or None
