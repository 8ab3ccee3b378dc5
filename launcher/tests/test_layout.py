"""PCI placement: slots, bridges, hubs, enumeration order, guest names."""

import pytest

from blkscale import topology
from blkscale.topology.layout import (MAX_BRIDGES, ROOT_FREE, ROOT_RESERVED,
                                      SLOTS_PER_BUS, disk_suffix)


def planned(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text("[guest]\nmemory_mib = 8192\n" + text)
    return topology.prepare(path)


@pytest.mark.parametrize("index,suffix", [
    (0, "a"), (25, "z"), (26, "aa"), (51, "az"), (52, "ba"), (701, "zz"),
    (702, "aaa"), (18277, "zzz")])
def test_disk_suffix(index, suffix):
    assert disk_suffix(index) == suffix


def check_invariants(layout):
    numbers = [b.number for b in layout.buses]
    assert numbers == list(range(len(layout.buses)))
    assert len(layout.bridges) <= MAX_BRIDGES
    for bus in layout.buses:
        used = list(bus.devices) + list(bus.bridges)
        assert len(used) == len(set(used)), "slot used twice"
        assert all(0 <= s < SLOTS_PER_BUS for s in used)
        if bus.kind == "root":
            assert not set(used) & set(ROOT_RESERVED)
        if bus.kind == "hub":
            assert bus.parent.kind == "root"


def test_small_topology_stays_on_the_root_bus(tmp_path):
    p = planned(tmp_path, '[[virtio_blk]]\nid = "a"\ncount = 29\n')
    assert p.layout.bridges == []
    assert [d.slot for d in p.layout.devices] == list(range(3, 32))


def test_one_more_device_needs_a_bridge(tmp_path):
    p = planned(tmp_path, '[[virtio_blk]]\nid = "a"\ncount = 30\n')
    layout = p.layout
    assert len(layout.bridges) == 1
    check_invariants(layout)
    # The bridge takes the last root slot; enumeration: root bus first.
    assert layout.root.bridges[31].qemu_id == "br1"
    assert [d.bus.number for d in layout.devices] == [0] * 28 + [1] * 2


def test_the_largest_layout_uses_hubs(tmp_path):
    count = ROOT_FREE + MAX_BRIDGES * (SLOTS_PER_BUS - 1)
    p = planned(tmp_path, f'[[virtio_blk]]\nid = "a"\ncount = {count}\n'
                'num_queues = 1\nqueue_size = 16\n')
    layout = p.layout
    check_invariants(layout)
    assert count == 7934
    assert len(layout.devices) == count
    assert len(layout.bridges) == MAX_BRIDGES
    hubs = [b for b in layout.buses if b.kind == "hub"]
    assert len(hubs) == 8
    # Every slot is in use: devices or bridges.
    free = sum(len(b.free_slots()) for b in layout.buses)
    assert free == 0


def test_enumeration_order_and_names(tmp_path):
    p = planned(tmp_path, '[[virtio_scsi]]\nid = "s"\ncontrollers = 2\n'
                '[[virtio_blk]]\nid = "a"\ncount = 20\n'
                '[[virtio_blk]]\nid = "b"\ncount = 20\n')
    layout = p.layout
    check_invariants(layout)
    names = layout.blk_names()
    order = [(d.group.id, d.index) for d in layout.devices
             if d.group.kind == "virtio_blk"]
    assert [names[k] for k in order] == ["vd" + disk_suffix(i)
                                         for i in range(40)]
    assert names[("a", 0)] == "vda" and names[("b", 19)] == "vdan"


def test_per_bus_spreads_devices(tmp_path):
    p = planned(tmp_path, '[[virtio_blk]]\nid = "a"\ncount = 40\n'
                'per_bus = 8\nbus = "bridge"\n')
    layout = p.layout
    check_invariants(layout)
    per_bus = {}
    for d in layout.devices:
        per_bus[d.bus.number] = per_bus.get(d.bus.number, 0) + 1
    assert 0 not in per_bus
    assert sorted(per_bus.values()) == [8] * 5


def test_groups_on_the_root_bus_only(tmp_path):
    p = planned(tmp_path, '[[virtio_blk]]\nid = "r"\ncount = 5\n'
                'bus = "root"\n[[virtio_blk]]\nid = "x"\ncount = 60\n')
    layout = p.layout
    check_invariants(layout)
    assert {d.bus.kind for d in layout.of_group(p.topo.group("r"))} == {"root"}
