"""A per-call cost judged against a kernel built from other patches says
so (blkscale.figures.layoutnote): the gated part's first night judged
v4's register_blkdev 1.19x v3's, with the same code for it; a pair of
kernels built from the same patches gets no such note."""

import json
import shutil

from blkscale.figures import layoutnote
from blkscale.paths import REPO

from test_nightly_canary_aa import SWEEPS, _judge

NIGHT = REPO / "evidence" / "20261206-night" / "20261206-103128-gated"
TOPOLOGY = "stress-500-1cpu"


def _vs_calls(doc):
    return [c for c in doc["checks"] if c["kind"] == "call"
            and "_vs_" in c["metric"]]


def test_v4_against_v3_names_the_layout(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(NIGHT, run)
    _, doc = _judge(run, "nightly-gated.toml", SWEEPS)
    calls = _vs_calls(doc)
    assert calls
    for c in calls:
        assert "the kernels' patches differ (6 only in this kernel, 4 " \
            "only in the other)" in c["message"], c["message"]
    register = next(c for c in calls if c["metric"] ==
                    "register_p50_ref_vs_patched-baseline")
    # the note explains, it does not decide
    assert register["status"] == "regression"


def test_kernels_of_the_same_patches_get_no_note(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(NIGHT, run)
    base = json.loads(next((run / TOPOLOGY / "patched-baseline").glob(
        "*/results.json")).read_text())["kernel"]["patches"]
    for path in (run / TOPOLOGY / "patched").glob("*/results.json"):
        doc = json.loads(path.read_text())
        doc["kernel"]["patches"] = base
        path.write_text(json.dumps(doc))
    _, doc = _judge(run, "nightly-gated.toml", SWEEPS)
    assert _vs_calls(doc)
    assert not [c for c in _vs_calls(doc) if "patches differ" in
                c["message"]]


def test_the_difference_is_counted_both_ways():
    assert layoutnote.difference(["a", "b", "c"], ["a", "d"]) == \
        "2 only in this kernel, 1 only in the other"
    assert layoutnote.difference(["a", "b"], ["b", "a"]) == \
        "the same patches in another order"
    assert layoutnote.patch_ids({"kernel": {"patches": None}}) is None
