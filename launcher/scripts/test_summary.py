#!/usr/bin/python3
"""Add up the test suites of `make test` into one closing line.

Each component's pytest suite runs on its own (their conftest modules
would collide in one process) and writes JUnit XML; the C unit tests print
a "N passed, N failed, N skipped" line.  Usage:
    test_summary.py C-TEST-LOG JUNIT.xml...
The line ends with why tests were skipped, each reason once with its
count.  Exit status 1 if anything failed or a suite wrote no report.
"""
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

# Reasons are cut to this many characters on the summary line.
REASON_CHARS = 60


def junit_counts(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    passed = failed = skipped = 0
    for suite in suites:
        tests = int(suite.get("tests", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skip = int(suite.get("skipped", 0))
        failed += bad
        skipped += skip
        passed += tests - bad - skip
    return passed, failed, skipped


def skip_reasons(path):
    """Why the tests of a JUnit report were skipped, one entry per test."""
    root = ET.parse(path).getroot()
    return [brief(s.get("message", "")) for s in root.iter("skipped")]


def brief(reason):
    reason = " ".join(reason.split()).removeprefix("Skipped: ")
    if len(reason) > REASON_CHARS:
        reason = reason[:REASON_CHARS - 3] + "..."
    return reason or "no reason given"


def summary_line(passed, failed, skipped, reasons):
    line = f"summary: {passed} passed, {failed} failed, {skipped} skipped"
    if reasons:
        line += " (" + "; ".join(
            f"{reason}" + (f" x{n}" if n > 1 else "")
            for reason, n in Counter(reasons).most_common()) + ")"
    return line


def c_counts(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    m = re.findall(r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?", text)
    if not m:
        return None
    p, f, s = m[-1]
    return int(p), int(f), int(s or 0)


def main(argv):
    total = [0, 0, 0]
    reasons = []
    broken = []
    counts = c_counts(argv[1])
    if counts is None:
        broken.append(argv[1])
    else:
        total = [a + b for a, b in zip(total, counts)]
    for path in argv[2:]:
        try:
            counts = junit_counts(path)
            reasons += skip_reasons(path)
        except (OSError, ET.ParseError):
            broken.append(path)
            continue
        total = [a + b for a, b in zip(total, counts)]
    for path in broken:
        print(f"make test: no test report in {path}", file=sys.stderr)
    passed, failed, skipped = total
    print(summary_line(passed, failed, skipped, reasons))
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
