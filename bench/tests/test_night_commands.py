"""What each part of a night runs (`blkscale night`, make nightly): the
gated part builds and runs its own sweep (today's patched kernel beside
its baseline's, bench/sweeps/nightly-gated.toml), the every-disk part
the nightly sweep with the command line's overrides."""

import argparse
import json
import sys

import pytest

from blkscale.paths import REPO
from blkscale_bench.commands import night
from blkscale_bench.night import parts

from test_night_parts import Nights


def _steps(name, *argv):
    parser = argparse.ArgumentParser()
    night.add_arguments(parser)
    options = night._options(parser.parse_args(list(argv)))
    return [(s.argv, s.verdict, s.env) for s in
            parts.steps(name, options, f"n-{name}", "/night")]


@pytest.fixture(autouse=True)
def no_stand_in(monkeypatch):
    monkeypatch.delenv(parts.HOOK, raising=False)


def test_gated_builds_and_runs_its_own_sweep():
    make = ["make", "--no-print-directory", "-C", str(REPO)]
    assert _steps("gated", "--variant", "stock canary") == [
        (make + ["kernel", "initramfs",
                 "VARIANTS=patched-baseline patched"], False, {}),
        ([str(REPO / "blkscale"), "nightly", "--sweep",
          "bench/sweeps/nightly-gated.toml", "--run-id", "n-gated"],
         True, {})]
    [(argv, verdict, env)] = _steps("every-disk", "--repeat", "5",
                                    "--variant", "stock canary",
                                    "--results-dir", "/r")
    assert argv[1:] == ["nightly", "--sweep", "bench/sweeps/nightly.toml",
                        "--variant", "stock canary", "--repeat", "5",
                        "--run-id", "n-every-disk", "--results-dir", "/r"]
    assert verdict and env == {}


def test_a_gated_sweep_of_ones_own_names_its_kernels(tmp_path):
    sweep = tmp_path / "gated.toml"
    sweep.write_text('topologies = ["stress-500-1cpu"]\n'
                     'variants = ["patched", "canary"]\n'
                     'reference = "patched"\n')
    [(build, _, _), (argv, _, _)] = _steps("gated", "--gated-sweep",
                                           str(sweep))
    assert build[-1] == "VARIANTS=patched canary"
    assert argv[3] == str(sweep)


def test_a_bad_gated_sweep_is_refused_naming_it(tmp_path):
    sweep = tmp_path / "gated.toml"
    sweep.write_text('topologies = ["stress-500-1cpu"]\nrepeat = 0\n')
    with pytest.raises(Exception) as e:
        _steps("gated", "--gated-sweep", str(sweep))
    assert "repeat" in str(e.value)


def test_the_other_parts_commands():
    make = ["make", "--no-print-directory", "-C", str(REPO)]
    bench = [str(REPO / "blkscale"), "bench", "--sweep"]
    assert _steps("bootcurve") == [
        (make + ["qemu"], False, {}),
        (bench + ["bench/sweeps/bootcurve-nightly.toml", "--qemu",
                  "patched", "--run-id", "n-bootcurve"], True, {})]
    assert _steps("bootcurve", "--curve-qemu", "distro") == [
        (bench + ["bench/sweeps/bootcurve-nightly.toml", "--qemu",
                  "distro", "--run-id", "n-bootcurve"], True, {})]
    assert _steps("sim") == [
        ([str(REPO / "blkscale"), "nightly", "--sweep",
          "bench/sweeps/sim-65536.toml", "--run-id", "n-sim"], True, {})]
    assert _steps("kernels") == [
        (make + ["kernel-all", "initramfs-all"], False, {}),
        (bench + ["bench/sweeps/kernels.toml", "--run-id", "n-kernels"],
         True, {})]
    assert _steps("multipath") == [
        (make + ["kernel", "initramfs", "VARIANTS=stock-dcfg patched-dcfg"],
         False, {}),
        (bench + ["bench/sweeps/multipath-4000.toml", "--run-id",
                  "n-multipath"], True, {})]
    [build, (argv, verdict, env)] = _steps("guest-tests")
    assert build == (make + ["guest-tests-kernels"], False, {})
    assert argv[:3] == [sys.executable, "-m", "pytest"]
    assert "--junitxml=/night/guest-tests.xml" in argv
    assert argv[-6:] == list(parts.GUEST_TESTS)
    assert all((REPO / f).is_file() for f in parts.GUEST_TESTS)
    assert not verdict and env == {"BLKSCALE_NIGHTLY": "1"}


def test_nightly_judges_only_the_ceilings_of_its_topologies(bench_env):
    sweep = bench_env.write_sweep(
        "ceiled", ["small", "big"],
        '[[ceilings]]\ntopology = "big"\nvariant = "patched"\n'
        'metric = "census_complete_s"\nmax = 1000\n')
    out = bench_env.run("bench", run_id="base", sweep=sweep)
    assert out.returncode == 0, out.stderr
    bases = bench_env.tmp / "baselines"
    out = bench_env.run_plain("baseline", str(bench_env.results / "base"),
                              "--baselines", str(bases))
    assert out.returncode == 0, out.stderr
    out = bench_env.run("nightly", "--baselines", str(bases), "--topology",
                        str(bench_env.topos / "small.toml"), run_id="n",
                        sweep=sweep)
    assert out.returncode == 0, out.stdout + out.stderr
    judged = json.loads((bench_env.results / "n" / "nightly.json")
                        .read_text())["checks"]
    assert {c["topology"] for c in judged} == {"small"}
    manifest = bench_env.manifest("n")
    assert manifest["sweep"]["ceilings"] == []
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="m",
                        sweep=sweep)
    assert out.returncode == 0, out.stdout + out.stderr
    assert [c["topology"] for c in bench_env.manifest("m")["sweep"]
            ["ceilings"]] == ["big"]
