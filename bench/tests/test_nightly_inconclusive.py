"""Repeats whose one-sided bounds straddle a nightly threshold make the
figure undecided: the nightly plans at once the repeats its measured
spread says would decide it (up to `max_repeat`, recorded in the
manifest before they run) and judges again; what is still undecided is
INCONCLUSIVE, exit status 3, a JUnit error naming the figure and its
value in every repeat; never a pass."""

import json
import xml.etree.ElementTree as ET

from blkscale.figures import compare

RATIO = "census_complete_s_vs_stock"


def _bases(bench_env):
    out = bench_env.run("bench", "--repeat", "3", run_id="base")
    assert out.returncode == 0, out.stdout + out.stderr
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    return bases


def _repeats(bench_env, run_id):
    runs = bench_env.manifest(run_id)["runs"]
    return {t: max(r["repeat"] for r in runs if r["topology"] == t)
            for t in ("small", "big")}


def test_straddling_figure_gets_repeats_then_is_inconclusive(bench_env):
    bases = _bases(bench_env)
    # patched's times: 1x, 3x, 1x, 1x, 3x, ... by repeat: its boot ratio
    # to stock is 1 or 3 against a limit of 1.3.  The nightly plans at
    # once the repeats the measured spread says would decide it, then
    # says which figures no repeats within max_repeat can decide.
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="n", FAKE_REPEAT_FACTORS="1,3,1",
                        FAKE_VARIANT="patched")
    assert out.returncode == 3, out.stdout + out.stderr
    assert "nightly verdict: INCONCLUSIVE" in out.stdout
    assert "nightly: undecided times on small: repeats 5 to 8 of at most " \
        "9, planned at once" in out.stdout
    # Its mean at the limit, and a ratio at par would need 38 repeats of
    # this spread to pass: said once, with the first judgement.
    assert f"nightly: small patched {RATIO}: no number of repeats " \
        "decides it at the measured mean, and 38 would pass it at par, " \
        "more than max_repeat 9: left undecided" in out.stdout
    assert _repeats(bench_env, "n") == {"small": 8, "big": 8}
    # Every added round was in the manifest before it ran.
    rounds = bench_env.manifest("n")["rounds"]
    assert [(r["repeat"], r["status"]) for r in rounds] == \
        [(k, "done") for k in range(4, 9)]
    assert f"INCONCLUSIVE small patched: {RATIO}:" in out.stdout
    root = ET.parse(bench_env.results / "n" / "nightly.xml").getroot()
    case = root.find("testsuite[@name='nightly.small.patched']/testcase"
                     f"[@name='{RATIO}']")
    error = case.find("error")
    assert error is not None and error.get("type") == "inconclusive"
    assert "straddle 1.3" in error.get("message")
    assert "values by repeat: 1: 1, 2: 3, 3: 1, 4: 1, 5: 3" in error.text
    assert root.get("failures") == "0"
    doc = json.loads((bench_env.results / "n" / "nightly.json").read_text())
    assert doc["verdict"] == "INCONCLUSIVE"
    assert doc["repeats"] == {"small": 8, "big": 8}
    check = next(c for c in doc["checks"] if c["topology"] == "small" and
                 c["metric"] == RATIO and c["status"] == "inconclusive")
    assert check["spread"]["n"] == 8 and check["needed"] == 41
    assert check["at_par"] == 31


def test_max_repeat_caps_the_added_repeats(bench_env):
    bases = _bases(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", "--max-repeat", "4", run_id="n",
                        FAKE_REPEAT_FACTORS="1,3,1", FAKE_VARIANT="patched")
    assert out.returncode == 3, out.stdout + out.stderr
    assert _repeats(bench_env, "n") == {"small": 4, "big": 4}


def test_all_repeats_beyond_is_a_regression_without_more(bench_env):
    bases = _bases(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="f", FAKE_REPEAT_FACTORS="3,2.8,3",
                        FAKE_VARIANT="patched")
    assert out.returncode == 1
    assert "nightly verdict: REGRESSION" in out.stdout
    assert "added to decide" not in out.stdout
    assert _repeats(bench_env, "f") == {"small": 3, "big": 3}


def test_a_noisy_slowdown_is_never_a_pass(bench_env):
    """1.3x slower with noise that three repeats cannot see through: the
    nightly adds repeats, then says REGRESSION or INCONCLUSIVE."""
    bases = _bases(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="s", FAKE_FACTOR="1.3",
                        FAKE_REPEAT_FACTORS="1.2,0.8,1.0,1.1,0.9",
                        FAKE_VARIANT="patched")
    assert out.returncode in (1, 3), out.stdout
    assert "nightly verdict: PASS" not in out.stdout
    assert "repeats added to decide its times" in out.stdout
    doc = json.loads((bench_env.results / "s" / "nightly.json").read_text())
    census = [c for c in doc["checks"] if c["metric"] ==
              "census_complete_s_vs_stock" and c["variant"] == "patched"]
    assert census and all(c["status"] in (compare.REGRESSION,
                                          compare.INCONCLUSIVE)
                          for c in census)
    assert all(c["repeats"] > 3 for c in census)
    assert "the true value at which these repeats fail and at which they " \
        "pass" in out.stdout


def test_a_quiet_host_decides_in_three_repeats(bench_env):
    bases = _bases(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="q")
    assert out.returncode == 0, out.stdout
    assert "nightly verdict: PASS" in out.stdout
    assert "added to decide" not in out.stdout
    assert "small patched census_complete_s_vs_stock (max_ratio 1.3, " \
        "gating): 3 repeats, fails at >= 1.3; passes only at <= 1.3" \
        in out.stdout
