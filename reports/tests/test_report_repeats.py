"""A sweep with repeats: the boot curve's points carry the spread of
their repeats, a goal the spread straddles is INCONCLUSIVE, the capacity
model fits every repeat with the host's wall clock too and gives its
points, degrees of freedom and prediction intervals, and a run on a
loaded host is named."""

import json

from conftest import read_tables, run_report

FACTORS = {2: 1.1, 3: 0.9}


def _with_repeats(run_dir, scale_key="wall_to_census_s"):
    """Repeats 2 and 3 of every run: copies with the wall time scaled."""
    m = json.loads((run_dir / "manifest.json").read_text())
    runs = []
    for r in m["runs"]:
        r["repeat"] = 1
        runs.append(r)
        if not r.get("results"):
            continue
        for k, factor in FACTORS.items():
            doc = json.loads((run_dir / r["results"]).read_text())
            if doc["boot"].get(scale_key) is not None:
                doc["boot"][scale_key] *= factor
            rel = f"{r['topology']}/{r['variant']}/{k}/results.json"
            (run_dir / rel).parent.mkdir(parents=True)
            (run_dir / rel).write_text(json.dumps(doc))
            runs.append(dict(r, repeat=k, results=rel))
    m["runs"] = runs
    m["sweep"]["repeat"] = 3
    return m


def _report(run_dir, m):
    (run_dir / "manifest.json").write_text(json.dumps(m))
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    html = (run_dir / "report" / "index.html").read_text()
    return html, read_tables(html)


def test_bootcurve_spread_and_inconclusive_goal(fixture_copy):
    run_dir = fixture_copy("bootcurve")
    m = _with_repeats(run_dir)
    oracle = json.loads((run_dir / "oracle-4000/stock/results.json")
                        .read_text())["boot"]["wall_to_census_s"]
    # A limit between oracle-4000's fastest and slowest repeat.
    for g in m["sweep"]["goals"]:
        if g.get("topology") == "oracle-4000":
            g["max"] = round(oracle, 2)
    html, tables = _report(run_dir, m)
    rows = [r for r in tables["bootcurve_points"]
            if r[4] == "oracle-4000" and r[2] == "stock"]
    assert len(rows) == 1 and rows[0][8] == "3"
    assert rows[0][5] == f"{oracle:.2f}"                   # the median
    assert rows[0][9] == f"[{0.9 * oracle:.2f}-{1.1 * oracle:.2f} 75%]"
    goals = {(r[0], r[1]): r for r in tables["bootcurve_goals"]}
    row = next(r for k, r in goals.items() if "oracle-4000" in k[0]
               and k[1] == "stock")
    assert row[5] == "INCONCLUSIVE"
    assert row[6] == f"[{0.9 * oracle:.2f}-{1.1 * oracle:.2f} 75%]"
    assert "more repeats are needed" in html


def test_capacity_model_on_repeats_and_wall_clock(fixture_copy):
    run_dir = fixture_copy("scale")
    m = _with_repeats(run_dir)
    m["runs"][0]["host_load"] = {"loaded": True, "others_cpu_share": 0.6,
                                 "steal_share": 0.0}
    html, tables = _report(run_dir, m)
    err = [r for r in tables["capacity_error"]
           if r[1] == "QEMU start to census record (host wall clock)"]
    assert {r[0] for r in err} == {"stock", "patched"}
    for r in err:
        points, dof = int(r[7]), int(r[8])
        assert points == 12                  # 4 disk counts x 3 repeats
        assert dof == points - {"linear": 2, "quadratic": 3,
                                "power": 2}[r[2]]
        low, high = r[9].rstrip(" s").split(" to ")
        assert float(low) < float(high)
    plan = {(r[0], r[1]): r for r in tables["capacity_plan"]}
    row = plan[("10000", "stock")]
    assert row[8] != "-"
    low, high = (float(x) for x in row[9].split(" to "))
    assert low < float(row[8]) < high
    assert "Runs made on a loaded host" in html
    assert "other work used 60% of the host&#x27;s CPU" in html or \
        "other work used 60% of the host's CPU" in html
