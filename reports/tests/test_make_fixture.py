"""make_fixture.py trims a run for the repository without changing the
figures the nightly reads from it: evidence judged again from its trimmed
copy must get the run's own verdict."""

import importlib.util

from blkscale.paths import REPO
from blkscale.figures import metrics

spec = importlib.util.spec_from_file_location(
    "make_fixture", REPO / "reports" / "tests" / "make_fixture.py")
make_fixture = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_fixture)


def run_doc(buckets):
    # The registration cost climbs as majors fill up, fastest at the end:
    # a thinned curve that loses its last buckets reads a smaller growth.
    register = [{"registered": 16 * i, "p50_ns": 1000 + 10 * i + (
        5000 if i >= buckets - 4 else 0), "samples": 32}
        for i in range(buckets)]
    return {"majors": {"block": {"register": register,
                                 "unregister": list(register)}}}


def growth(doc):
    return metrics.BY_NAME["register_growth"].extract(doc)


def test_trimming_keeps_the_register_growth_of_the_run():
    doc = run_doc(236)
    before = growth(doc)
    trimmed = make_fixture.trim(run_doc(236))
    assert len(trimmed["majors"]["block"]["register"]) < 40
    assert "unregister" not in trimmed["majors"]["block"]
    assert growth(trimmed) == before


def test_short_curves_are_kept_whole():
    doc = make_fixture.trim(run_doc(20))
    assert len(doc["majors"]["block"]["register"]) == 20


def test_whole_curves_keep_the_curve_median():
    median = metrics.BY_NAME["register_p50_ns"].extract(run_doc(236))
    whole = make_fixture.trim(run_doc(236), whole_curves=True)
    assert len(whole["majors"]["block"]["register"]) == 236
    assert "unregister" not in whole["majors"]["block"]
    assert metrics.BY_NAME["register_p50_ns"].extract(whole) == median
