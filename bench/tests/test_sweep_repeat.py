"""--repeat N runs every topology and variant N times, the variants of a
topology interleaved with their order alternating between repeats; the
manifest records each repeat's run and the host's load, and the table
shows the median with its spread."""

from blkscale_bench.running import order


def test_order_alternates_between_repeats():
    planned = order.plan(["t1", "t2"], ["stock", "patched"], 3)
    assert [(p.topology, p.variant, p.repeat) for p in planned] == [
        ("t1", "stock", 1), ("t1", "patched", 1),
        ("t1", "patched", 2), ("t1", "stock", 2),
        ("t1", "stock", 3), ("t1", "patched", 3),
        ("t2", "stock", 1), ("t2", "patched", 1),
        ("t2", "patched", 2), ("t2", "stock", 2),
        ("t2", "stock", 3), ("t2", "patched", 3)]


def test_repeat_runs_interleaved_and_recorded(bench_env):
    out = bench_env.run("bench", "--repeat", "3",
                        FAKE_REPEAT_FACTORS="1,1.2,0.9",
                        FAKE_VARIANT="stock")
    assert out.returncode == 0, out.stderr
    m = bench_env.manifest()
    assert m["sweep"]["repeat"] == 3
    assert [(r["topology"], r["variant"], r["repeat"])
            for r in m["runs"]][:6] == [
        ("small", "stock", 1), ("small", "patched", 1),
        ("small", "patched", 2), ("small", "stock", 2),
        ("small", "stock", 3), ("small", "patched", 3)]
    assert len(m["runs"]) == 12
    run = m["runs"][3]
    assert run["results"] == "small/stock/2/results.json"
    assert (bench_env.results / "r1" / "small" / "stock" / "2" /
            "results.json").is_file()
    load = run["host_load"]
    assert set(load) >= {"loadavg_before", "loadavg_after", "run_cpu_s",
                         "steal_share", "others_cpu_share", "loaded"}
    assert len(load["loadavg_before"]) == 3 and load["run_cpu_s"] >= 0
    # The figures in the manifest: median, min, max of stock's boot
    # (4.0 s x 1, 1.2, 0.9) and the paired ratio patched/stock.
    fig = m["figures"]["small"]["stock"]["kernel_to_init_s"]
    assert (fig["median"], fig["min"], fig["max"], fig["n"]) == \
        (4.0, 3.6, 4.8, 3)
    assert fig["interval"] is None
    ratio = m["figures"]["small"]["patched"]["kernel_to_init_s_vs_stock"]
    assert ratio["median"] == 1.0 and ratio["max"] == round(1 / 0.9, 6)
    # The table: median [min-max coverage], ratio per repeat; a ratio
    # whose interval holds 1 cannot tell which kernel is faster.
    row = [ln for ln in out.stdout.splitlines()
           if ln.strip().startswith("boot: kernel start to init")][0]
    assert "4.00 [3.60-4.80 75%]" in row
    assert "cannot tell (0.83-1.11x, 75%)" in row
    assert "[1/12] small stock #1: ok" in out.stdout


def test_sweep_file_repeat_and_bad_value(bench_env):
    sweep = bench_env.write_sweep("rep", ["small"], "repeat = 2\n")
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 0, out.stderr
    assert len(bench_env.manifest()["runs"]) == 4
    sweep = bench_env.write_sweep("bad", ["small"], "repeat = 0\n")
    out = bench_env.run("bench", sweep=sweep, run_id="r2")
    assert out.returncode == 2
    assert out.stderr.strip() == f"{sweep}: repeat: must be an integer " \
        "1..100, got 0"
    out = bench_env.run("bench", "--repeat", "101", run_id="r3")
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --repeat: must be an " \
        "integer 1..100, got 101"
