"""Limits hit for the number of devices, from the kernel's log: each
refusal counted per subsystem with its first device, a wrapped ring
buffer named, and a run that hits one failed unless its topology
expects it.  The lines are the kernel's own words (6.1: drivers/scsi/
sg.c, block/bsg.c, drivers/scsi/scsi_sysfs.c, drivers/scsi/sd.c)."""

from blkscale.results import document, limits
from blkscale.topology import schema

BOOT = "[    0.000000] Linux version 6.1.192-stock-dcfg\n"


def sg_refused(lun):
    return (f"[  812.250001] scsi 2:0:0:{lun}: Unable to attach sg device "
            "type=0, minor number exceeds 32767\n")


def bsg_refused(lun):
    return (f"[  812.250002] sd 2:0:0:{lun}: bsg: too many bsg devices\n"
            f"[  812.250003] scsi 2:0:0:{lun}: Failed to register bsg "
            "queue, errno=-28\n")


def test_each_refusal_is_counted_once_per_device():
    log = BOOT + "".join(sg_refused(n) + bsg_refused(n)
                         for n in range(5, 9))
    hits = {h["subsystem"]: h for h in limits.of(log.encode())}
    assert sorted(hits) == ["bsg", "sg"]
    assert hits["sg"]["devices"] == 4 and hits["sg"]["first"] == "2:0:0:5"
    assert hits["sg"]["limit"] == 32768
    assert hits["sg"]["first_s"] == 812.250001
    # bsg's two lines of one refusal are one device
    assert hits["bsg"]["devices"] == 4
    assert hits["bsg"]["message"] == "sd 2:0:0:5: bsg: too many bsg devices"
    assert limits.summary([hits["sg"]]) == \
        "sg refused 4 devices from 2:0:0:5"


def test_sd_running_out_of_names():
    log = BOOT + ("[ 9.0] sd 0:0:1:3: SCSI disk (sd) name length "
                  "exceeded.\n")
    [hit] = limits.of(log)
    assert (hit["subsystem"], hit["devices"], hit["first"]) == \
        ("sd", 1, "0:0:1:3")


def test_a_clean_log_hits_nothing_and_no_log_is_unknown():
    assert limits.of(BOOT + "[    1.0] sd 0:0:0:0: [sda] Attached\n") == []
    assert limits.of(None) is None


def test_a_wrapped_ring_buffer_is_a_limit_of_its_own():
    hits = limits.of("[  412.000100] sd 3:0:9:24: [sdfz] Attached\n"
                     + sg_refused(1))
    assert [h["subsystem"] for h in hits] == ["kernel-log", "sg"]
    assert hits[0]["first_s"] == 412.0001
    assert "412.000 s only" in limits.summary(hits)


def test_a_run_that_hits_a_limit_fails_unless_expected():
    class Stream:
        done = "ok"
        steps = [{"name": "census", "verdict": "ok"}]
    found = expected = {"total": 8}
    hits = limits.of(BOOT + sg_refused(0))
    got = document.outcome(Stream, found, expected,
                           limits.unexpected(hits, ()))
    assert got["kind"] == "limits-hit" and got["status"] == 1
    assert got["message"] == "limits hit: sg refused 1 device from 2:0:0:0"
    got = document.outcome(Stream, found, expected,
                           limits.unexpected(hits, ("sg",)))
    assert got["kind"] == "ok"


def test_the_disks_bsg_lost_are_counted_on_its_refusal():
    """6.1 with bsg built in, 65,536 LUNs: one refusal logged per
    target whose scan it stopped, 32,768 disks never there."""
    log = BOOT + "".join(
        sg_refused(0).replace("2:0:0:0", f"{h}:0:0:0")
        + bsg_refused(0).replace("2:0:0:0", f"{h}:0:0:0")
        for h in range(32, 160))
    hits = limits.attribute(limits.of(log), 65536, 32768)
    by = {h["subsystem"]: h for h in hits}
    assert by["bsg"]["devices"] == 128
    assert by["bsg"]["disks_missing"] == 32768
    # sg's refusal leaves the disk: nothing lost is put on it
    assert "disks_missing" not in by["sg"]
    assert limits.summary([by["bsg"]]) == (
        "bsg refused 128 devices from 32:0:0:0 "
        "(32768 of 65536 disks missing)")


def test_nothing_is_missing_when_every_disk_is_found():
    hits = limits.attribute(limits.of(BOOT + bsg_refused(3)), 8, 8)
    assert "disks_missing" not in hits[0]
    # missing disks with only sg refusals are not put on sg
    hits = limits.attribute(limits.of(BOOT + sg_refused(3)), 8, 5)
    assert "disks_missing" not in hits[0]


def test_an_expected_limit_still_leaves_its_disks_missing():
    class Stream:
        done = "ok"
        steps = [{"name": "census", "verdict": "ok"}]
    hits = limits.attribute(limits.of(BOOT + bsg_refused(4)), 8, 4)
    got = document.outcome(Stream, {"total": 4}, {"total": 8},
                           limits.unexpected(hits, ("bsg",)), hits)
    assert got["kind"] == "disks-missing" and got["status"] == 1
    assert got["message"] == (
        "4 of 8 disks found (expected limits: bsg refused 1 device from "
        "2:0:0:4 (4 of 8 disks missing))")
    # the census fails on the missing disks: the reason stays in the
    # message of the step that failed

    class Failed(Stream):
        steps = [{"name": "census", "verdict": "failed"}]
    got = document.outcome(Failed, {"total": 4}, {"total": 8},
                           limits.unexpected(hits, ("bsg",)), hits)
    assert got["kind"] == "step-failed"
    assert got["message"].endswith("(expected limits: bsg refused 1 device "
                                   "from 2:0:0:4 (4 of 8 disks missing))")


def test_the_topology_names_every_subsystem_the_log_can_show():
    assert schema.LIMITS == limits.SUBSYSTEMS
    assert {s for s, _, _ in limits.PATTERNS} <= set(limits.SUBSYSTEMS)
