"""A topology is planned once: frozen records, each whole when it is made;
what KVM adds is a figure of the plan, not a second plan."""

import dataclasses

import pytest

from blkscale import topology
from blkscale.errors import TopologyError
from blkscale.topology import resources

TOPO = """
[[virtio_blk]]
id = "data"
count = 3
backing = "sparse"
[[virtio_scsi]]
id = "s"
luns = 4
[plan]
steps = ["census", "fio", "lvm", "blktests"]
[plan.fio]
disks = 2
[plan.lvm]
disks = 2
"""


def planned(tmp_path, accel="tcg"):
    path = tmp_path / "t.toml"
    path.write_text(TOPO)
    return topology.prepare(path, accel)


def test_no_record_of_the_plan_can_be_changed(tmp_path):
    p = planned(tmp_path)
    records = [(p, "resources"), (p.topo, "fio_disks"),
               (p.topo.plan.fio, "verify"), (p.topo.plan.blktests, "disks"),
               (p.topo.group("data"), "count"), (p.layout, "devices"),
               (p.layout.devices[0], "vectors"), (p.layout.disks[0], "name"),
               (p.resources, "fds")]
    for record, name in records:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, name, None)


def test_the_loader_chooses_the_plans_disks(tmp_path):
    topo = planned(tmp_path).topo
    data = topo.group("data")
    assert topo.fio_disks == [(data, 0), (data, 1)]
    assert topo.lvm_disks == [(data, 0), (data, 1)]
    assert topo.plan.fio.verify is True         # "auto", on sparse disks
    assert topo.plan.blktests.disks == ["data-0"]


def test_each_device_is_made_with_its_queues_and_vectors(tmp_path):
    layout = planned(tmp_path).layout
    # 2 vCPUs: two request queues each, QEMU's default MSI-X table.
    assert [(d.group.id, d.num_queues, d.queue_size, d.vectors)
            for d in layout.devices] == [("s", 2, 256, 5)] + \
        [("data", 2, 256, 3)] * 3
    assert [disk.slot for disk in layout.devices[0].disks] == \
        [layout.devices[0].slot] * 4


def test_kvm_adds_its_eventfds_to_the_same_plan(tmp_path):
    p = planned(tmp_path)
    assert p.fds("tcg") == p.resources.fds == resources.QEMU_BASE_FDS + 3
    # an ioeventfd per virtqueue, an irqfd per vector
    assert p.fds("kvm") == p.resources.fds + sum(
        d.num_queues + d.vectors for d in p.layout.devices)


def test_kvm_past_the_fd_limit_is_refused_once_chosen(tmp_path, monkeypatch):
    tcg = planned(tmp_path).resources.fds
    monkeypatch.setattr(resources, "_hard_fd_limit", lambda: tcg)
    p = planned(tmp_path)
    assert p.fds("tcg") == tcg
    with pytest.raises(TopologyError, match="file descriptors"):
        p.fds("kvm")
    with pytest.raises(TopologyError, match="file descriptors"):
        planned(tmp_path, "kvm")
