"""The closing table shows each variant's figures and the patched/stock
ratio computed from the same sweep."""

import re


def _row(stdout, topo, label):
    block = stdout.split(f"\n{topo} ", 1)[1]
    for line in block.splitlines():
        if line.strip().startswith(label):
            return line.split()
    raise AssertionError(f"no row {label!r} for {topo}")


def test_table_ratios(bench_env):
    out = bench_env.run("bench")
    assert out.returncode == 0, out.stderr
    # One progress line per run.
    progress = [ln for ln in out.stdout.splitlines()
                if re.match(r"\[\d/4\] ", ln)]
    assert len(progress) == 4
    assert progress[0].startswith("[1/4] small stock: ok, disks 8/8")
    assert "patched/stock" in out.stdout
    row = _row(out.stdout, "small", "dynamic block majors")
    assert row[-3:] == ["235", "3,731", f"{3731 / 235:.2f}x"]
    row = _row(out.stdout, "big", "/proc/devices read, 0 added")
    assert row[-3:] == ["100,000", "30,000", "0.30x"]


def test_show_existing_sweep(bench_env):
    assert bench_env.run("bench").returncode == 0
    out = bench_env.run("bench", "--show", str(bench_env.results / "r1"),
                        run_id="unused")
    assert out.returncode == 0, out.stderr
    assert "sweep r1 (complete)" in out.stdout
    assert not (bench_env.results / "unused").exists()


def test_show_with_another_reference(bench_env):
    """--reference: the ratios to another variant of the same sweep (the
    fake patched kernel's /proc/devices read is 0.30x stock's)."""
    assert bench_env.run("bench").returncode == 0
    run_dir = str(bench_env.results / "r1")
    out = bench_env.run("bench", "--show", run_dir, "--reference",
                        "patched", run_id="unused")
    assert out.returncode == 0, out.stderr
    assert "stock/patched" in out.stdout and "patched/stock" not in out.stdout
    row = _row(out.stdout, "big", "/proc/devices read, 0 added")
    assert row[-3:] == ["100,000", "30,000", f"{100000 / 30000:.2f}x"]
    bad = bench_env.run("bench", "--show", run_dir, "--reference", "debug",
                        run_id="unused")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines()[-1] == (
        "command line: --reference: 'debug' is not a variant of "
        f"{run_dir} (it has stock, patched)")
    alone = bench_env.run("bench", "--reference", "patched", run_id="r2")
    assert alone.returncode == 2
    assert "--reference: only with --show" in alone.stderr
    assert not (bench_env.results / "r2").exists()
