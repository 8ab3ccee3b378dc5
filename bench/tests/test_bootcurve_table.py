"""A sweep with [[series]] and [[goals]] prints the boot curve: each
point's time and per-disk cost, the cost of an added disk along a curve,
the before/after ratio at each disk count, and a verdict per goal, all
computed from the runs' results; a failed goal fails the command."""

SWEEP = """\
description = "boot curve"
topologies = ["{t}/big-goal.toml"]
variants = ["stock", "patched"]
repeat = 3

[[series]]
name = "lin"
title = "a curve"
topologies = ["{t}/c-100.toml", "{t}/c-200.toml", "{t}/c-400.toml"]

[[series]]
name = "fix"
before = ["{t}/b-100.toml", "{t}/b-200.toml"]
after = ["{t}/a-100.toml", "{t}/a-200.toml"]
before_label = "slow"
after_label = "fast"

[[goals]]
name = "c-400 boot"
figure = "boot_to_census_s"
topology = "c-400"
max = 9

[[goals]]
name = "lin growth"
figure = "marginal_growth"
series = "lin"
max = 1.3

[[goals]]
name = "fix cost"
figure = "marginal_cost_ms"
series = "fix"
max = 10

[[goals]]
name = "goal start"
figure = "qemu_start_s"
topology = "big-goal"
max = 0.5

[[goals]]
name = "goal census"
figure = "boot_to_census_s"
topology = "big-goal"
max = 100
"""

TOPOLOGIES = {
    "c-100": (100, 2.0), "c-200": (200, 4.4), "c-400": (400, 10.0),
    "b-100": (100, 5.0), "b-200": (200, 20.0),
    "a-100": (100, 1.0), "a-200": (200, 2.2),
}


def _setup(bench_env):
    for name, (disks, wall) in TOPOLOGIES.items():
        (bench_env.topos / f"{name}.toml").write_text(
            f"# disks = {disks}\n# boot.wall_to_census_s = {wall}\n")
    # No wall time: the guest's census_complete_s (4.5 s) stands in.
    (bench_env.topos / "big-goal.toml").write_text(
        "# disks = 5000\n# boot.qemu_start_s = 0.4\n")
    sweep = bench_env.tmp / "curve.toml"
    sweep.write_text(SWEEP.format(t=bench_env.topos))
    return sweep


def _line(stdout, label):
    for line in stdout.splitlines():
        if line.strip().startswith(label):
            return line.split()[len(label.split()):]
    raise AssertionError(f"no line {label!r} in:\n{stdout}")


def test_bootcurve_table(bench_env):
    sweep = _setup(bench_env)
    # patched is twice as fast on every time figure.
    out = bench_env.run("bench", sweep=sweep, FAKE_FACTOR="0.5",
                        FAKE_VARIANT="patched")
    assert out.returncode == 1, out.stderr      # goals that fail gate
    m = bench_env.manifest()
    assert [s["name"] for s in m["sweep"]["series"]] == ["lin", "fix"]
    assert list(m["sweep"]["topologies"]) == [
        "big-goal", "c-100", "c-200", "c-400", "b-100", "b-200", "a-100",
        "a-200"]
    # seconds and ms/disk per variant (stock, patched)
    assert _line(out.stdout, "lin, 100") == ["2.00", "20.00", "1.00",
                                             "10.00"]
    assert _line(out.stdout, "lin, 400") == ["10.00", "25.00", "5.00",
                                             "12.50"]
    # 2.4 s over the first 100 added disks, 5.6 s over the next 200.
    assert _line(out.stdout, "lin: added-disk cost, last/first") == \
        ["1.17x", "1.17x"]
    assert _line(out.stdout, "before: slow, 200") == ["20.00", "100.00",
                                                      "10.00", "50.00"]
    assert _line(out.stdout, "after: fast, 200") == ["2.20", "11.00",
                                                     "1.10", "5.50"]
    assert _line(out.stdout, "before/after, 100") == ["5.00x", "5.00x"]
    assert _line(out.stdout, "before/after, 200") == [f"{20 / 2.2:.2f}x"] * 2
    verdicts = _verdicts(out.stdout)
    assert verdicts == {
        ("c-400 boot", "stock"): ("10.00 s", "FAIL"),
        ("c-400 boot", "patched"): ("5.00 s", "PASS"),
        ("lin growth", "stock"): ("1.17x", "PASS"),
        ("lin growth", "patched"): ("1.17x", "PASS"),
        ("fix cost", "stock"): ("12.00 ms", "FAIL"),
        ("fix cost", "patched"): ("6.00 ms", "PASS"),
        ("goal start", "stock"): ("0.40 s", "PASS"),
        ("goal start", "patched"): ("0.20 s", "PASS"),
        ("goal census", "stock"): ("4.50 s", "PASS"),
        ("goal census", "patched"): ("2.25 s", "PASS"),
    }
    assert "census_complete_s of big-goal" in out.stdout
    assert "ms per added disk 100->200, series fix after (fast)" \
        in out.stdout
    # --show prints the same table again from the run directory.
    again = bench_env.run("bench", "--show", str(bench_env.results / "r1"),
                          run_id="unused")
    assert again.returncode == 0, again.stderr     # a viewer, not a verdict
    assert again.stdout.split("\nboot curve")[1] == \
        out.stdout.split("\nboot curve")[1]


