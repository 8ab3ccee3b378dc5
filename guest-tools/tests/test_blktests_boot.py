"""blktests in the guest, in make test: a short subset on both kernels.

topologies/blktests-quick.toml runs a handful of block and scsi tests
that pass on the stock kernel under this project's configuration; each
must pass on both kernels, so that a regression of the patch series, or
of the step itself, fails here.  Without a checkout the step is skipped
and says why.  About 1.5 minutes under TCG.  Needs `make kernel
initramfs`; skipped without (BLKSCALE_REQUIRE_ALL=1 turns that skip into
a failure, as it does for a missing checkout when the peer copy exists).
"""

import tomllib

import blktestsrun
from blktestsrun import REPO, step

TOPOLOGY = REPO / "topologies" / "blktests-quick.toml"


def planned_tests():
    plan = tomllib.loads(TOPOLOGY.read_text())["plan"]["blktests"]
    return plan["tests"], plan["disks"]


def test_quick_subset_passes_on_both_kernels(tmp_path):
    checkout = blktestsrun.checkout()
    status, docs, err = blktestsrun.run(TOPOLOGY, ["stock", "patched"],
                                        tmp_path, {"BLKTESTS_DIR": checkout},
                                        timeout=900, retry_hang=True)
    assert status == 0, err
    tests, disks = planned_tests()
    for variant, doc in docs.items():
        assert step(doc, "blktests")["verdict"] == "ok", variant
        section = doc["blktests"]
        assert sorted(section["devices"]) == sorted(disks)
        # The scsi group skips the virtio-blk disk as a whole ("scsi/***").
        group_skips = [t for t in section["tests"]
                       if t["test"].endswith("/***")]
        assert all("is not a SCSI device" in t["reason"]
                   for t in group_skips), group_skips
        ran = [t for t in section["tests"] if t not in group_skips]
        assert {t["test"] for t in ran} == set(tests), variant
        not_passed = [(t["test"], t["device"], t["status"], t["reason"])
                      for t in ran if t["status"] != "passed"]
        assert not_passed == [], variant
        assert section["summary"]["passed"] == len(ran) > 0
    assert blktestsrun.regressions(docs["stock"], docs["patched"]) == []


def test_without_a_checkout_the_step_says_why(tmp_path):
    status, docs, err = blktestsrun.run(TOPOLOGY, ["patched"], tmp_path,
                                        {"BLKTESTS_DIR": ""}, timeout=300,
                                        retry_hang=True)
    assert status == 0, err
    doc = docs["patched"]
    s = step(doc, "blktests")
    assert s["verdict"] == "skipped"
    assert "no blktests checkout" in s["message"]
    assert doc["blktests"] == {"skipped":
                               "no blktests checkout (set BLKTESTS_DIR)"}
