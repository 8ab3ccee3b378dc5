"""A variant judged by the baseline of the reference it ran beside (the
A/A pair, the canary: bench/sweeps/nightly-aa.toml): every ratio to the
reference is expected at 1.0, ratios to the baseline's own reference are
left out, and the ceilings on what the series may cost against stock do
not apply.  The pair must pass with noise within the limit and fail a
known cost."""

import pytest

from blkscale.figures import compare
from blkscale.paths import REPO

from test_nightly_canary_aa import SWEEPS, _failed, _judge, _renamed

# The first A/A night beside the patched kernel on one vCPU, 5 repeats
# of each (its paired boot ratios 0.89 to 1.08).
NIGHT = REPO / "evidence" / "20261205-nights-in-sitting" / "one-vcpu" / \
    "20261205-221205-aa"

BASE_DOC = {"variant": "patched", "reference": "stock"}
BASE = {"kernel_to_init_s": 4.0, "kernel_to_init_s_vs_stock": 0.99,
        "guest_slab_kib_per_disk": 48.0}
CURRENT = {"kernel_to_init_s": 4.1, "kernel_to_init_s_vs_patched": 1.02,
           "guest_slab_kib_per_disk": 48.2}


def test_beside_its_baselines_kernel_every_ratio_is_expected_at_one():
    got = compare.beside(BASE, BASE_DOC, "patched-again", "patched", CURRENT)
    assert got == {"kernel_to_init_s": 4.0, "guest_slab_kib_per_disk": 48.0,
                   "kernel_to_init_s_vs_patched": 1.0}


def test_the_reference_itself_keeps_only_what_it_can_have():
    got = compare.beside(BASE, BASE_DOC, "patched", "patched", {})
    assert "kernel_to_init_s_vs_stock" not in got and \
        "kernel_to_init_s_vs_patched" not in got


def test_with_the_baselines_reference_nothing_changes():
    assert compare.beside(BASE, BASE_DOC, "patched", "stock", CURRENT) is BASE


SWEEP = '''description = "in-sitting pair"
topologies = ["{topo}"]
variants = ["patched", "{variant}"]
reference = "patched"
repeat = 5
max_repeat = 5
gate_times = ["small"]
baselines = {{{variant} = "patched"}}
[thresholds.kernel_to_init_s_vs_patched]
max_ratio = 1.15
[thresholds.census_complete_s_vs_patched]
max_ratio = 1.15
'''


@pytest.fixture
def bases(bench_env):
    assert bench_env.run("bench", run_id="base").returncode == 0
    path = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(path)).returncode == 0
    return path


def _night(bench_env, bases, variant, run_id, **env):
    sweep = bench_env.tmp / f"{run_id}.toml"
    sweep.write_text(SWEEP.format(topo=bench_env.topos / "small.toml",
                                  variant=variant))
    return bench_env.run("nightly", "--baselines", str(bases),
                         run_id=run_id, sweep=sweep, FAKE_VARIANT=variant,
                         **env)


def test_an_a_a_pair_with_noise_passes(bench_env, bases):
    out = _night(bench_env, bases, "patched-again", "aa",
                 FAKE_REPEAT_FACTORS="1.03,0.97,1.02,0.99,1.0")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "nightly verdict: PASS" in out.stdout
    judged = [ln for ln in out.stdout.splitlines()
              if "kernel_to_init_s_vs_patched (max_ratio 1.15" in ln]
    assert judged and judged[0].split()[0] == "PASS"
    # No ratio to stock was asked of a sweep that never booted stock.
    assert "_vs_stock" not in out.stdout


def test_a_known_cost_fails_against_the_kernel_beside_it(bench_env, bases):
    out = _night(bench_env, bases, "canary", "canary", FAKE_FACTOR="1.3",
                 FAKE_REPEAT_FACTORS="1.03,0.97,1.02,0.99,1.0")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "REGRESSION  small canary: kernel_to_init_s_vs_patched: 1.3 > " \
        "1 x 1.15" in out.stdout


def test_a_ratio_missing_beside_the_reference_is_missing(bench_env, bases):
    out = _night(bench_env, bases, "patched-again", "drop",
                 FAKE_DROP="procdevices")
    assert out.returncode == 1
    assert "MISSING     small patched-again: " \
        "procdevices_ns_per_read_0_vs_patched: missing" in out.stdout


def _costs(boot=1.0, register=1.0, slab_kib=0.0):
    """An edit laying known costs on a night's results documents."""
    def edit(doc):
        for key in ("kernel_to_init_s", "census_complete_s"):
            doc["boot"][key] *= boot
        ref = doc["majors"]["block"]["register_ref"]
        for key in ("median", "min", "max"):
            ref[key] *= register
        doc["memory"]["guest_slab_kib_per_disk"] += slab_kib
    return edit


def test_the_committed_a_a_night_passes(tmp_path):
    run = _renamed(NIGHT, tmp_path / "aa", "patched-again")
    out, doc = _judge(run, "nightly-aa.toml", SWEEPS)
    assert out.returncode == 0, out.stdout + out.stderr
    assert doc["verdict"] == "PASS"
    # every gating ratio was judged against the kernel beside it
    judged = {c["metric"] for c in doc["checks"]
              if c["variant"] == "patched-again" and c["status"] == "pass"}
    assert {"kernel_to_init_s_vs_patched", "census_complete_s_vs_patched",
            "register_p50_ref_vs_patched", "lookup_p50_ref_vs_patched",
            "guest_slab_kib_per_disk_vs_patched"} <= judged


def test_known_costs_on_its_real_noise_are_named(tmp_path):
    """Known costs laid on the same night: boot 1.3x, register in steps
    1.3x, 8 KiB more slab per disk, each named."""
    run = _renamed(NIGHT, tmp_path / "canary", "canary",
                   _costs(1.3, 1.3, 8.0), source="patched-again")
    out, doc = _judge(run, "nightly-canary.toml", SWEEPS)
    assert out.returncode == 1, out.stdout
    failed = {m for _, m in _failed(doc, "canary")}
    assert {"kernel_to_init_s_vs_patched", "census_complete_s_vs_patched",
            "register_p50_ref_vs_patched",
            "guest_slab_kib_per_disk_vs_patched"} <= failed


@pytest.mark.parametrize("boot", [1.2, 1.3])
def test_a_boot_cost_beyond_the_limit_never_passes(tmp_path, boot):
    """Five repeats of this spread may not decide a cost just beyond
    the 1.15x limit, but must never call it a pass."""
    run = _renamed(NIGHT, tmp_path / "slow", "canary", _costs(boot),
                   source="patched-again")
    out, doc = _judge(run, "nightly-canary.toml", SWEEPS)
    checks = {c["metric"]: c["status"] for c in doc["checks"]
              if c["variant"] == "canary"}
    assert checks["kernel_to_init_s_vs_patched"] in ("regression",
                                                     "inconclusive")
    assert out.returncode in (1, 3)
