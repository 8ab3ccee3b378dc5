"""The nightly's every-disk checks: one wrong disk in one repeat fails
the run's topology and variant, naming the disk; a planned section
missing from the results is missing, not a pass; topologies without
PCI disk groups or without fio are not judged."""

import copy

from blkscale.figures import compare, everydisk


def _doc(disks=4, steps=("census", "fio")):
    return {
        "topology": {"expected": {"virtio": 0, "scsi": disks, "sim": 0,
                                  "total": disks}},
        "steps": [{"name": s, "verdict": "ok"} for s in steps],
        "census": {"identity": {
            "expected": disks, "checked": disks, "ok": disks,
            "mismatched": 0, "missing": 0, "duplicated": 0, "unexpected": 0,
            "signatures_checked": disks, "signatures_ok": disks, "bad": []}},
        "fio": {"disks_expected": disks, "disks_verified": disks,
                "disks_failed": 0, "not_run": [],
                "jobs": [{"job": f"j-{i}", "disk": f"sd{'abcd'[i]}",
                          "ok": True} for i in range(disks)]},
    }


def _checks(docs):
    return {(c.topology, c.variant, c.metric): c
            for c in everydisk.checks(docs)}


def test_every_disk_identified_and_verified_passes():
    got = _checks({("t", "patched"): {1: _doc(), 2: _doc()}})
    assert [c.status for c in got.values()] == [compare.PASS] * 2
    assert got[("t", "patched", "every_disk_identified")].message == \
        "every_disk_identified: 4/4 identified in each of 2 repeats"


def test_one_wrong_signature_in_one_repeat_fails_naming_the_disk():
    bad = _doc()
    ident = bad["census"]["identity"]
    ident.update(ok=3, mismatched=1, signatures_ok=3)
    ident["bad"] = [{"disk": "sdc", "serial": "jbod-2",
                     "check": "signature",
                     "problem": "sector 0 is disk jbod-3"}]
    checks = everydisk.checks({("t", "stock"): {1: _doc(), 2: bad}})
    failed = [c for c in checks if c.failed]
    assert len(failed) == 1
    msg = failed[0].message
    assert failed[0].status == compare.REGRESSION
    assert "3/4 identified (1 mismatched, signatures 3/4)" in msg
    assert "sdc (jbod-2): sector 0 is disk jbod-3" in msg
    assert msg.startswith("every_disk_identified: repeat 2: ")


def test_a_signature_alone_wrong_still_fails():
    bad = _doc()
    bad["census"]["identity"]["signatures_ok"] = 3
    (c,) = [c for c in everydisk.checks({("t", "p"): {1: bad}})
            if c.metric == "every_disk_identified"]
    assert c.failed


def test_fio_short_of_its_disks_fails():
    bad = _doc()
    bad["fio"].update(disks_verified=2, disks_failed=1, not_run=["jbod-3"])
    bad["fio"]["jobs"][1]["ok"] = False
    (c,) = [c for c in everydisk.checks({("t", "p"): {1: bad}})
            if c.metric == "every_disk_verified"]
    assert c.status == compare.REGRESSION
    assert "2/4 verified, 1 failed; first failed: sdb; not run: 1 " \
        "(first jbod-3)" in c.message


def test_sections_missing_from_a_run_that_ran_the_steps_are_missing():
    doc = _doc()
    del doc["census"]["identity"]
    del doc["fio"]
    got = _checks({("t", "p"): {1: doc}})
    assert {c.status for c in got.values()} == {compare.MISSING}
    assert all(c.failed for c in got.values())


def test_what_a_run_did_not_do_is_not_judged():
    no_fio = _doc(steps=("census",))
    sim_only = copy.deepcopy(no_fio)
    sim_only["topology"]["expected"] = {"virtio": 0, "scsi": 0, "sim": 8,
                                        "total": 8}
    del sim_only["census"]["identity"]
    got = _checks({("a", "p"): {1: no_fio}, ("b", "p"): {1: sim_only}})
    assert set(got) == {("a", "p", "every_disk_identified")}
