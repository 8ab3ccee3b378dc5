"""What every test suite of the repository shares: BLKSCALE_REQUIRE_ALL.

Tests skip when the host lacks what they need (a built kernel or guest
image, libvirtd, QEMU, a kernel config option, a Debian package).  With
BLKSCALE_REQUIRE_ALL=1 (CI sets it) such a skip is a failure, so that a
green run means every test ran.  Skips for what a host may rightly lack
stay skips: root, a usable /dev/kvm, and the nightly-only tests.
"""

import os
import re

import pytest

OPTIONAL = re.compile(r"\broot\b|/dev/kvm|BLKSCALE_NIGHTLY")


def require_all():
    return os.environ.get("BLKSCALE_REQUIRE_ALL") == "1"


def _reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and require_all()) or \
            hasattr(report, "wasxfail"):
        return
    reason = _reason(report)
    if OPTIONAL.search(reason):
        return
    report.outcome = "failed"
    report.longrepr = (f"BLKSCALE_REQUIRE_ALL=1: a requirement is missing: "
                       f"{reason}")
