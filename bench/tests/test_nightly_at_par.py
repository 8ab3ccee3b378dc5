"""A time whose mean, made of a few repeats, lies out of reach (one slow
boot of five puts it at the limit) is planned to the repeats that would
pass it were nothing changed (`at_par`), not left undecided at once; and
`at_par` is the number the noncentral t says, checked by simulation."""

import json
import shutil

import numpy
import pytest

from blkscale.figures import compare, onesided
from blkscale.paths import REPO
from blkscale_bench.judging import power

from test_nightly_canary_aa import SWEEPS, _judge

# The one-vCPU A/A night the old rule left INCONCLUSIVE: five repeats,
# one boot ratio 1.40x, its mean 55 repeats from deciding 1.15x.
NIGHT = REPO / "evidence" / "20261205-nights-in-sitting" / "one-vcpu" / \
    "20261205-223224-aa"
TOPOLOGY = "stress-500-1cpu"
BOOT = ("kernel_to_init_s_vs_patched", "census_complete_s_vs_patched")


def _pass_rate(n, sd, limit, par, trials=2000, seed=7):
    """How often n repeats of true ratio par and spread sd pass limit."""
    rng = numpy.random.default_rng(seed)
    passed = 0
    for _ in range(trials):
        logs = rng.normal(numpy.log(par), sd, n)
        values = {k + 1: float(numpy.exp(x)) for k, x in enumerate(logs)}
        passed += onesided.decide(values, limit).said == onesided.PASS
    return passed / trials


@pytest.mark.parametrize("sd", [0.08, 0.16])
def test_at_par_repeats_pass_as_often_as_promised(sd):
    # five repeats whose logs have exactly the spread sd
    logs = numpy.array([-1.0, -0.5, 0.0, 0.5, 1.0])
    logs = logs / logs.std(ddof=1) * sd
    values = {k + 1: float(numpy.exp(x)) for k, x in enumerate(logs)}
    n = onesided.at_par(values, 1.15, 1.0)
    assert n is not None and n > 2
    assert _pass_rate(n, sd, 1.15, 1.0) >= onesided.POWER - 0.03
    assert _pass_rate(n - 2, sd, 1.15, 1.0) < onesided.POWER


def test_at_par_is_none_where_par_itself_is_beyond_the_limit():
    values = {1: 1.0, 2: 1.1, 3: 0.95}
    assert onesided.at_par(values, 1.15, 1.2) is None
    assert onesided.at_par(values, 0.9, 1.0, kind="min") is not None
    assert onesided.at_par(values, 1.1, 1.0, kind="min") is None


def _checks(doc):
    return [compare.Check(**c) for c in doc["checks"]]


def _night(tmp_path):
    run = tmp_path / "aa"
    shutil.copytree(NIGHT, run)
    for judged in ("nightly.json", "nightly.xml"):
        (run / judged).unlink()
    out, doc = _judge(run, "nightly-aa.toml", SWEEPS)
    assert out.returncode == 3, out.stdout + out.stderr
    manifest = json.loads((run / "manifest.json").read_text())
    return _checks(doc), manifest


def test_a_mean_out_of_reach_is_planned_to_its_at_par_repeats(tmp_path):
    checks, manifest = _night(tmp_path)
    boot = {c.metric: c for c in checks if c.variant == "patched-again"
            and c.metric in BOOT}
    assert all(c.status == compare.INCONCLUSIVE and c.undecided
               for c in boot.values())
    # the old rule: its mean out of reach within 16, so nothing added
    assert boot[BOOT[0]].needed > 16 and boot[BOOT[1]].needed is None
    want, hopeless, by_par = power.targets(checks, manifest, 16)
    assert not hopeless
    most = max(c.at_par for c in boot.values())
    assert 5 < most <= 16 and want == {TOPOLOGY: most}
    assert {c.metric for c, _ in by_par} == set(BOOT)


def test_at_par_repeats_already_run_leave_it_undecided(tmp_path):
    checks, manifest = _night(tmp_path)
    manifest["sweep"]["repeat"] = 16
    want, hopeless, by_par = power.targets(checks, manifest, 16)
    assert want == {} and not by_par
    assert set(BOOT) <= {c.metric for c in hopeless}
    line = power._hopeless_line(next(c for c in hopeless
                                     if c.metric == BOOT[0]), 16)
    assert "would pass it at par have run: left undecided" in line


def test_at_par_beyond_max_repeat_is_said_before_anything_runs(tmp_path):
    checks, manifest = _night(tmp_path)
    want, hopeless, _ = power.targets(checks, manifest, 6)
    assert want == {}
    line = power._hopeless_line(next(c for c in hopeless
                                     if c.metric == BOOT[0]), 6)
    assert "would pass it at par, more than max_repeat 6" in line


# The canary with its cost per disk as work (evidence/20261206-canary-
# loops, night 1: five repeats) and the A/A night whose 14 repeats were
# planned by the rule (evidence/20261206-nights-at-par, night 2).
CANARY = REPO / "evidence" / "20261206-canary-loops" / \
    "20261206-010526-canary"
AA_14 = REPO / "evidence" / "20261206-nights-at-par" / "20261206-003510-aa"


def _rejudged(src, tmp_path, sweep):
    run = tmp_path / src.name
    shutil.copytree(src, run)
    for judged in ("nightly.json", "nightly.xml"):
        (run / judged).unlink()
    return _judge(run, sweep, SWEEPS)


def test_the_committed_canary_night_names_every_cost(tmp_path):
    out, doc = _rejudged(CANARY, tmp_path, "nightly-canary.toml")
    assert out.returncode == 1, out.stdout + out.stderr
    failed = {c["metric"] for c in doc["checks"]
              if c["variant"] == "canary" and c["status"] == "regression"}
    assert set(BOOT) | {"register_p50_ref_vs_patched",
                        "guest_slab_kib_per_disk_vs_patched"} <= failed


def test_the_a_a_night_its_repeats_decided_passes(tmp_path):
    out, doc = _rejudged(AA_14, tmp_path, "nightly-aa.toml")
    assert out.returncode == 0, out.stdout + out.stderr
    assert doc["verdict"] == "PASS" and doc["repeats"] == {TOPOLOGY: 14}
