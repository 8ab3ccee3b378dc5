"""What the blktests step does for the blktests flavour, in make test.

The quick subset (test_blktests_boot.py) runs on the main kernels, which
have neither dm-dust nor null_blk's configfs resizing under test; two
tests on the blktests flavour guard the step's part in them, each on
topologies/blktests.toml as `make blktests` runs it:

- dm/002 writes to /dev/mapper/dust1, a node that only libdevmapper
  makes in a guest without a udev daemon (run-blktests tells it to);
- block/038 resizes a null_blk device to 4 submit queues, which null_blk
  refuses beyond the kernel's possible CPUs (the topology declares 4).

About a minute per kernel under TCG.  The flavour kernels are built for
the nightly (make kernel-blktests), not by make test: the test runs in
`make nightly`, or with BLKSCALE_NIGHTLY=1 once they are built.
"""

import os
import re

import pytest

import blktestsrun
from blktestsrun import REPO, step

TOPOLOGY = REPO / "topologies" / "blktests.toml"
TESTS = ["block/038", "dm/002"]

pytestmark = pytest.mark.skipif(
    os.environ.get("BLKSCALE_NIGHTLY") != "1",
    reason="nightly test (needs make kernel-blktests): set "
           "BLKSCALE_NIGHTLY=1 to run it")


def topology_of(tests, path):
    """topologies/blktests.toml running only `tests`."""
    text, n = re.subn(r"(?m)^tests = .*$",
                      "tests = [" + ", ".join(f'"{t}"' for t in tests) + "]",
                      TOPOLOGY.read_text())
    assert n == 1, "topologies/blktests.toml: plan.blktests.tests not found"
    path.write_text(text)
    return path


@pytest.mark.parametrize("variant", ["stock-blktests", "patched-blktests"])
def test_dm_nodes_and_possible_cpus_on_the_flavour(tmp_path, variant):
    checkout = blktestsrun.checkout()
    topo = topology_of(TESTS, tmp_path / "flavour.toml")
    status, docs, err = blktestsrun.run(topo, [variant], tmp_path,
                                        {"BLKTESTS_DIR": checkout},
                                        timeout=900)
    assert status == 0, err
    doc = docs[variant]
    assert step(doc, "blktests")["verdict"] == "ok"
    ran = {(t["test"], t["serial"]): (t["status"], t["reason"], t["diff"])
           for t in doc["blktests"]["tests"]}
    # block/038 needs no disk; dm/002 runs on both test disks.
    assert set(ran) == {("block/038", None), ("dm/002", "vblk-0"),
                        ("dm/002", "scsi-0")}
    assert {k: v for k, v in ran.items() if v[0] != "passed"} == {}
