"""The Boot curve section of the committed bootcurve sweep (a trimmed copy
of a real `bench/sweeps/bootcurve.toml` run): every point, every curve's
added-disk cost, every before/after ratio and every goal verdict on the
page equal what the fixture's results.json files say, worked out here
independently; a changed figure changes the verdict."""

import json
import shutil

import pytest

from conftest import FIXTURES, load_json, read_tables, run_report

FIXTURE = FIXTURES / "bootcurve"


def _manifest(run_dir=FIXTURE):
    return load_json(run_dir / "manifest.json")


def _doc(run_dir, topo, variant):
    path = run_dir / topo / variant / "results.json"
    return load_json(path) if path.is_file() else None


def _boot(doc):
    """(seconds, figure) as the page should show it, or None."""
    steps = {s["name"]: s["verdict"] for s in (doc or {}).get("steps", [])}
    if steps.get("census") != "ok":
        return None
    for key in ("wall_to_census_s", "census_complete_s"):
        if doc["boot"].get(key) is not None:
            return doc["boot"][key], key
    return None


def _expected_points(run_dir):
    """{(series, curve label, variant, topology): (disks, s, figure)}"""
    m = _manifest(run_dir)
    out = {}
    for s in m["sweep"]["series"]:
        for c in s["curves"]:
            label = c["label"] if c["role"] == "curve" else \
                f"{c['role']}: {c['label']}"
            for v in m["sweep"]["variants"]:
                for topo in c["topologies"]:
                    doc = _doc(run_dir, topo, v)
                    boot = _boot(doc)
                    if boot:
                        out[(s["name"], label, v, topo)] = (
                            doc["disks"]["found"]["total"], *boot)
    return out


def _report(run_dir):
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    return out, html, read_tables(html)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("bc") / "bootcurve"
    shutil.copytree(FIXTURE, run_dir)
    out, html, tables = _report(run_dir)
    return {"run_dir": run_dir, "html": html, "tables": tables,
            "stdout": out.stdout,
            "md": (run_dir / "report" / "report.md").read_text()}


def test_every_point(page):
    want = _expected_points(FIXTURE)
    assert len(want) >= 20, "the fixture should hold the whole curve"
    got = {}
    for r in page["tables"]["bootcurve_points"]:
        got[(r[0], r[1], r[2], r[4])] = r
    assert set(got) == set(want)
    for key, (disks, seconds, figure) in want.items():
        r = got[key]
        assert r[3] == str(disks)
        assert r[5] == f"{seconds:.2f}"
        assert r[6] == figure
        assert r[7] == f"{1000 * seconds / disks:.2f}"


def test_growth_along_each_curve(page):
    want = _expected_points(FIXTURE)
    rows = page["tables"]["bootcurve_growth"]
    m = _manifest()
    assert len(rows) == sum(len(s["curves"]) for s in m["sweep"]["series"]) \
        * len(m["sweep"]["variants"])
    for r in rows:
        pts = sorted(v[:2] for k, v in want.items() if k[:3] == tuple(r[:3]))
        assert r[3].startswith(f"{len(pts)} of ")
        (n0, s0), (n1, s1) = pts[0], pts[-1]
        assert (r[4], r[5]) == (str(n0), str(n1))
        if len(pts) >= 3:
            first = (pts[1][1] - s0) / (pts[1][0] - n0)
            last = (s1 - pts[-2][1]) / (n1 - pts[-2][0])
            assert r[8] == f"{last / first:.2f}x"


def test_before_after_ratios(page):
    want = _expected_points(FIXTURE)
    rows = page["tables"]["bootcurve_ratios"]
    expected = []
    m = _manifest()
    for s in m["sweep"]["series"]:
        roles = {c["role"]: c for c in s["curves"]}
        if "before" not in roles:
            continue
        for v in m["sweep"]["variants"]:
            def by_disks(role):
                c = roles[role]
                label = f"{role}: {c['label']}"
                return {want[(s["name"], label, v, t)][0]:
                        want[(s["name"], label, v, t)][1]
                        for t in c["topologies"]
                        if (s["name"], label, v, t) in want}
            before, after = by_disks("before"), by_disks("after")
            for n in sorted(set(before) & set(after)):
                expected.append([s["name"], v, str(n),
                                 roles["before"]["label"],
                                 f"{before[n]:.2f}",
                                 roles["after"]["label"], f"{after[n]:.2f}",
                                 f"{before[n] / after[n]:.2f}x"])
    # The last column, the spread of the repeats: one repeat, none.
    assert expected and sorted(r[:8] for r in rows) == sorted(expected)
    assert {r[8] for r in rows} == {"-"}


