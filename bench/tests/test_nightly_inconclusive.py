"""Repeats whose spread straddles a nightly threshold make the figure
inconclusive: a skipped JUnit test case naming the figure and asking for
more repeats, a warning line, the verdict INCONCLUSIVE; never a pass."""

import json
import xml.etree.ElementTree as ET


def test_straddling_figure_is_a_junit_warning(bench_env):
    assert bench_env.run("bench", run_id="base").returncode == 0
    bases = bench_env.tmp / "baselines"
    assert bench_env.run_plain("baseline", str(bench_env.results / "base"),
                               "--baselines", str(bases)).returncode == 0
    # patched's times: 1x, 3x, 1x in its three repeats.  Its
    # /proc/devices ratio to stock, 0.3 in the baseline (limit 0.6), is
    # 0.3, 0.9, 0.3: the range straddles 0.6.
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="n", FAKE_REPEAT_FACTORS="1,3,1",
                        FAKE_VARIANT="patched")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "nightly verdict: INCONCLUSIVE" in out.stdout
    assert "INCONCLUSIVE small patched: procdevices_ns_per_read_0_vs_stock:" \
        in out.stdout
    root = ET.parse(bench_env.results / "n" / "nightly.xml").getroot()
    case = root.find("testsuite[@name='nightly.small.patched']/testcase"
                     "[@name='procdevices_ns_per_read_0_vs_stock']")
    skipped = case.find("skipped")
    assert skipped is not None and skipped.get("type") == "inconclusive"
    reason = skipped.get("message")
    assert "procdevices_ns_per_read_0_vs_stock" in reason
    assert "range of 3 repeats 0.3..0.9 straddles 0.6" in reason
    assert "more repeats" in reason
    assert root.get("failures") == "0"
    doc = json.loads((bench_env.results / "n" / "nightly.json").read_text())
    assert doc["verdict"] == "INCONCLUSIVE"
    check = next(c for c in doc["checks"] if c["topology"] == "small" and
                 c["metric"] == "procdevices_ns_per_read_0_vs_stock")
    assert check["status"] == "inconclusive"
    assert check["spread"]["values"] == {"1": 0.3, "2": 0.9, "3": 0.3}

    # All three repeats beyond the limit: a regression.
    out = bench_env.run("nightly", "--baselines", str(bases), "--repeat",
                        "3", run_id="f", FAKE_REPEAT_FACTORS="3,2.5,3",
                        FAKE_VARIANT="patched")
    assert out.returncode == 1
    assert "nightly verdict: REGRESSION" in out.stdout
