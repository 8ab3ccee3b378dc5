"""Repeats whose spread straddles a nightly threshold make the figure
undecided: the nightly adds repeats of that topology up to `max_repeat`
and judges again; what is still undecided is INCONCLUSIVE, exit status
3, a JUnit error naming the figure and its value in every repeat; never
a pass."""

import json
import xml.etree.ElementTree as ET

from blkscale_bench.judging import compare

RATIO = "procdevices_ns_per_read_0_vs_stock"


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
    # patched's times: 1x, 3x, 1x, 1x, 3x, ... by repeat.  Its
    # /proc/devices ratio to stock, 0.3 in the baseline (limit 0.39),
    # is 0.3 or 0.9: no number of repeats decides it.
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="n", FAKE_REPEAT_FACTORS="1,3,1",
                        FAKE_VARIANT="patched")
    assert out.returncode == 3, out.stdout + out.stderr
    assert "nightly verdict: INCONCLUSIVE" in out.stdout
    assert "nightly: small: 6 repeats added to decide its times" in out.stdout
    assert _repeats(bench_env, "n") == {"small": 9, "big": 9}
    assert f"INCONCLUSIVE small patched: {RATIO}:" in out.stdout
    root = ET.parse(bench_env.results / "n" / "nightly.xml").getroot()
    case = root.find("testsuite[@name='nightly.small.patched']/testcase"
                     f"[@name='{RATIO}']")
    error = case.find("error")
    assert error is not None and error.get("type") == "inconclusive"
    assert "96% interval of the median 0.3..0.9 straddles 0.39" in \
        error.get("message")
    assert "values by repeat: 1: 0.3, 2: 0.9, 3: 0.3, 4: 0.3, 5: 0.9" in \
        error.text
    assert root.get("failures") == "0"
    doc = json.loads((bench_env.results / "n" / "nightly.json").read_text())
    assert doc["verdict"] == "INCONCLUSIVE"
    assert doc["repeats"] == {"small": 9, "big": 9}
    check = next(c for c in doc["checks"] if c["topology"] == "small" and
                 c["metric"] == RATIO and c["status"] == "inconclusive")
    assert check["spread"]["n"] == 9


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
                        "3", run_id="f", FAKE_REPEAT_FACTORS="3,2.5,3",
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
    assert "smallest slowdown the repeats could have detected" in out.stdout


def test_a_quiet_host_decides_in_three_repeats(bench_env):
    bases = _bases(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="q")
    assert out.returncode == 0, out.stdout
    assert "nightly verdict: PASS" in out.stdout
    assert "added to decide" not in out.stdout
    assert "small patched census_complete_s_vs_stock (max_ratio 1.3, " \
        "gating): 3 repeats, could detect 1.00x" in out.stdout