def _verdicts(stdout):
    """{(goal, variant): (value, verdict)} from the goals block."""
    out = {}
    for line in stdout.split("\ngoals")[1].splitlines()[1:]:
        if not line.strip():
            break
        for name in ("c-400 boot", "lin growth", "fix cost", "goal start",
                     "goal census"):
            if line.strip().startswith(name):
                rest = line.strip()[len(name):].split()
                value = rest[1] if rest[1] == "-" else " ".join(
                    rest[1:3]) if rest[2] in ("s", "ms") else rest[1]
                verdict = [w for w in rest if w in ("PASS", "FAIL",
                                                    "INCONCLUSIVE")][0]
                out[(name, rest[0])] = (value, verdict)
    return out


def test_missing_point_fails_its_goals(bench_env):
    sweep = _setup(bench_env)
    (bench_env.topos / "c-400.toml").write_text(
        "# disks = 400\n# boot.wall_to_census_s = 1\n# census = failed\n")
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 1, out.stderr
    assert "lin, 400" not in out.stdout
    # The goal needs every point.
    verdicts = _verdicts(out.stdout)
    assert verdicts[("c-400 boot", "stock")] == ("-", "FAIL")
    assert verdicts[("lin growth", "stock")] == ("-", "FAIL")
    assert "wall_to_census_s of c-400 (no result)" in out.stdout
    assert "2 of 3 points measured" in out.stdout


def test_sweep_without_series_prints_no_curve(bench_env):
    out = bench_env.run("bench")
    assert out.returncode == 0, out.stderr
    assert "boot curve" not in out.stdout
    assert bench_env.manifest()["sweep"]["series"] == []


def test_wide_cells_never_touch():
    """A median with its spread is wider than the default column: the
    column widens instead of running into its neighbour."""
    from blkscale_bench.bootcurve_table import _format
    lines = _format(["title", ("scsi, 500", ["152.09 [139.39-176.81]",
                                             "35.50", "148.13 [1-2]", "x"]),
                     ("scsi, 5,000", ["1.00", "2.00", "3.00", "4.00"])])
    assert lines[0] == "title"
    first = lines[1].split()
    assert first[:4] == ["scsi,", "500", "152.09", "[139.39-176.81]"]
    assert first[4] == "35.50" and first[5] == "148.13"
    # Columns stay aligned: the right edges of both rows' cells match.
    assert lines[1].index("35.50") + 5 == lines[2].index("2.00") + 4


def test_goals_from_one_repeat_are_inconclusive(bench_env):
    """One run has no spread: the goals say so, and bench exits 3, not
    0, when nothing failed."""
    sweep = _setup(bench_env)
    text = sweep.read_text().replace("repeat = 3\n", "")
    text = text.replace("max = 9\n", "max = 90\n").replace(
        "max = 10\n", "max = 100\n")
    sweep.write_text(text)
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 3, out.stdout + out.stderr
    verdicts = _verdicts(out.stdout)
    assert {v for _, v in verdicts.values()} == {"INCONCLUSIVE"}
    assert "one repeat: no spread, cannot decide" in out.stdout
