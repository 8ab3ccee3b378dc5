"""The closing line of `make test`: counts, and why tests were skipped."""

import subprocess
import sys

from launchertest import REPO

SCRIPT = REPO / "launcher" / "scripts" / "test_summary.py"

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="0" failures="{failures}"
 skipped="3" tests="6">
<testcase classname="t" name="a"/>
<testcase classname="t" name="b"><skipped type="pytest.skip"
 message="not built: build/kernel/out/stock/bzImage (make kernel initramfs)"
 /></testcase>
<testcase classname="t" name="c"><skipped type="pytest.skip"
 message="not built: build/kernel/out/stock/bzImage (make kernel initramfs)"
 /></testcase>
<testcase classname="t" name="d"><skipped type="pytest.skip"
 message="no usable /dev/kvm"/></testcase>
<testcase classname="t" name="e"/>
<testcase classname="t" name="f">{failure}</testcase>
</testsuite></testsuites>
"""


def summarise(tmp_path, failures=0):
    c_log = tmp_path / "c.log"
    c_log.write_text("7 passed, 0 failed, 1 skipped\n")
    report = tmp_path / "suite.xml"
    failure = "<failure message='x'/>" if failures else ""
    report.write_text(JUNIT.format(failures=failures, failure=failure))
    return subprocess.run([sys.executable, str(SCRIPT), str(c_log),
                           str(report)], capture_output=True, text=True)


def test_summary_lists_skips_with_reasons(tmp_path):
    out = summarise(tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (
        "summary: 10 passed, 0 failed, 4 skipped (not built: build/kernel/"
        "out/stock/bzImage (make kernel in... x2; no usable /dev/kvm)\n")


def test_a_failure_fails_the_summary(tmp_path):
    out = summarise(tmp_path, failures=1)
    assert out.returncode == 1
    assert out.stdout.startswith("summary: 9 passed, 1 failed, 4 skipped")


def test_a_missing_report_fails_the_summary(tmp_path):
    c_log = tmp_path / "c.log"
    c_log.write_text("1 passed, 0 failed\n")
    out = subprocess.run([sys.executable, str(SCRIPT), str(c_log),
                          str(tmp_path / "none.xml")], capture_output=True,
                         text=True)
    assert out.returncode == 1
    assert "no test report" in out.stderr
