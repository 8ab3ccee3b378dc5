"""The host disk space a run's file-backed disks will take, and the
refusal when TMPDIR has less free (machine/diskroom.py)."""

import pytest

from blkscale import topology
from blkscale.errors import TopologyError
from blkscale.machine import diskroom

MIB = 1024 * 1024
TOPO = """
[[virtio_scsi]]
id = "san"
targets = 10
luns = 10
size_mib = 64
backing = "slice"
[[virtio_blk]]
id = "null"
count = 2
[plan]
steps = ["census", "fio", "lvm"]
[plan.args]
lvm = "stripes=4 size_mb=32"
[plan.fio]
groups = ["san"]
disks = 100
size_mib = 2
[plan.lvm]
disks = 10
"""


def load(tmp_path, text=TOPO):
    path = tmp_path / "t.toml"
    path.write_text(text)
    return topology.prepare(path).topo


def test_bytes_needed(tmp_path):
    topo = load(tmp_path)
    # signatures, fio's writes, 10 PVs' metadata and the LV
    assert diskroom.bytes_needed(topo) == (100 * 4096 + 100 * 2 * MIB
                                           + 10 * MIB + 32 * MIB)


def test_null_disks_need_nothing(tmp_path):
    topo = load(tmp_path, '[[virtio_blk]]\nid = "n"\ncount = 3\n')
    assert diskroom.bytes_needed(topo) == 0
    diskroom.check_disk_room(topo, str(tmp_path))


def test_refused_when_tmpdir_is_too_small(tmp_path, monkeypatch):
    topo = load(tmp_path)
    need = diskroom.bytes_needed(topo)
    monkeypatch.setattr(diskroom, "free_bytes", lambda d: need)
    diskroom.check_disk_room(topo, str(tmp_path))
    monkeypatch.setattr(diskroom, "free_bytes", lambda d: need - 1)
    with pytest.raises(TopologyError) as e:
        diskroom.check_disk_room(topo, str(tmp_path))
    assert str(e.value).endswith(
        f"virtio_scsi[0].backing: the file-backed disks would write about "
        f"{need // MIB} MiB into {tmp_path} (TMPDIR), which has "
        f"{(need - 1) // MIB} MiB free")
