"""Thresholds in the nightly sweep file: an unknown metric is refused
with one line, and an override changes the verdict."""


def test_unknown_threshold_metric(bench_env):
    sweep = bench_env.write_sweep("th", ["small"],
                                  "[thresholds.no_such_metric]\n"
                                  "max_ratio = 2\n")
    out = bench_env.run("nightly", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.strip() == \
        f"{sweep}: thresholds.no_such_metric: unknown metric"
    assert bench_env.calls() == []


def test_threshold_must_be_positive(bench_env):
    sweep = bench_env.write_sweep("th", ["small"],
                                  "[thresholds.kernel_to_init_s]\n"
                                  "max_ratio = -1\n")
    out = bench_env.run("nightly", sweep=sweep)
    assert out.returncode == 2
    assert out.stderr.strip() == \
        f"{sweep}: thresholds.kernel_to_init_s.max_ratio: must be a " \
        "positive number"


def test_override_changes_verdict(bench_env):
    assert bench_env.run("bench", run_id="base").returncode == 0
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    # 1.4x slower boot on stock: within the default 1.5x ...
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="a",
                        FAKE_FACTOR="1.4", FAKE_VARIANT="stock")
    assert "kernel_to_init_s: 5.6 > " not in out.stdout
    # ... but not within a stricter 1.2x from the sweep file.
    sweep = bench_env.write_sweep("strict", ["small", "big"],
                                  "[thresholds.kernel_to_init_s]\n"
                                  "max_ratio = 1.2\n")
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="b",
                        sweep=sweep, FAKE_FACTOR="1.4", FAKE_VARIANT="stock")
    assert out.returncode == 1
    assert "REGRESSION  small stock: kernel_to_init_s: 5.6 > 4 x 1.2 (1.40x)" \
        "; 2 repeats: fails at >= 4.8; passes only at <= 4.8" in out.stdout


def test_gate_false_only_warns(bench_env):
    assert bench_env.run("bench", run_id="base").returncode == 0
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    sweep = bench_env.write_sweep("soft", ["small", "big"],
                                  "[thresholds.lvm_ok]\n"
                                  "min_ratio = 1.0\ngate = false\n")
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="c",
                        sweep=sweep, FAKE_DROP="lvm", FAKE_VARIANT="stock")
    # A missing figure still fails, whatever its gate ...
    assert out.returncode == 1
    assert "MISSING     small stock: lvm_ok: missing in repeat 1, 2 " \
        "(baseline 1)" in out.stdout
    sweep = bench_env.write_sweep("soft2", ["small", "big"],
                                  "[thresholds.kernel_to_init_s]\n"
                                  "max_ratio = 1.2\ngate = false\n")
    # ... but a figure beyond a non-gating ratio only warns.
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="d",
                        sweep=sweep, FAKE_FACTOR="1.4", FAKE_VARIANT="stock")
    assert "WARN        small stock: kernel_to_init_s: 5.6 > 4 x 1.2 (1.40x)" \
        in out.stdout
    # (stock 1.4x slower makes patched's ratios to it 0.71: those gate.)


def test_gating_limits_are_said_before_anything_runs(bench_env):
    sweep = bench_env.write_sweep(
        "said", ["small"],
        'gate_times = ["small"]\n'
        "[thresholds.kernel_to_init_s_vs_stock]\nmax_ratio = 1.25\n"
        "[thresholds.census_complete_s_vs_stock]\nmax_ratio = 1.25\n"
        "[thresholds.lookup_p50_ref_vs_stock]\nmax_ratio = 1.2\n"
        "[thresholds.register_p50_ns_vs_stock]\nmax_ratio = 1.5\n"
        "gate = false\n")
    out = bench_env.run("nightly", sweep=sweep)
    first = out.stdout.splitlines()[0]
    assert first == (
        "nightly: boot times and per-call costs gate on small, their "
        "ratios to stock's (paired by repeat) at most the baseline's times "
        "1.25 for boot times (kernel_to_init_s, census_complete_s); 1.2 "
        "for per-call costs (lookup_p50_ref)")
