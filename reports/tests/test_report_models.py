"""The capacity plan's memory figures are least-squares lines through the
fixture's measured points, recomputed here independently, and the boot
points table carries the measured values."""

from blkscale_reports.series import BOOT_SERIES
from conftest import FIXTURES, load_json

TOPOS = ["scale-100", "scale-250", "scale-500", "scale-1000"]


def _line(points):
    """Ordinary least squares a + b*n in closed form."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b * sx) / n, b


def _points(variant, key):
    out = []
    for t in TOPOS:
        doc = load_json(FIXTURES / "scale" / t / variant / "results.json")
        out.append((doc["disks"]["found"]["total"], doc["memory"][key]))
    return out


def test_memory_plan_matches_least_squares(sweep_report):
    rows = {(r[0], r[1]): r for r in sweep_report["tables"]["capacity_plan"]}
    for v in ("stock", "patched"):
        slab_a, slab_b = _line(_points(v, "guest_slab_kib"))
        rss_a, rss_b = _line(_points(v, "qemu_peak_rss_kib"))
        for n in (1000, 4000, 5000, 10000):
            r = rows[(str(n), v)]
            assert r[2] == f"{(slab_a + slab_b * n) / 1024:.0f}"
            assert r[4] == f"{(rss_a + rss_b * n) / 1024:.0f}"
    fits = {(r[0], r[1]): r for r in sweep_report["tables"]["memory_fits"]}
    a, b = _line(_points("patched", "guest_slab_kib"))
    assert fits[("guest slab", "patched")][2] == f"{b:.2f}"


def test_boot_points_are_measured_values(sweep_report):
    rows = sweep_report["tables"]["boot_points"]
    keys = {label: key for key, label in BOOT_SERIES}
    docs = {}
    for t in TOPOS:
        for v in ("stock", "patched"):
            doc = load_json(FIXTURES / "scale" / t / v / "results.json")
            docs[(v, str(doc["disks"]["found"]["total"]))] = doc
    assert {(r[1], r[2]) for r in rows} == set(docs)
    for r in rows:
        doc = docs[(r[1], r[2])]
        key = keys[r[0]]
        if key == "census_complete_s":
            assert any(s["name"] == "census" and s["verdict"] == "ok"
                       for s in doc["steps"])
        assert r[3] == f"{doc['boot'][key]:.2f}"
    for r in rows:
        if r[4] != "-":
            assert abs(float(r[3]) - float(r[4]) - float(r[5])) < 0.011


def test_one_model_chosen_per_figure(sweep_report):
    rows = sweep_report["tables"]["boot_fits"]
    for _, label in BOOT_SERIES:
        for v in ("stock", "patched"):
            mine = [r for r in rows if r[0] == label and r[1] == v]
            chosen = [r for r in mine if r[8] == "chosen"]
            assert len(chosen) == 1, (label, v)
            others = [r for r in mine if r[8] != "chosen" and r[5] != "-"]
            assert all(float(o[5]) >= float(chosen[0][5]) for o in others)
