"""blktests in full on the blktests flavour of both kernels (make nightly).

topologies/blktests.toml: the block, loop, scsi, dm, md and nbd groups on
a virtio-blk and a SCSI disk.  A test that passes on stock and fails on
patched fails this test; a test that fails on both is a warning naming
it (reports/README.md explains the known ones).  Too slow for make test:
it runs only with BLKSCALE_NIGHTLY=1.
"""

import os
import warnings

import pytest

import blktestsrun
from blktestsrun import REPO, step

TOPOLOGY = REPO / "topologies" / "blktests.toml"
VARIANTS = ["stock-blktests", "patched-blktests"]

pytestmark = pytest.mark.skipif(os.environ.get("BLKSCALE_NIGHTLY") != "1",
                                reason="nightly only (BLKSCALE_NIGHTLY=1)")


def test_no_test_passes_on_stock_and_fails_on_patched(tmp_path):
    checkout = blktestsrun.checkout()
    status, docs, err = blktestsrun.run(TOPOLOGY, VARIANTS, tmp_path,
                                        {"BLKTESTS_DIR": checkout},
                                        timeout=3 * 3600)
    for variant in VARIANTS:
        doc = docs[variant]
        assert doc is not None, f"{variant}: no results ({err.strip()})"
        assert step(doc, "blktests")["verdict"] == "ok", variant
        print(f"{variant}: {doc['blktests']['summary']}, "
              f"{doc['blktests']['wall_s']} s")
    stock, patched = (docs[v] for v in VARIANTS)
    both = blktestsrun.failed_on_both(stock, patched)
    if both:
        warnings.warn("blktests failing on both kernels: " +
                      ", ".join(f"{t} {d}".strip() for t, d in both))
    assert blktestsrun.regressions(stock, patched) == []
    assert status in (0, 1), err
