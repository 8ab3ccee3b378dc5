"""blktests in full on Debian's own kernel (make nightly), as far as its
config allows.

The debian variant is the kernel a capacity planner's servers run; it is
not ours to judge against the series, so its differences from the stock
6.1 flavour (the last night's stock-blktests run beside it) are listed,
not failed: a test that passes on stock-blktests and fails on Debian's
kernel is a difference of config or of Debian's patches.  What fails here
is a suite that does not run: no results, a step that did not finish, or
reruns stopped by an oops or a taint.  The modules Debian's config lacks
are named (the image's blktests modules layer).  Its run stays under
results/blktests-nightly/ with a -debian suffix.  Runs only with
BLKSCALE_NIGHTLY=1; needs make kernel initramfs VARIANTS=debian.
"""

import os
import time
import warnings

import pytest

import blktestsrun
from blkscale_reports import blktestsruns as bv
from blktestsrun import REPO, step

TOPOLOGY = REPO / "topologies" / "blktests.toml"
REFERENCE = "stock-blktests"
DEBIAN = "debian"
TIMEOUT = 4 * 3600

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly only (BLKSCALE_NIGHTLY=1; needs make kernel "
           "VARIANTS=debian)")


@pytest.fixture(scope="module")
def debian_night():
    env = {"BLKTESTS_DIR": blktestsrun.checkout()}
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    run_dir = blktestsrun.NIGHTS / f"{stamp}-debian"
    status, docs, err = blktestsrun.run(TOPOLOGY, [DEBIAN], None, env,
                                        TIMEOUT, results=run_dir.parent,
                                        run_id=run_dir.name)
    return run_dir, status, docs[DEBIAN], err


def _reference_night():
    """The latest night with stock-blktests results, or None."""
    if not blktestsrun.NIGHTS.is_dir():
        return None
    nights = [d for d in sorted(blktestsrun.NIGHTS.iterdir())
              if (d / REFERENCE / "results.json").is_file()]
    return nights[-1] if nights else None


def test_the_suite_runs_on_debians_kernel(debian_night):
    run_dir, status, doc, err = debian_night
    assert doc is not None, f"{run_dir}: no results ({err.strip()})"
    assert status in (0, 1), err
    assert step(doc, "blktests")["verdict"] == "ok"
    section = doc["blktests"]
    assert section["summary"]["total"] > 0
    assert not section["reruns"]["stopped"], section["reruns"]["stopped"]
    print(f"debian: {section['summary']}, {section['wall_s']} s, not in "
          f"its config: {' '.join(section['modules_missing']) or 'nothing'}")


def _firsts(doc):
    """{(test, disk serial): (status, reason)} of a run's first pass."""
    return {(t["test"], t.get("serial") or ""): (t["status"], t.get("reason"))
            for t in (doc.get("blktests") or {}).get("tests") or []}


def differences(reference, debian):
    """One line per test whose first status differs between the two."""
    ref, deb = _firsts(reference), _firsts(debian)
    lines = []
    for key in sorted(set(ref) | set(deb)):
        a, b = ref.get(key, ("absent", None)), deb.get(key, ("absent", None))
        if a[0] != b[0]:
            test, disk = key
            why = f" ({b[1]})" if b[1] else ""
            lines.append(f"{test}{' on ' + disk if disk else ''}: "
                         f"{REFERENCE} {a[0]}, {DEBIAN} {b[0]}{why}")
    return lines


def test_differences_from_the_stock_flavour_are_listed(debian_night,
                                                       record_property):
    run_dir, _, doc, _ = debian_night
    assert doc is not None
    night = _reference_night()
    if night is None:
        pytest.skip(f"no {REFERENCE} night in {blktestsrun.NIGHTS} to "
                    "compare with")
    reference = bv.load_run(night, [REFERENCE])[REFERENCE][0]
    differ = differences(reference, doc)
    print(f"debian against {REFERENCE} ({night.name}): {len(differ)} tests "
          "differ")
    for line in differ:
        print("  " + line)
    if differ:
        record_property("blktests_debian_differences", "; ".join(differ))
        warnings.warn(f"debian against {REFERENCE} ({night.name}): "
                      + "; ".join(differ))
