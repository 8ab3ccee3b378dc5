"""A fio job is ok only when fio's own JSON shows it worked: I/O in each
direction its rw= asked for, no error, and a verify phase when
verification was asked.  The JSON files are fio 3.33's output (trimmed of
latency percentiles) for a randrw job with verify, a write job whose
verify phase was turned off, a verify of data corrupted between the
write and the verify (all three made on a host file), and a guest's
randrw cut short by its runtime."""

import copy
import json
from pathlib import Path

from blkscale.results.document import derive_fio

HERE = Path(__file__).resolve().parent / "fio-json"
MAP = {"data-0": ("data", 0, "vda"), "data-1": ("data", 1, "vdb")}


def _raw(name):
    return json.loads((HERE / name).read_text())


def test_randrw_with_verify_is_ok():
    fio = derive_fio(_raw("randrw-verify-ok.json"), MAP, True)
    assert (fio["disks"], fio["ok"], fio["failed"]) == (2, 2, 0)
    assert fio["verify"] is True
    job = fio["jobs"][0]
    assert job["verified"] and job["problems"] == []
    assert job["read"]["io_bytes"] > 0 and job["write"]["io_bytes"] > 0


def test_corrupted_block_fails_the_verify():
    fio = derive_fio(_raw("write-verify-corrupted.json"), MAP, True)
    assert (fio["ok"], fio["failed"]) == (0, 1)
    assert fio["verify"] is False
    job = fio["jobs"][0]
    assert job["error"] == 84 and not job["verified"]
    assert job["problems"] == ["fio error 84", "fio reports no verification"]


def test_verify_asked_but_not_run_fails():
    """The plan asked for verification; fio's JSON shows none (do_verify
    0, nothing read back): not ok, whatever the plan's flag says."""
    raw = _raw("write-verify-not-run.json")
    fio = derive_fio(raw, MAP, True)
    assert fio["failed"] == 1 and fio["verify"] is False
    assert fio["jobs"][0]["problems"] == ["fio reports no verification"]
    # fio's options alone ask for it too: the plan's flag is not needed.
    assert derive_fio(raw, MAP, False)["failed"] == 1
    # Without verify anywhere, a write job that wrote is ok.
    plain = copy.deepcopy(raw)
    del plain["global options"]["verify"]
    fio = derive_fio(plain, MAP, False)
    assert fio["ok"] == 1 and fio["verify"] is False


def test_no_io_in_a_direction_asked_fails():
    raw = _raw("randrw-verify-ok.json")
    raw["jobs"][1]["write"]["io_bytes"] = 0
    fio = derive_fio(raw, MAP, True)
    assert [j["ok"] for j in fio["jobs"]] == [True, False]
    assert "no write I/O (rw=randrw)" in fio["jobs"][1]["problems"]
    raw["jobs"][0]["read"]["io_bytes"] = 0
    raw["jobs"][0]["write"]["io_bytes"] = 0
    fio = derive_fio(raw, MAP, False)
    assert fio["jobs"][0]["problems"][:2] == ["no read I/O (rw=randrw)",
                                              "no write I/O (rw=randrw)"]


def test_job_cut_by_runtime_never_verified():
    """A guest's fio (ci-small, TCG): randrw of 16m with runtime=5 ends
    on the runtime, and fio skips the verify phase after it.  Its reads
    are the mix's own (some jobs read more than they wrote), short of the
    16 MiB a verified job reads back: no job counts as verified."""
    raw = _raw("randrw-verify-cut-by-runtime.json")
    assert raw["global options"]["runtime"] == "5"
    jobs = raw["jobs"]
    assert any(j["read"]["io_bytes"] > j["write"]["io_bytes"] for j in jobs)
    fio = derive_fio(raw, {f"data-{i}": ("data", i, f"sd{i}")
                           for i in range(4)}, True)
    assert (fio["ok"], fio["failed"], fio["verify"]) == (0, 4, False)
    assert all(j["problems"] == ["fio reports no verification"]
               for j in fio["jobs"])
