"""results.json is written whole or not at all."""

import json

import pytest

from blkscale.results.document import derive_fio, disks_found
from blkscale.results.atomic import write_json_atomic


def test_written_whole(tmp_path):
    path = tmp_path / "results.json"
    write_json_atomic(path, {"a": [1, 2]})
    assert json.loads(path.read_text()) == {"a": [1, 2]}
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_failure_leaves_nothing(tmp_path):
    path = tmp_path / "results.json"
    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": object()})
    assert list(tmp_path.iterdir()) == []


def test_failure_keeps_the_previous_file(tmp_path):
    path = tmp_path / "results.json"
    write_json_atomic(path, {"v": 1})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"v": object()})
    assert json.loads(path.read_text()) == {"v": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_disks_found():
    section = {"disks": [{"name": n} for n in
                         ["vda", "vdaa", "sda", "sdzz", "nullb0", "nullb12",
                          "dm-0", "loop0", "sr0"]]}
    assert disks_found(section) == {"vd": 2, "sd": 2, "nullb": 2, "total": 6}


def test_derive_fio():
    raw = {"fio version": "fio-3.33", "jobs": [
        {"jobname": "data-0", "error": 0,
         "read": {"io_bytes": 4096, "iops": 10.5, "bw": 40,
                  "lat_ns": {"mean": 2500.0}},
         "write": {"io_bytes": 0, "iops": 0, "bw": 0, "lat_ns": {"mean": 0}}},
        {"jobname": "data-1", "error": 5}]}
    fio = derive_fio(raw, {"data-0": ("data", 0, "vda"),
                           "data-1": ("data", 1, "vdb")}, False)
    assert (fio["disks"], fio["ok"], fio["failed"]) == (2, 1, 1)
    job = fio["jobs"][0]
    assert (job["disk"], job["group"], job["ok"]) == ("vda", "data", True)
    assert job["read"]["lat_mean_us"] == 2.5
    assert fio["jobs"][1]["disk"] == "vdb" and not fio["jobs"][1]["ok"]
