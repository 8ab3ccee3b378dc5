"""What each part of a night runs (`blkscale night`, make nightly): the
gated part is the nightly sweep's gate_times topologies alone, judged by
`blkscale nightly --topology`, which then judges only the ceilings of
the topologies it runs."""

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


def test_gated_is_the_nightly_sweeps_gate_times_topologies():
    [(argv, verdict, env)] = _steps("gated")
    assert argv == [str(REPO / "blkscale"), "nightly", "--sweep",
                    "bench/sweeps/nightly.toml", "--topology", "stress-500",
                    "--run-id", "n-gated"]
    assert verdict and env == {}
    [(argv, _, _)] = _steps("every-disk", "--repeat", "5", "--variant",
                            "stock canary", "--results-dir", "/r")
    assert argv[1:] == ["nightly", "--sweep", "bench/sweeps/nightly.toml",
                        "--topology",
                        "stress-1000 oracle-4000-verify ibm-5000-verify",
                        "--variant", "stock canary", "--repeat", "5",
                        "--run-id", "n-every-disk", "--results-dir", "/r"]


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
    [(argv, verdict, env)] = _steps("guest-tests")
    assert argv[:3] == [sys.executable, "-m", "pytest"]
    assert "--junitxml=/night/guest-tests.xml" in argv
    assert argv[-6:] == list(parts.GUEST_TESTS)
    assert all((REPO / f).is_file() for f in parts.GUEST_TESTS)
    assert not verdict and env == {"BLKSCALE_NIGHTLY": "1"}


def test_a_part_with_no_topology_is_refused_before_anything_runs(tmp_path):
    nights = Nights(tmp_path)
    out = nights.run("--topology", "stress-500")
    assert out.returncode == 2
    assert out.stderr.strip() == "command line: --topology: the every-disk " \
        "part has nothing to run: no topology of the nightly sweep is left " \
        "out of its gate_times"
    assert nights.calls() == [] and not nights.results.exists()
    out = nights.run("--topology", "stress-500", "--parts", "gated",
                     "--night", "g")
    assert out.returncode == 4, out.stdout + out.stderr
    assert nights.calls() == [("gated", "g-gated")]


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
