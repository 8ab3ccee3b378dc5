"""The JUnit XML parses, and its counts match the checks."""

import xml.etree.ElementTree as ET

from blkscale.figures import compare
from blkscale_bench.judging import junit


def test_junit_wellformed(tmp_path):
    checks = [
        compare.Check("t", "stock", "run", compare.PASS, message="ok"),
        compare.Check("t", "stock", "kernel_to_init_s", compare.REGRESSION,
                      4.0, 9.0, {"max_ratio": 1.5},
                      "kernel_to_init_s: 9 > 4 x 1.5 (2.25x) <&>"),
        compare.Check("t", "stock", "lvm_ok", compare.MISSING, 1, None,
                      {"min_ratio": 1.0}, "lvm_ok: missing (baseline 1)"),
        compare.Check("t", "patched", "run", compare.RUN_FAILED,
                      message="no results (hang: no output)"),
        compare.Check("t", "patched", "new_figure", compare.NO_BASELINE,
                      message="new_figure: no baseline value"),
        compare.Check("t", "patched", "lookup_p50_ns", compare.WARN, 4000,
                      9000, {"max_ratio": 1.5, "gate": False},
                      "lookup_p50_ns: 9000 > 4000 x 1.5 (2.25x)"),
    ]
    path = tmp_path / "nightly.xml"
    junit.write(path, junit.document("r1", checks, "2026-01-01T00:00:00",
                                     {"verdict": "REGRESSION"}))
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"),
            root.get("skipped")) == ("6", "2", "1", "1")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["nightly.t.stock",
                                              "nightly.t.patched"]
    stock = suites[0]
    assert stock.get("tests") == "3" and stock.get("failures") == "2"
    props = {p.get("name"): p.get("value")
             for p in stock.find("properties")}
    assert props == {"run": "r1", "verdict": "REGRESSION"}
    case = stock.find("testcase[@name='kernel_to_init_s']")
    assert case.get("classname") == "nightly.t.stock"
    failure = case.find("failure")
    assert failure.get("type") == "regression"
    assert failure.get("message").endswith("(2.25x) <&>")
    assert suites[1].find("testcase[@name='run']/error") is not None
    assert suites[1].find("testcase[@name='new_figure']/skipped") is not None
    warn = suites[1].find("testcase[@name='lookup_p50_ns']")
    assert warn.find("failure") is None and warn.find("error") is None
    assert warn.find("system-out").text.startswith(
        "WARNING (max_ratio 1.5, advisory): lookup_p50_ns")
