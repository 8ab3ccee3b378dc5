"""Bad input is refused with one line naming the file and field, before
anything runs or any directory is made."""


def test_unknown_topology(bench_env):
    sweep = bench_env.tmp / "bad.toml"
    sweep.write_text('topologies = ["no-such-topology"]\n')
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{sweep}: topologies[0]: topology "
                               "'no-such-topology' not found")
    assert not bench_env.results.exists()
    assert bench_env.calls() == []


def test_deeply_nested_sweep_file(bench_env):
    sweep = bench_env.tmp / "nested.toml"
    sweep.write_text("topologies = " + "[" * 5000 + "]" * 5000 + "\n")
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr == (f"{sweep}: not valid TOML: arrays or inline "
                          "tables nested too deeply\n")
    assert not bench_env.results.exists()


def test_unknown_key_and_bad_variant(bench_env):
    sweep = bench_env.write_sweep("typo", ["small"], 'acel = "tcg"\n')
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.strip().startswith(f"{sweep}: acel: unknown key")
    out = bench_env.run("bench", "--variant", "Stock!")
    assert out.returncode == 2
    assert out.stderr.strip() == \
        "command line: --variant: 'Stock!' is not a variant name"


def test_invalid_topology_refused_by_launcher(bench_env):
    (bench_env.topos / "invalid.toml").write_text("# disks = 1\n")
    sweep = bench_env.write_sweep("inv", ["small", "invalid"])
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("guest.vcpus: must be 1..255, got 0")
    assert not bench_env.results.exists()
    assert not any(c.startswith("run ") for c in bench_env.calls())


def test_existing_run_id(bench_env):
    (bench_env.results / "r1").mkdir(parents=True)
    out = bench_env.run("bench")
    assert out.returncode == 2
    assert "exists; choose another --run-id" in out.stderr


def test_launcher_refusal_stops_sweep(bench_env):
    out = bench_env.run("bench", FAKE_MODE="usage")
    assert out.returncode == 2
    m = bench_env.manifest()
    assert m["status"] == "partial"
    assert len(m["runs"]) == 1
    assert m["runs"][0]["outcome"] == "launcher-error"
    assert "missing (make kernel)" in m["partial_reason"]


def test_failed_run_is_recorded(bench_env):
    out = bench_env.run("bench", FAKE_MODE="fail")
    assert out.returncode == 1
    m = bench_env.manifest()
    assert m["status"] == "complete"
    assert {r["outcome"] for r in m["runs"]} == {"step-failed"}
    assert "small stock: step-failed: failed steps: census" in out.stdout
