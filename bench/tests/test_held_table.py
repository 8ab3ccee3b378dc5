"""register_blkdev at equal held majors (`bench --show RUN --held A/B`):
only buckets that cover the same held counts are compared, each run
with the run of the same topology and repeat."""

import pytest

from blkscale_bench import heldtable
from blkscale_bench.errors import BenchError


def _doc(points, capacity):
    return {"majors": {"block": {
        "dynamic_capacity": capacity,
        "register": [{"registered": r, "p50_ns": p} for r, p in points]}}}


def _docs():
    """stock: 16-wide buckets to 64, cost growing with the majors held;
    flat: a flat cost, buckets 0, 16, then one to 160; two topologies,
    three repeats, a little noise by repeat."""
    docs = {}
    for topo in ("t1", "t2"):
        for v in ("stock", "flat"):
            docs[(topo, v)] = {}
            for rep, noise in ((1, 1.0), (2, 1.02), (3, 0.99)):
                if v == "stock":
                    points = [(r, (400 + 4 * r) * noise)
                              for r in (0, 16, 32, 48)]
                    docs[(topo, v)][rep] = _doc(points, 64)
                else:
                    points = [(0, 800 * noise), (16, 600 * noise),
                              (32, 600 * noise)]
                    docs[(topo, v)][rep] = _doc(points, 160)
    return docs


def test_only_buckets_over_the_same_held_counts_are_compared():
    rows, pooled = heldtable.compare(_docs(), "flat", "stock")
    # flat's third bucket covers 32-159, stock's 32-47: not compared.
    assert [bucket for bucket, *_ in rows] == [(0, 16), (16, 32)]
    (_, a0, b0, r0), (_, a1, b1, r1) = rows
    assert (a0.median, b0.median) == (800, 400)
    assert r0.n == 6 and r0.median == pytest.approx(2.0)
    assert r1.median == pytest.approx(600 / 464)
    # Noise common to a pair cancels in its ratio.
    assert r0.min == pytest.approx(r0.max)
    assert pooled.median == pytest.approx((2.0 * 600 / 464) ** 0.5)


def test_a_kernel_against_itself_is_one_at_every_bucket():
    docs = _docs()
    for topo in ("t1", "t2"):
        docs[(topo, "again")] = docs[(topo, "stock")]
    rows, pooled = heldtable.compare(docs, "again", "stock")
    assert len(rows) == 4
    assert all(r.median == pytest.approx(1.0) for *_, r in rows)
    assert pooled.median == pytest.approx(1.0)


def test_the_table_names_its_pairs_and_buckets():
    lines = heldtable.lines(_docs(), ["stock", "flat"], "flat", "stock")
    assert lines[0].startswith("register_blkdev at equal held majors: "
                               "flat / stock (6 run pairs")
    assert any(line.split()[0] == "0-15" and "2.00x" in line
               for line in lines)
    assert lines[-1].startswith("  every common bucket")


def test_bad_pairs_are_refused():
    with pytest.raises(BenchError, match="as A/B"):
        heldtable.parse_pair("patched")
    with pytest.raises(BenchError, match="'canary' is not a variant"):
        heldtable.lines(_docs(), ["stock", "flat"], "canary", "stock")


def test_show_held_over_the_chosen_topologies(bench_env):
    sweep = bench_env.write_sweep("held", ["small", "big"], "repeat = 2\n")
    assert bench_env.run("bench", sweep=sweep).returncode == 0
    run = str(bench_env.results / "r1")
    out = bench_env.run_plain("bench", "--show", run, "--held",
                              "patched/stock")
    assert out.returncode == 0, out.stderr
    assert "patched / stock (4 run pairs" in out.stdout
    out = bench_env.run_plain("bench", "--show", run, "--held",
                              "patched/stock", "--topology", "small")
    assert "patched / stock (2 run pairs" in out.stdout
    out = bench_env.run_plain("bench", "--show", run, "--held",
                              "patched/stock", "--topology", "nope")
    assert out.returncode == 2
    assert "--topology: nope: not a topology of" in out.stderr
