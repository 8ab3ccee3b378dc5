"""The "Every disk" section: disks identified and fio-verified over disks
expected, per kind and variant, with the steps' times; a kind short of a
disk is "NOT all"; lvm2's phases sorted by the number of PVs."""

import json

from conftest import read_tables, run_report


def census(virtio, scsi, ok_virtio, ok_scsi, signatures_ok):
    return {"by_kind": {"virtio": {"expected": virtio},
                        "scsi": {"expected": scsi},
                        "sim": {"expected": 0}},
            "identity": {"expected": virtio + scsi, "checked": virtio + scsi,
                         "ok": ok_virtio + ok_scsi,
                         "signatures_checked": virtio + scsi,
                         "signatures_ok": signatures_ok,
                         "by_kind": {"virtio": {"checked": virtio,
                                                "ok": ok_virtio},
                                     "scsi": {"checked": scsi,
                                              "ok": ok_scsi}}}}


def fio(disks, failed=()):
    jobs = [{"job": f"g-{i}", "disk": d, "ok": d not in failed,
             "verified": d not in failed} for i, d in enumerate(disks)]
    return {"jobs": jobs, "not_run": []}


def lvm(pvs, pvcreate_s):
    return {"ok": True, "pvs": pvs, "stripes": 2, "pvcreate_s": pvcreate_s,
            "vgcreate_s": 1.0, "lvcreate_s": 0.5, "fio_verify_s": 2.0,
            "remove_s": 1.5, "pvcreate_ms_per_pv": 1000 * pvcreate_s / pvs,
            "vgcreate_ms_per_pv": 1000.0 / pvs}


def add(run_dir):
    sections = {
        "stock": (census(2, 2, 2, 2, 4), fio(["vda", "vdb", "sda", "sdb"]),
                  lvm(1024, 30.0)),
        "patched": (census(2, 2, 2, 1, 3),
                    fio(["vda", "vdb", "sda", "sdb"], failed=("sdb",)),
                    lvm(4, 1.2)),
    }
    for variant, (c, f, lv) in sections.items():
        path = run_dir / variant / "results.json"
        doc = json.loads(path.read_text())
        doc["census"] = dict(doc.get("census") or {}, **c)
        doc["fio"], doc["lvm"] = f, lv
        doc["steps"] = [{"name": "census", "verdict": "ok", "start_s": 4.0,
                         "end_s": 6.5, "message": ""},
                        {"name": "fio", "verdict": "ok", "start_s": 6.5,
                         "end_s": 16.0, "message": ""}]
        path.write_text(json.dumps(doc))


def test_every_disk_per_kind_and_variant(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    add(run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    tables = read_tables((run_dir / "report" / "index.html").read_text())
    rows = {(r[1], r[2]): r[3:] for r in tables["everydisk"]}
    assert rows[("stock", "virtio")] == ["2", "2/2", "2/2", "4/4", "0",
                                         "2.5", "9.5", "every disk"]
    assert rows[("stock", "scsi")][-1] == "every disk"
    assert rows[("patched", "scsi")] == ["2", "1/2", "1/2", "3/4", "0",
                                         "2.5", "9.5", "NOT all"]
    assert rows[("patched", "virtio")][-1] == "every disk"
    # lvm: fewest PVs first, per-PV cost beside the phase times
    lvm = tables["lvm_phases"]
    assert [r[2] for r in lvm] == ["4", "1024"]
    assert lvm[1][4] == "30.00" and lvm[1][9] == "29.30"
    md = (run_dir / "report" / "report.md").read_text()
    assert "## Every disk" in md


def test_without_identities_the_section_says_so(fixture_copy):
    run_dir = fixture_copy("smoke-run")
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    assert "No run of this report checked disk identities" in html
