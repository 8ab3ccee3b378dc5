"""--profile on a real boot: the guest's vCPUs sampled over QMP resolve to
kernel functions, and bad uses are refused before anything starts."""

import json

import pytest

from blkscale import paths
from launchertest import all_files, need_built, run_cli


def test_profile_smoke(tmp_path):
    variant = "stock"
    need_built(variant, "System.map")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = run_cli("run", "topologies/smoke.toml", "--variant", variant,
                  "--accel", "tcg", "--run-id", "prof", "--results-dir",
                  tmp_path / "results", "--quiet", "--profile", "0.1",
                  env={"TMPDIR": str(tmp)}, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    assert all_files(tmp) == []
    vdir = tmp_path / "results" / "prof" / variant
    doc = json.loads((vdir / "profile.json").read_text())
    assert doc["samples"] > 0 and doc["sample_errors"] == 0
    assert doc["states"].get("kernel", 0) > 0
    # Whatever the guest was doing, it was in functions of System.map.
    symbols = {line.split()[2] for line in
               (paths.kernel_dir(variant) / "System.map").open()}
    assert doc["self"] and all(r["symbol"] in symbols for r in doc["self"])
    assert "self (RIP in):" in (vdir / "profile.txt").read_text()
    # results.json keeps the top of it, for reports and comparisons.
    kept = json.loads((vdir / "results.json").read_text())["profile"]
    assert kept["kernel_samples"] == doc["states"]["kernel"]
    assert kept["self"][0]["symbol"] == doc["self"][0]["symbol"]
    assert set(kept["shares"]) == {"clocksource", "console"}


@pytest.mark.parametrize("args, message", [
    (["--profile", "0"], "--profile: 0: use 0.05 to 60 seconds"),
    (["--profile", "0.2", "--backend", "libvirt"],
     "--profile: needs the QEMU backend (its QMP monitor)"),
])
def test_profile_refused(args, message, fake_env, tmp_path):
    out = run_cli("run", "topologies/smoke.toml", "--accel", "tcg",
                  "--results-dir", tmp_path / "results", *args, env=fake_env)
    assert out.returncode == 2
    assert out.stderr.strip().endswith(message), out.stderr
    assert not (tmp_path / "results").exists()


def test_profile_refused_on_a_map_that_names_nothing(tmp_path):
    """Debian's image ships a stub System.map: a profile of it would name
    nothing, so it is refused before anything starts."""
    need_built("debian", "System.map")
    out = run_cli("run", "topologies/smoke.toml", "--variant", "debian",
                  "--accel", "tcg", "--results-dir", tmp_path / "results",
                  "--profile", "0.2")
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.strip().endswith(
        "System.map: lists no kernel function (a distribution's stub: "
        "Debian ships the real map in linux-image-*-dbg); --profile needs "
        "it"), out.stderr
    assert not (tmp_path / "results").exists()
