"""Nightly with the fake launcher: a baseline made from one sweep passes
the next identical sweep, and a planted slowdown fails it with JUnit XML
naming the figure."""

import json
import xml.etree.ElementTree as ET


def _baseline(bench_env):
    out = bench_env.run("bench", run_id="base")
    assert out.returncode == 0, out.stderr
    bases = bench_env.tmp / "baselines"
    out = bench_env.run_plain("baseline", str(bench_env.results / "base"),
                              "--baselines", str(bases))
    assert out.returncode == 0, out.stderr
    return bases


def test_nightly_pass_then_regression(bench_env):
    bases = _baseline(bench_env)
    doc = json.loads((bases / "patched.json").read_text())
    assert doc["source"]["run"] == "base"
    assert doc["topologies"]["small"]["metrics"][
        "block_dynamic_capacity"] == 3731
    assert doc["topologies"]["small"]["metrics"][
        "procdevices_ns_per_read_0_vs_stock"] == 0.3

    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "nightly verdict: PASS" in out.stdout
    root = ET.parse(bench_env.results / "n1" / "nightly.xml").getroot()
    assert root.get("failures") == "0" and root.get("errors") == "0"
    assert int(root.get("tests")) > 40

    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n2",
                        FAKE_FACTOR="2.5", FAKE_VARIANT="patched")
    assert out.returncode == 1
    assert "nightly verdict: REGRESSION" in out.stdout
    # One repeat has no spread: the nightly added a second to decide.
    assert "nightly: small: 1 repeat added to decide its times" in out.stdout, out.stdout
    assert "REGRESSION  small patched: procdevices_ns_per_read_0_vs_stock: " \
        "0.75 > 0.3 x 1.2 (2.50x); 2 repeats: fails at >= 0.36; passes " \
        "only at <= 0.36" in out.stdout
    assert "WARN        small patched: procdevices_ns_per_read_0: 75000 > " \
        "30000 x 1.5 (2.50x)" in out.stdout
    root = ET.parse(bench_env.results / "n2" / "nightly.xml").getroot()
    failed = {(s.get("name"), c.get("name"))
              for s in root.findall("testsuite")
              for c in s.findall("testcase") if c.find("failure") is not None}
    assert ("nightly.small.patched",
            "procdevices_ns_per_read_0_vs_stock") in failed
    assert ("nightly.small.patched", "procdevices_ns_per_read_0") not in \
        failed
    assert not any(s.endswith(".stock") for s, _ in failed)
    warned = root.find("testsuite[@name='nightly.small.patched']/testcase"
                       "[@name='procdevices_ns_per_read_0']/system-out")
    assert warned.text.startswith("WARNING (max_ratio 1.5, advisory)")


def test_nightly_missing_section(bench_env):
    bases = _baseline(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n3",
                        FAKE_DROP="lvm", FAKE_VARIANT="stock")
    assert out.returncode == 1
    assert "MISSING     small stock: lvm_ok: missing in repeat 1, 2 " \
        "(baseline 1)" in out.stdout


def test_baseline_refuses_partial(bench_env):
    out = bench_env.run("bench", run_id="p", FAKE_MODE="usage")
    assert out.returncode == 2
    out = bench_env.run_plain("baseline", str(bench_env.results / "p"),
                              "--baselines", str(bench_env.tmp / "b"))
    assert out.returncode == 2
    assert out.stderr.strip().endswith(
        "manifest.json: status: partial sweep; a baseline needs a complete "
        "one (--force to accept it)")
    assert not (bench_env.tmp / "b").exists()


def test_nightly_fails_on_one_wrong_disk(bench_env):
    bases = _baseline(bench_env)
    out = bench_env.run("nightly", "--baselines", str(bases), run_id="n3",
                        FAKE_BAD_DISK="jbod-2", FAKE_VARIANT="patched")
    assert out.returncode == 1
    assert "nightly verdict: REGRESSION" in out.stdout
    assert "REGRESSION  small patched: every_disk_identified: repeat 1: " \
        "7/8 identified (1 mismatched, signatures 7/8); first: sdc " \
        "(jbod-2): sector 0 is another disk" in out.stdout


def test_baseline_merge_keeps_other_topologies(bench_env):
    bases = _baseline(bench_env)
    path = bases / "patched.json"
    doc = json.loads(path.read_text())
    # a topology the next sweep does not run, from an older run
    doc["topologies"]["elsewhere"] = {"topology_file": "x.toml",
                                      "metrics": {"census_complete_s": 9.5}}
    doc["source"]["run"] = "older"
    path.write_text(json.dumps(doc))

    out = bench_env.run("bench", run_id="again")
    assert out.returncode == 0, out.stderr
    out = bench_env.run_plain("baseline", str(bench_env.results / "again"),
                              "--baselines", str(bases), "--merge")
    assert out.returncode == 0, out.stderr
    merged = json.loads(path.read_text())
    assert merged["source"]["run"] == "again"
    assert merged["topologies"]["small"]["source"]["run"] == "again"
    kept = merged["topologies"]["elsewhere"]
    assert kept["metrics"] == {"census_complete_s": 9.5}
    assert kept["source"]["run"] == "older"

    # without --merge the file is the new sweep's alone
    out = bench_env.run_plain("baseline", str(bench_env.results / "again"),
                              "--baselines", str(bases))
    assert out.returncode == 0, out.stderr
    assert "elsewhere" not in json.loads(path.read_text())["topologies"]
