"""QEMU's memory against the host's: plan refuses what the host cannot
hold, with the figure, and names the field that makes it big."""

import pytest

from blkscale import commands
from blkscale.errors import TopologyError
from blkscale.topology import resources

GIB = 1024 * 1024


def prepare(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(text)
    return commands.prepare(path)


@pytest.fixture
def small_host(monkeypatch):
    """A host of 1 GiB."""
    monkeypatch.setattr(resources, "host_memory_kib", lambda: GIB)


def test_guest_ram_bigger_than_the_host_is_refused(tmp_path, small_host):
    with pytest.raises(TopologyError) as e:
        prepare(tmp_path, '[guest]\nmemory_mib = 2048\n[[virtio_scsi]]\n'
                'id = "s"\n')
    assert e.value.field == "guest.memory_mib"
    assert str(e.value).endswith(
        "QEMU would need about 2096 MiB (guest RAM 2048, QEMU and its "
        "disks 48); the host has 1024 MiB")


def test_many_pci_disks_are_refused_at_their_count(tmp_path, small_host):
    """1000 virtio-blk-pci devices: QEMU's share dominates."""
    with pytest.raises(TopologyError) as e:
        prepare(tmp_path, '[guest]\nmemory_mib = 512\n[[virtio_blk]]\n'
                'id = "b"\ncount = 1000\nnum_queues = 1\nqueue_size = 16\n')
    assert e.value.field == "virtio_blk[0].count"
    assert "QEMU and its disks 829); the host has 1024 MiB" in str(e.value)


def test_scsi_disks_count_in_qemu_memory(tmp_path, small_host):
    p = prepare(tmp_path, '[guest]\nmemory_mib = 512\n[[virtio_scsi]]\n'
                'id = "s"\ncontrollers = 4\ntargets = 10\nluns = 25\n')
    res = p.resources
    assert res.qemu_devices_kib == (resources.QEMU_BASE_KIB
                                    + 1000 * resources.QEMU_SCSI_DISK_KIB)
    assert res.qemu_kib == res.qemu_devices_kib + 512 * 1024
    assert res.host_kib == GIB


def test_an_unknown_host_refuses_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "host_memory_kib", lambda: 0)
    p = prepare(tmp_path, '[guest]\nmemory_mib = 65536\n[[virtio_scsi]]\n'
                'id = "s"\n')
    assert p.resources.host_kib == 0
