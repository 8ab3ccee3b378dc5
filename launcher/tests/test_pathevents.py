"""The host's half of the pathfail step: which devices a request removes
and adds back, and what is recorded when QEMU refuses."""

from launchertest import TOPOLOGIES

from blkscale import topology
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv
from blkscale.qemu import hotplug
from blkscale.qemu.pathevents import PathEvents
from blkscale.qemu.qmp import QmpError


def _argv(name="multipath-pathfail"):
    planned = topology.prepare(TOPOLOGIES / f"{name}.toml")
    files = RunFiles.under("/boot/bzImage", "/run/blkscale-test")
    return planned, qargv.build_argv(planned, files, "debian", "tcg",
                                     "qemu-system-x86_64")


def test_down_removes_the_named_path_of_every_lun_and_up_adds_it_back():
    _, argv = _argv()
    events = PathEvents([1], argv)
    sent = []
    events.answer("paths-down", 10.0, sent.append)
    assert [c["execute"] for c in sent[0]] == ["device_del"] * 8
    assert sorted(c["arguments"]["id"] for c in sent[0]) == \
        [f"pa-mp-1-{lun}" for lun in range(8)]
    events.answer("paths-up", 25.0, sent.append)
    added = sent[1]
    assert [c["execute"] for c in added] == ["device_add"] * 8
    # the same device as on the command line: path 1's controller, the
    # LUN's block node (which path 0 keeps), serial and WWN
    first = added[0]["arguments"]
    assert first["id"] == "pa-mp-1-0"
    assert first["driver"] == "scsi-hd"
    assert "sc-mp-1" in first["bus"] and first["drive"] == "d-mp-0"
    assert first["serial"] == "mp-0" and first["share-rw"] == "on"
    assert [r["error"] for r in events.records] == [None, None]
    assert [r["devices"] for r in events.records] == [8, 8]


def test_both_paths_are_every_device():
    _, argv = _argv()
    events = PathEvents([0, 1], argv)
    assert len(events.commands("paths-down")) == 16


def test_disks_added_over_qmp_are_found_too():
    """Past ARG_MAX the path devices travel as device_add commands."""
    _, argv = _argv()
    moved_argv, commands = hotplug.split(argv)
    assert not any(v.startswith("scsi-hd,") for v in moved_argv)
    events = PathEvents([1], moved_argv, commands)
    assert sorted(c["arguments"]["id"] for c in events.devices) == \
        [f"pa-mp-1-{lun}" for lun in range(8)]


def test_a_refused_command_is_recorded_and_the_paths_stay_as_they_were():
    _, argv = _argv()
    events = PathEvents([1], argv)

    def refuse(commands):
        raise QmpError("device_del: Device 'pa-mp-1-0' not found")

    record = events.answer("paths-down", 10.0, refuse)
    assert record["error"] == "device_del: Device 'pa-mp-1-0' not found"
    # still up: asking for them back is the request out of turn
    record = events.answer("paths-up", 11.0, lambda c: None)
    assert record["error"] == "paths-up while the paths are already up"


def test_a_request_out_of_turn_sends_nothing():
    _, argv = _argv()
    events = PathEvents([1], argv)
    sent = []
    record = events.answer("paths-up", 5.0, sent.append)
    assert sent == [] and "already up" in record["error"]
    events.answer("paths-down", 6.0, sent.append)
    record = events.answer("paths-down", 7.0, sent.append)
    assert len(sent) == 1 and "already down" in record["error"]


def test_a_plan_without_pathfail_has_no_handler():
    planned, argv = _argv("multipath-smoke")

    class Machine:
        start = None
    Machine.argv = argv
    assert PathEvents.of(Machine, planned.topo) is None
