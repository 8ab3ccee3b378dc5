"""The tables have the expected rows, and the numbers on the page are
the numbers in the fixture's results.json files."""

from conftest import FIXTURES, load_json

TOPOS = ["scale-100", "scale-250", "scale-500", "scale-1000"]
VARIANTS = ["stock", "patched"]


def _doc(topo, variant):
    return load_json(FIXTURES / "scale" / topo / variant / "results.json")


def test_runs_table(sweep_report):
    rows = sweep_report["tables"]["runs"]
    assert [(r[0], r[1]) for r in rows] == [(t, v) for t in TOPOS
                                            for v in VARIANTS]
    for r in rows:
        doc = _doc(r[0], r[1])
        assert r[2] == str(doc["disks"]["found"]["total"])
        assert r[5] == doc["kernel"]["release"]
        assert r[6] == doc["host"]["accelerator"]


def test_majors_table_equals_fixture(sweep_report):
    rows = sweep_report["tables"]["majors"]
    assert len(rows) == 8
    for r in rows:
        blk = _doc(r[0], r[1])["majors"]["block"]
        assert r[2] == str(blk["dynamic_capacity"])
        assert r[4] == str(blk["static_collisions"]["count"])
        first, last = blk["majors_obtained"]["ranges"][0]
        assert r[3].startswith(f"{first}-{last}")
        assert r[5] == str(_doc(r[0], r[1])["majors"]["char"][
            "dynamic_capacity"])


def test_procdevices_table_equals_fixture(sweep_report):
    tables = sweep_report["tables"]
    head = tables[("procdevices", "head")][0]
    assert head[3] == "Full read (ns)"
    rows = tables["procdevices"]
    # The curves come from the largest topology every variant ran.
    want = []
    for v in VARIANTS:
        for p in _doc("scale-1000", v)["procdevices"]["points"]:
            want.append([v, str(p["block_majors"]), str(p["registered"]),
                         str(p["ns_per_read"]), f"{p['ns_per_line']:.1f}",
                         str(p["lines"]), "yes" if p["verified"] else "no"])
    assert rows == want


def test_memory_table_equals_fixture(sweep_report):
    rows = sweep_report["tables"]["memory"]
    assert len(rows) == 8
    for r in rows:
        mem = _doc(r[0], r[1])["memory"]
        assert r[3] == str(mem["guest_slab_kib"])
        assert r[4] == f"{mem['guest_slab_kib_per_disk']:.2f}"
        assert r[5] == str(mem["guest_mem_total_kib"]
                           - mem["guest_mem_available_kib"])
        assert r[6] == str(mem["qemu_peak_rss_kib"])


def test_io_table_equals_fixture(sweep_report):
    rows = sweep_report["tables"]["io"]
    assert len(rows) == 8
    for r in rows:
        doc = _doc(r[0], r[1])
        assert r[2:5] == [str(doc["fio"][k]) for k in ("disks", "ok",
                                                       "failed")]
        assert r[6] == ("yes" if doc["lvm"]["ok"] else "no")
        assert r[9] == f"{doc['lvm']['pvcreate_s']:.2f}"


def test_capacity_plan_rows(sweep_report):
    rows = sweep_report["tables"]["capacity_plan"]
    assert [(r[0], r[1]) for r in rows] == [
        (str(n), v) for v in VARIANTS
        for n in (1000, 4000, 5000, 10000, 20000, 65536)]
    assert all(r[2] != "-" and r[4] != "-" and r[5] != "-" for r in rows)
    err = sweep_report["tables"]["capacity_error"]
    assert {r[3] for r in err} == {"100, 250, 500, 1000"}
    assert all(r[6] == "65.5x the largest measured" for r in err)


def test_capacity_plan_shows_what_was_measured_at_a_count(sweep_report):
    """The fixture sweep booted 1000 disks: that row gives the measured
    figures beside the model; 4000 was never booted."""
    rows = {(r[0], r[1]): r for r in
            sweep_report["tables"]["capacity_plan"]}
    for v in VARIANTS:
        doc = load_json(FIXTURES / "scale" / "scale-1000" / v /
                        "results.json")
        census = doc["boot"]["census_complete_s"]
        wall = doc["boot"]["wall_to_census_s"]
        assert rows[("1000", v)][10] == f"{census:.1f} (1 run)"
        assert rows[("1000", v)][11] == f"{wall:.1f} (1 run)"
        assert rows[("4000", v)][10:] == ["-", "-"]