def _expected_verdicts(run_dir):
    m = _manifest(run_dir)
    want = _expected_points(run_dir)
    out = {}
    for g in m["sweep"]["goals"]:
        for v in m["sweep"]["variants"]:
            if "topology" in g:
                doc = _doc(run_dir, g["topology"], v)
                if g["figure"] == "qemu_start_s":
                    value = (doc or {}).get("boot", {}).get("qemu_start_s")
                else:
                    boot = _boot(doc)
                    value = boot[0] if boot else None
            else:
                s = next(s for s in m["sweep"]["series"]
                         if s["name"] == g["series"])
                c = next(c for c in s["curves"]
                         if c["role"] in ("curve", "after"))
                label = c["label"] if c["role"] == "curve" else \
                    f"after: {c['label']}"
                pts = sorted(want[(s["name"], label, v, t)][:2]
                             for t in c["topologies"]
                             if (s["name"], label, v, t) in want)
                value = None
                if len(pts) == len(c["topologies"]):
                    first = (pts[1][1] - pts[0][1]) / (pts[1][0] - pts[0][0])
                    last = (pts[-1][1] - pts[-2][1]) / \
                        (pts[-1][0] - pts[-2][0])
                    value = last / first
            # One run per point has no spread: a goal it brings a figure
            # for cannot be decided; one without a figure fails.
            out[(g["name"], v)] = (value, "FAIL" if value is None
                                   else "INCONCLUSIVE")
    return out


def _verdict_rows(tables):
    return {(r[0], r[1]): r for r in tables["bootcurve_goals"]}


def test_goal_verdicts(page):
    want = _expected_verdicts(FIXTURE)
    got = _verdict_rows(page["tables"])
    assert set(got) == set(want)
    assert len(want) == 10          # five goals, two variants
    for key, (value, verdict) in want.items():
        r = got[key]
        assert r[5] == verdict, (key, r)
        if value is None:
            assert r[3] == "-"
        else:
            unit = "x" if "added disk" in r[2] else " s"
            assert r[3] == f"{value:.2f}{unit}", (key, r)


def test_one_plot_per_series(page):
    report = page["run_dir"] / "report"
    for s in _manifest()["sweep"]["series"]:
        name = f"bootcurve-{s['name']}.png"
        assert (report / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'<img src="{name}"' in page["html"]
        assert f"]({name})" in page["md"]
    assert "No plot" not in page["html"].split('id="bootcurve"')[1].split(
        "</section>")[0]


def _set_boot(run_dir, topo, variant, **values):
    path = run_dir / topo / variant / "results.json"
    doc = json.loads(path.read_text())
    for key, value in values.items():
        if value is None:
            doc["boot"].pop(key, None)
        else:
            doc["boot"][key] = value
    path.write_text(json.dumps(doc))


def test_changed_figures_change_the_verdicts(fixture_copy):
    run_dir = fixture_copy("bootcurve")
    # oracle-4000 one second over its limit on one variant; the scsi
    # curve's largest point four times slower on the other; ibm-5000's
    # QEMU start over 5 s.
    _set_boot(run_dir, "oracle-4000", "patched", wall_to_census_s=150.01)
    _set_boot(run_dir, "bootcurve-scsi-5000", "stock",
              wall_to_census_s=4 * _boot(_doc(
                  run_dir, "bootcurve-scsi-5000", "stock"))[0])
    _set_boot(run_dir, "ibm-5000", "stock", qemu_start_s=5.5)
    _, _, tables = _report(run_dir)
    got = _verdict_rows(tables)
    # One run per point: over the limit, but not a FAIL without spread.
    assert got[("oracle-4000 boot to census <= 150 s", "patched")][3:6] == \
        ["150.01 s", "150 s", "INCONCLUSIVE"]
    assert got[("QEMU start at 5000 disks <= 5 s (ibm-5000)", "stock")][
        3:6] == ["5.50 s", "5 s", "INCONCLUSIVE"]
    assert {k: v[1] for k, v in _expected_verdicts(run_dir).items()} == \
        {k: r[5] for k, r in got.items()}


def test_missing_run_and_fallback(fixture_copy):
    """A run that brought nothing drops its point and fails the goals that
    need it; a run without the wall time uses the guest's census time."""
    run_dir = fixture_copy("bootcurve")
    m = json.loads((run_dir / "manifest.json").read_text())
    for r in m["runs"]:
        if (r["topology"], r["variant"]) == ("bootcurve-scsi-500",
                                             "patched"):
            r["results"] = None
            r["outcome"] = "hang"
    (run_dir / "manifest.json").write_text(json.dumps(m))
    _set_boot(run_dir, "oracle-4000", "stock", wall_to_census_s=None)
    _, _, tables = _report(run_dir)
    points = tables["bootcurve_points"]
    assert not [r for r in points if r[4] == "bootcurve-scsi-500"
                and r[2] == "patched"]
    oracle = [r for r in points if r[4] == "oracle-4000" and
              r[2] == "stock"]
    census = _doc(run_dir, "oracle-4000", "stock")["boot"][
        "census_complete_s"]
    assert [(r[5], r[6]) for r in oracle] == [(f"{census:.2f}",
                                               "census_complete_s")]
    growth = {(r[0], r[2]): r for r in tables["bootcurve_growth"]
              if r[0] == "scsi"}
    assert growth[("scsi", "patched")][3] == "4 of 5"
    got = _verdict_rows(tables)
    row = got[("added-disk cost, last/first segment <= 1.5x", "patched")]
    assert row[3:] == ["-", "1.5x", "FAIL", "-"]
    assert "4 of 5 points measured" in row[2]
    row = got[("oracle-4000 boot to census <= 150 s", "stock")]
    assert row[2] == "census_complete_s of oracle-4000 (one repeat: no " \
        "spread, cannot decide)"


def test_sweep_without_series_has_no_curve(sweep_report):
    section = sweep_report["html"].split('id="bootcurve"')[1].split(
        "</section>")[0]
    assert "This run names no boot curve" in section
    assert "<table" not in section and "<img" not in section
