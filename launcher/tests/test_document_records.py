"""results.json, summary.json and a sweep's manifest.json as records:
every committed document loads, and one written back from its record is
the same bytes; a document of another schema or a newer version is one
line naming the file and the field; one without a version is version 1."""

import json
import subprocess

import pytest

from blkscale.errors import InputError
from blkscale.results import manifest, runresults, runsummary
from blkscale.results.atomic import write_json_atomic
from launchertest import REPO

RECORDS = {"results.json": runresults.Results,
           "summary.json": runsummary.Summary,
           "manifest.json": manifest.SweepManifest}


def _committed(name):
    """Every tracked file of that name, outside the report's output."""
    out = subprocess.run(["git", "ls-files", f"*{name}"], cwd=REPO,
                         check=True, capture_output=True, text=True)
    return [REPO / f for f in out.stdout.split()
            if f.rsplit("/", 1)[-1] == name and "/report/" not in f]


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_committed_document_loads_and_writes_back_the_same(
        tmp_path, name):
    files = _committed(name)
    assert len(files) >= 30
    same = 0
    for path in files:
        record = RECORDS[name].read(path, name)
        assert record.version == 1 and record.where == str(path)
        text = path.read_text()
        if text != json.dumps(json.loads(text), indent=1) + "\n":
            continue        # trimmed by hand, not as the writer writes
        out = tmp_path / name
        record.write(out)
        assert out.read_text() == text, path
        same += 1
    assert same > 0


def _doc(schema, **fields):
    return {"schema": schema, **fields}


@pytest.mark.parametrize("record", sorted(RECORDS.values(),
                                          key=lambda r: r.__name__))
def test_a_document_without_a_version_is_version_1(tmp_path, record):
    path = tmp_path / "doc.json"
    doc = _doc({"name": record.SCHEMA["name"]}, run="r")
    write_json_atomic(path, doc)
    got = record.read(path, "doc")
    assert got.version == 1 and got.to_json() == doc and got["run"] == "r"


@pytest.mark.parametrize("schema, field, problem", [
    ({"name": "blkscale-summary", "version": 1}, "schema.name",
     "is not blkscale-results"),
    ("blkscale-results", "schema.name", "is not blkscale-results"),
    ({"name": "blkscale-results", "version": 2}, "schema.version",
     "2: only versions 1 to 1 are read"),
    ({"name": "blkscale-results", "version": "1"}, "schema.version",
     "'1': only versions 1 to 1 are read"),
])
def test_another_schema_or_a_newer_version_is_one_line(tmp_path, schema,
                                                       field, problem):
    path = tmp_path / "results.json"
    write_json_atomic(path, _doc(schema))
    with pytest.raises(InputError) as e:
        runresults.read(path)
    assert str(e.value) == f"{path}: {field}: {problem}"


def test_unreadable_is_one_line(tmp_path):
    path = tmp_path / "results.json"
    path.write_text("{")
    with pytest.raises(InputError) as e:
        runresults.read(path)
    assert str(e.value).startswith(f"{path}: unreadable results: ")
    assert runresults.read(tmp_path / "none.json") is None


def test_the_records_read_fields_not_paths():
    r = runresults.Results.from_json(_doc(
        runresults.Results.SCHEMA,
        disks={"expected": {"total": 4}, "found": {"vd": 3, "total": 3}},
        boot={"census_complete_s": 2.5, "kernel_to_init_s": 1.0},
        steps=[{"name": "census", "verdict": "failed", "start_s": 1.0,
                "end_s": 3.5}],
        memory={"guest_mem_total_kib": 100, "guest_mem_available_kib": 60},
        host={"accelerator": "tcg", "vcpus": 2},
        outcome={"status": 1, "kind": "disks-missing", "message": "m"}))
    assert (r.disks_found_total, r.disks_expected_total) == (3, 4)
    # A census figure counts only when the census passed.
    assert r.boot_figure("census_complete_s") is None
    assert r.boot_figure("kernel_to_init_s") == 1.0
    assert r.steps_failed == 1 and not r.step_ok("census")
    assert r.step_seconds("census") == 2.5 and r.step_seconds("fio") is None
    assert r.guest_used_kib == 40 and r.accelerator == "tcg"
    assert r.outcome["kind"] == "disks-missing"
    empty = runresults.Results.of(None)
    assert empty.disks_found_total is None and empty.outcome is None
    with pytest.raises(TypeError):
        r.body["outcome"] = None        # read from JSON: read-only


def test_a_manifest_is_changed_only_through_its_writer(tmp_path):
    doc = _doc(manifest.SweepManifest.SCHEMA, run="r", status="complete",
               sweep={"variants": ["stock", "patched"],
                      "reference": "stock"},
               runs=[{"topology": "t", "variant": "stock", "repeat": 1}])
    write_json_atomic(manifest.path_in(tmp_path), doc)
    writer = manifest.Manifest.reopen(tmp_path)
    writer.edit_runs(lambda e: e.update(outcome="ok"))
    record = manifest.read_in(tmp_path)
    assert record.runs[0]["outcome"] == "ok"
    other = record.with_reference("patched")
    assert other.reference == "patched" and record.reference == "stock"
    with pytest.raises(AttributeError):
        record.body = {}
    assert manifest.Manifest.reopen(tmp_path / "none") is None


def test_a_document_naming_no_schema_is_read_only_where_asked(tmp_path):
    path = tmp_path / "results.json"
    write_json_atomic(path, {"blktests": {"tests": []}})
    got = runresults.read(path, untagged=True)
    assert got.version == 1 and got.section("blktests") == {"tests": []}
    with pytest.raises(InputError) as e:
        runresults.read(path)
    assert str(e.value) == f"{path}: schema.name: is not blkscale-results"
