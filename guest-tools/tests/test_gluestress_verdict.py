"""The glue-stress run's verdict (gluestressrun.problems) fails on each bad
case: a lockdep splat, list corruption or a sysfs name created twice in
the captured logs (tests/unit/data), and in the results a failed step,
a glue directory problem, a kmemleak leak, devices that did not come
back, too few rounds.  A passing run passes.  Fast: no boot.
"""

import copy

import pytest

import fuzzrun
import gluestressrun

DATA = fuzzrun.REPO / "guest-tools" / "tests" / "unit" / "data"


def log(name):
    return (DATA / name).read_text()


def passing():
    """results.json of a clean run, as the step and gluecheck write it."""
    check = {
        "sysfs": {"checked": True, "scsi_devices": 24,
                  "classes": gluestressrun.CLASSES, "glue_dirs": 131,
                  "glue_children": 131, "problems": 0, "found": []},
        "kernel_log": {"checked": True, "lines": 5200, "has_start": True,
                       "problems": 0, "found": []},
        "kmemleak": {"checked": True, "leaks": 0, "problems": 0,
                     "found": []},
        "problems": 0, "ok": True, "errors": [],
    }
    section = {
        "host_rounds": 120, "hosts_added": 120, "hosts_removed": 120,
        "luns_with_host": 960, "luns_deleted": 700, "luns_readded": 700,
        "scans": 600, "reader_walks": 300, "kernel_scsi_devices_added": 1700,
        "scsi_devices_before": 24, "scsi_devices_after": 24,
        "lockdep_debug_locks": 1, "kmemleak": True, "problems": [],
        "ok": True, "check": check,
    }
    return {"steps": [{"name": "gluestress", "verdict": "ok",
                       "start_s": 20.0, "end_s": 280.0, "message": ""}],
            "gluestress": section}


def test_a_clean_run_passes():
    clean = log("klog-gluestress-clean.txt")
    assert gluestressrun.problems(passing(), clean, clean) == []


@pytest.mark.parametrize("fixture, what", [
    ("klog-gluestress-lockdep.txt",
     "WARNING: possible circular locking dependency detected"),
    ("klog-gluestress-list.txt", "list_del corruption"),
    ("klog-gluestress-dupname.txt",
     "sysfs: cannot create duplicate filename"),
])
def test_a_splat_in_either_log_fails(fixture, what):
    clean, bad = log("klog-gluestress-clean.txt"), log(fixture)
    for console, dmesg, name in ((bad, clean, "console"),
                                 (clean, bad, "dmesg.log")):
        found = gluestressrun.problems(passing(), console, dmesg)
        assert len(found) == 1 and found[0].startswith(f"{name}: "), found
        assert what in found[0]


def test_an_expected_looking_warn_still_fails():
    warn = ("[   49.506426] WARNING: CPU: 0 PID: 94 at "
            "unregister_blkdev+0x80/0x100\n")
    found = gluestressrun.problems(passing(), warn, "")
    assert found == ["console: 1 WARNs of unregister_blkdev"]


def spoil(change):
    doc = copy.deepcopy(passing())
    change(doc, doc["gluestress"], doc["gluestress"]["check"])
    return gluestressrun.problems(doc, "", "")


def test_a_leaked_glue_directory_fails():
    reason = ("empty glue directory devices/pseudo_0/adapter0/host0/"
              "target0:0:0/0:0:0:2/block")

    def leak(doc, g, check):
        doc["steps"][0].update(verdict="failed",
                               message=f"exit 1: 1 problems, the first in "
                                       f"the sysfs: {reason}")
        g["problems"] = [f"1 problems, the first in the sysfs: {reason}"]
        check["sysfs"].update(problems=1, found=[reason])

    found = spoil(leak)
    assert found[0] == f"gluestress failed: exit 1: 1 problems, the first " \
        f"in the sysfs: {reason}"
    assert f"sysfs: {reason}" in found


def test_a_kmemleak_report_fails():
    first = ("unreferenced object 0xffff888005c3a000 (size 64):, "
             "from kmalloc_trace+0x26/0x90")
    found = spoil(lambda doc, g, check: check["kmemleak"].update(
        leaks=2, problems=2, found=[first]))
    assert found == [f"kmemleak: {first}"]


def test_unchecked_parts_fail():
    assert spoil(lambda doc, g, c: c["kmemleak"].update(checked=False)) == [
        "kmemleak was not checked"]
    assert spoil(lambda doc, g, c: c["kernel_log"].update(has_start=False)
                 ) == ["the kernel log was not checked whole"]
    assert spoil(lambda doc, g, c: g.update(lockdep_debug_locks=0)) == [
        "lockdep was not on at the end (debug_locks 0)"]
    assert spoil(lambda doc, g, c: c["sysfs"].update(
        classes="block scsi_disk scsi_device")) == [
        "glue classes checked: 'block scsi_disk scsi_device', not "
        "'block scsi_disk scsi_device scsi_generic bsg'"]


def test_devices_lost_or_too_little_done_fail():
    assert spoil(lambda doc, g, c: g.update(scsi_devices_after=23)) == [
        "23 SCSI devices after the stress, 24 before"]
    assert spoil(lambda doc, g, c: g.update(host_rounds=3)) == [
        "3 host rounds, fewer than 10"]
    assert spoil(lambda doc, g, c: g.update(luns_readded=0)) == [
        "luns_readded is 0"]


def test_no_results_fails_with_the_console_splat():
    found = gluestressrun.problems(None, log("klog-gluestress-list.txt"), "")
    assert found[0] == "no results.json"
    assert "list_del corruption" in found[1]
