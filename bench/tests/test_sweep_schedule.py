"""`schedule` in a sweep file: alternate runs one guest at a time;
together starts a repeat's variants at once; together-pinned also gives
each its own CPU.  The manifest says which ran beside which, and on
which CPU."""

import os

from blkscale_bench.running import together


def _spans(calls):
    """[(event, run id, cpus)] of the fake launcher's start/end lines."""
    out = []
    for c in calls:
        words = c.split()
        if words[0] in ("start", "end"):
            out.append((words[0], words[1],
                        words[3] if words[0] == "start" else None))
    return out


def test_together_overlaps_a_repeats_variants(bench_env):
    sweep = bench_env.write_sweep("t", ["small"],
                                  'repeat = 2\nschedule = "together"\n')
    out = bench_env.run("bench", sweep=sweep, FAKE_RUN_S="0.5")
    assert out.returncode == 0, out.stderr
    events = [e[0] for e in _spans(bench_env.calls())]
    # Both of a repeat start before either ends; the next repeat after.
    assert events == ["start", "start", "end", "end"] * 2
    m = bench_env.manifest()
    assert m["sweep"]["schedule"] == "together"
    runs = m["runs"]
    assert [(r["variant"], r["repeat"]) for r in runs] == [
        ("stock", 1), ("patched", 1), ("patched", 2), ("stock", 2)]
    assert runs[0]["together_with"] == ["patched"]
    assert runs[0]["started"] == runs[1]["started"]
    assert all("cpu" not in r for r in runs)
    assert runs[0]["host_load"] == runs[1]["host_load"]


def test_alternate_runs_one_at_a_time(bench_env):
    sweep = bench_env.write_sweep("a", ["small"], 'repeat = 2\n')
    out = bench_env.run("bench", sweep=sweep, FAKE_RUN_S="0.2")
    assert out.returncode == 0, out.stderr
    assert [e[0] for e in _spans(bench_env.calls())] == ["start", "end"] * 4
    m = bench_env.manifest()
    assert m["sweep"]["schedule"] == "alternate"
    assert all("together_with" not in r for r in m["runs"])


def test_together_pinned_gives_each_its_own_cpu(bench_env):
    sweep = bench_env.write_sweep("p", ["small"],
                                  'schedule = "together-pinned"\n')
    out = bench_env.run("bench", sweep=sweep, FAKE_RUN_S="0.3")
    assert out.returncode == 0, out.stderr
    have = sorted(os.sched_getaffinity(0))
    want = [str(have[i % len(have)]) for i in range(2)]
    starts = [e[2] for e in _spans(bench_env.calls()) if e[0] == "start"]
    runs = bench_env.manifest()["runs"]
    assert [r["cpu"] for r in runs] == [int(c) for c in want]
    # The launcher really ran on that CPU alone.
    assert sorted(starts) == sorted(want)
    assert runs[0]["command"][:3] == ["taskset", "--cpu-list", want[0]]


def test_bad_schedule_is_refused_before_anything_runs(bench_env):
    sweep = bench_env.write_sweep("b", ["small"], 'schedule = "paired"\n')
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.strip() == f"{sweep}: schedule: must be one of " \
        "alternate, together, together-pinned; got 'paired'"
    assert bench_env.calls() == []


def test_groups_cut_the_plan_by_repeat():
    class T:
        def __init__(self, name):
            self.name = name

    class P:
        def __init__(self, t, v, r):
            self.topology, self.variant, self.repeat = T(t), v, r

    plan = [P("a", "stock", 1), P("a", "patched", 1),
            P("a", "patched", 2), P("a", "stock", 2), P("b", "stock", 1)]
    assert [len(g) for g in together.groups(plan, "together")] == [2, 2, 1]
    assert [len(g) for g in together.groups(plan, "alternate")] == \
        [1] * 5


def test_a_crash_beside_its_pair_fails_the_sweep(bench_env):
    """One guest of a pair that runs together panics: its run fails and
    so does the sweep, whatever its partner did."""
    sweep = bench_env.write_sweep("crash", ["small"],
                                  'repeat = 2\nschedule = "together"\n')
    out = bench_env.run("bench", sweep=sweep, FAKE_MODE="panic",
                        FAKE_VARIANT="patched", FAKE_ONLY_REPEAT="2")
    assert out.returncode == 1, out.stdout + out.stderr
    runs = {(r["variant"], r["repeat"]): r
            for r in bench_env.manifest()["runs"]}
    assert runs["patched", 2]["outcome"] != "ok"
    assert runs["stock", 2]["outcome"] == "ok"
    assert runs["patched", 1]["outcome"] == "ok"
