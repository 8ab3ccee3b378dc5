"""The signature in sector 0 of every file-backed disk and the disk
groups the guest's census checks them against (machine/signatures.py;
guest-tools/tests/unit/test_disksig.c parses the same bytes)."""

import pytest

from blkscale import topology
from blkscale.errors import UsageError
from blkscale.machine import disks, signatures
from blkscale.machine.disks import image_files
from blkscale.machine.files import RunFiles

TOPO = """
[[virtio_blk]]
id = "blk"
count = 3
size_mib = 2
backing = "sparse"
[[virtio_blk]]
id = "one"
count = 1
size_mib = 1
backing = "sparse"
[[virtio_scsi]]
id = "san"
targets = 2
luns = 2
size_mib = 1
backing = "slice"
[[virtio_scsi]]
id = "null"
luns = 2
"""


def images(tmp_path, wrong=None, nonce="00ff"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "t.toml"
    path.write_text(TOPO)
    planned = topology.prepare(path)
    files = RunFiles.under("bzImage", str(tmp_path / "run"))
    (tmp_path / "run" / "disks").mkdir(parents=True)
    for image, size in image_files(planned, files):
        with open(image, "wb") as f:
            f.truncate(size)
    signatures.write_signatures(planned.topo, files, nonce, wrong)
    return planned, tmp_path / "run" / "disks"


def sector(path, offset=0):
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(512)


def test_signature_bytes():
    sig = signatures.signature("jbod", 4999, "0123abcd")
    assert len(sig) == 512
    assert sig.rstrip(b"\0") == (b"BLKSCALE-DISK 1\nserial jbod-4999\n"
                                 b"group jbod\nindex 4999\nnonce 0123abcd\n")


def test_every_file_backed_disk_is_signed(tmp_path):
    _, disks = images(tmp_path)
    for i in range(3):
        assert sector(disks / f"blk-{i}.img") == \
            signatures.signature("blk", i, "00ff")
    mib = 1024 * 1024
    for i in range(4):
        assert sector(disks / "san.img", i * mib) == \
            signatures.signature("san", i, "00ff")
    # nothing else was written: the rest of each slice reads zeroes
    with open(disks / "san.img", "rb") as f:
        data = f.read()
    assert data.count(b"\0") == len(data) - sum(
        len(signatures.signature("san", i, "00ff").rstrip(b"\0"))
        for i in range(4))


def test_wrong_signature_for_one_disk(tmp_path):
    _, disks = images(tmp_path, wrong="san-1")
    assert sector(disks / "san.img", 1024 * 1024) == \
        signatures.signature("san", 2, "00ff")
    assert sector(disks / "san.img", 0) == \
        signatures.signature("san", 0, "00ff")
    # a group of one disk: its own serial with another nonce
    _, disks = images(tmp_path / "b", wrong="one-0")
    bad = sector(disks / "one-0.img")
    assert bad != signatures.signature("one", 0, "00ff")
    assert b"serial one-0\n" in bad


def test_wrong_signature_must_name_a_signed_disk(tmp_path):
    for serial in ("null-0", "blk-3", "nothing"):
        with pytest.raises(UsageError, match=f"={serial}: no file-backed"):
            images(tmp_path / serial, wrong=serial)


def test_disk_groups(tmp_path):
    planned, _ = images(tmp_path)
    assert signatures.disk_groups(planned.topo).splitlines() == [
        "# id kind disks sectors signed [paths]",
        "san virtio_scsi 4 2048 1",
        "null virtio_scsi 2 131072 0",
        "blk virtio_blk 3 4096 1",
        "one virtio_blk 1 2048 1",
    ]


def test_nonce_differs_per_run_and_variant():
    assert signatures.run_nonce("r1", "stock") == \
        signatures.run_nonce("r1", "stock")
    assert len({signatures.run_nonce("r1", "stock"),
                signatures.run_nonce("r2", "stock"),
                signatures.run_nonce("r1", "patched")}) == 3


def test_slices_past_4_gib_are_signed_in_the_file_that_holds_them(tmp_path):
    """A slice group fills one file per 4 GiB; each disk's signature lands
    at its offset in its own file, and no file holds a stray one."""
    path = tmp_path / "t.toml"
    path.write_text('[[virtio_scsi]]\nid = "wide"\ntargets = 5\nluns = 1\n'
                    'size_mib = 1536\nbacking = "slice"\n')
    planned = topology.prepare(path)
    files = RunFiles.under("bzImage", str(tmp_path / "run"))
    (tmp_path / "run" / "disks").mkdir(parents=True)
    made = image_files(planned, files)
    assert [size for _, size in made] == [2 * 1536 << 20] * 2 + [1536 << 20]
    for image, size in made:
        with open(image, "wb") as f:
            f.truncate(size)
    signatures.write_signatures(planned.topo, files, "00ff")
    group = planned.topo.pci_groups[0]
    expected = {}
    for i in range(group.disks):
        where = disks.slice_place(files, group, i)
        expected[where] = signatures.signature("wide", i, "00ff")
    for image, size in made:
        for offset in range(0, size, group.size_bytes):
            want = expected.pop((image, offset))
            assert sector(image, offset) == want
    assert expected == {}
