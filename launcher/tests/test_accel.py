"""--accel auto: KVM only after a probe boot reaches init; cached verdict."""

import json
import os

import pytest

from launchertest import fake_runs, run_cli

pytestmark = pytest.mark.skipif(
    not os.access("/dev/kvm", os.R_OK | os.W_OK),
    reason="no usable /dev/kvm: auto chooses TCG without probing")

TOPO = '[guest]\nvariants = ["stock"]\n[[virtio_blk]]\nid = "b"\ncount = 1\n'


def run_auto(tmp_path, env, scenario, run_id):
    topo = tmp_path / "t.toml"
    topo.write_text(TOPO)
    env = dict(env, FAKE_QEMU_SCENARIO=scenario, BLKSCALE_KVM_PROBE_S="2")
    out = run_cli("run", topo, "--accel", "auto", "--run-id", run_id,
                  "--results-dir", tmp_path / "results", "--quiet", env=env)
    summary = json.loads(
        (tmp_path / "results" / run_id / "summary.json").read_text())
    return out, summary["accelerator"]


def test_hanging_kvm_falls_back_to_tcg_and_is_cached(tmp_path, fake_env):
    out, accel = run_auto(tmp_path, fake_env, "kvm-hang", "a")
    assert out.returncode == 0, out.stderr
    assert accel == {"name": "tcg", "reason": "KVM probe boot did not reach "
                     "init in 2 s"}
    assert [a for _, a in fake_runs(fake_env)] == ["kvm", "tcg"]
    cache = list((tmp_path / "build" / "accel").glob("*.json"))
    assert len(cache) == 1 and json.loads(cache[0].read_text())["accel"] == \
        "tcg"
    # The second run believes the cache and does not probe again.
    out, accel = run_auto(tmp_path, fake_env, "kvm-hang", "b")
    assert out.returncode == 0
    assert accel["name"] == "tcg" and accel["reason"].startswith(
        "cached probe")
    assert [a for _, a in fake_runs(fake_env)] == ["kvm", "tcg", "tcg"]


def test_working_kvm_is_used(tmp_path, fake_env):
    out, accel = run_auto(tmp_path, fake_env, "kvm-ok", "a")
    assert out.returncode == 0, out.stderr
    assert accel == {"name": "kvm", "reason": "KVM probe boot reached init"}
    assert [a for _, a in fake_runs(fake_env)] == ["kvm", "kvm"]


def test_explicit_tcg_never_probes(tmp_path, fake_env):
    topo = tmp_path / "t.toml"
    topo.write_text(TOPO)
    out = run_cli("run", topo, "--accel", "tcg", "--results-dir",
                  tmp_path / "results", "--quiet", env=fake_env)
    assert out.returncode == 0, out.stderr
    assert [a for _, a in fake_runs(fake_env)] == ["tcg"]
