"""The partitions step's figures and lines, from a results document as
partbench writes it: the full-read costs, the missed and repeated disks
of the interleaved reads, and nothing where a read did not run (a check
that did not run is no evidence of a complete listing).  Fast: no boot.
"""

import copy
import json

from blkscale import results
from blkscale.figures import metrics
from blkscale.session import partlines


def checked(missed, repeated):
    return {"run": True, "reason": None, "deleted": {"name": "sdc",
                                                     "hctl": "0:0:0:2"},
            "expected": 509, "missed_count": len(missed), "missed": missed,
            "repeated_count": len(repeated), "repeated": repeated,
            "complete": not missed and not repeated, "restored": True}


def document():
    return {
        "schema": results.RESULTS_SCHEMA,
        "steps": [{"name": "census", "verdict": "ok"},
                  {"name": "partitions", "verdict": "ok"}],
        "partitions": {
            "disks": 512,
            "files": {
                "partitions": {"ns_per_read": 2_500_000,
                               "ref_per_read": 41.5},
                "diskstats": {"ns_per_read": 9_000_000, "ref_per_read": None},
            },
            "interleave": {
                "partitions": checked(["sdhw"], []),
                "diskstats": checked([], ["sdb", "sdd", "sde", "sdf"]),
            },
        },
    }


def test_figures_of_a_run():
    values = metrics.extract(document())
    assert values["partitions_ns_per_read"] == 2_500_000
    assert values["partitions_ref_per_read"] == 41.5
    assert values["diskstats_ns_per_read"] == 9_000_000
    assert values["diskstats_ref_per_read"] is None
    assert values["partitions_interleave_missed"] == 1
    assert values["partitions_interleave_repeated"] == 0
    assert values["diskstats_interleave_missed"] == 0
    assert values["diskstats_interleave_repeated"] == 4


def test_a_check_that_did_not_run_has_no_figure():
    doc = copy.deepcopy(document())
    doc["partitions"]["interleave"]["partitions"] = {
        "run": False, "reason": "no SCSI disk with device/delete among "
        "the 120 entries of the first page", "missed_count": 0,
        "repeated_count": 0}
    del doc["partitions"]["interleave"]["diskstats"]
    values = metrics.extract(doc)
    assert values["partitions_interleave_missed"] is None
    assert values["partitions_interleave_repeated"] is None
    assert values["diskstats_interleave_missed"] is None
    # without the step, nothing at all
    values = metrics.extract({"schema": results.RESULTS_SCHEMA})
    assert all(values[f"{f}_{k}"] is None
               for f in ("partitions", "diskstats")
               for k in ("ns_per_read", "interleave_missed"))


def write(tmp_path, doc):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_run_lines(tmp_path):
    doc = document()
    lines = partlines.lines(write(tmp_path, doc), doc["steps"])
    assert [line.strip() for line in lines] == [
        "full read: /proc/partitions 2.50 ms, /proc/diskstats 9.00 ms "
        "(512 disks)",
        "read while a disk is deleted: partitions 1 missed (sdhw), "
        "0 repeated; diskstats 0 missed, 4 repeated (sdb, sdd, sde, ...)"]
    doc["partitions"]["interleave"]["diskstats"] = {
        "run": False, "reason": "the first read() listed all 3 entries"}
    lines = partlines.lines(write(tmp_path, doc), doc["steps"])
    assert lines[1].endswith("diskstats not run: the first read() listed "
                             "all 3 entries")


def test_no_lines_without_the_step_or_its_results(tmp_path):
    doc = document()
    path = write(tmp_path, doc)
    assert partlines.lines(path, doc["steps"][:1]) == []
    assert partlines.lines(None, doc["steps"]) == []
    assert partlines.lines(str(tmp_path / "none.json"), doc["steps"]) == []
