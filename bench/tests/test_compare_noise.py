"""Noise within the thresholds is not a regression, and a figure that
improves is never one.  Each figure comes from three repeats: a time of
one repeat has no spread and decides nothing."""

from blkscale.figures import compare, metrics
from blkscale.figures.stats import Summary

LIMITS = metrics.thresholds("stock")
MANIFEST = {"sweep": {"topologies": {"t": "t.toml"}, "variants": ["stock"]},
            "runs": [{"topology": "t", "variant": "stock", "outcome": "ok",
                      "message": "ok"}]}
BASE = {"procdevices_ns_per_read_0": 100000, "kernel_to_init_s": 4.0,
        "block_dynamic_capacity": 235, "guest_slab_kib_per_disk": 50.0,
        "lookup_p50_ns": 4600}


def _checks(current):
    current = {k: Summary.of([v] * 3) for k, v in current.items()}
    return compare.compare(MANIFEST, {"t": {"stock": current}},
                           {"stock": {"topologies": {"t": {"metrics": BASE}}}},
                           LIMITS)


def test_noise_passes():
    current = {"procdevices_ns_per_read_0": 149000,   # 1.49x of 1.5x
               "kernel_to_init_s": 5.9,               # 1.475x
               "block_dynamic_capacity": 235,
               "guest_slab_kib_per_disk": 54.9,       # 1.098x of 1.1x
               "lookup_p50_ns": 3000}                 # faster
    checks = _checks(current)
    assert [c for c in checks if c.failed] == []
    assert compare.verdict(checks)[0] == "PASS"
    assert {c.metric for c in checks if c.status == compare.PASS} == \
        set(BASE)


def test_exact_limit_passes():
    current = dict(BASE, procdevices_ns_per_read_0=150000)
    assert compare.verdict(_checks(current))[0] == "PASS"


def test_capacity_growth_passes():
    current = dict(BASE, block_dynamic_capacity=3731)
    assert compare.verdict(_checks(current))[0] == "PASS"


def test_advisory_time_beyond_ratio_only_warns():
    """A host under load: boot 2.5x slower than the baseline."""
    checks = _checks(dict(BASE, kernel_to_init_s=10.0))
    assert compare.verdict(checks)[0] == "PASS"
    warned = compare.warnings(checks)
    assert [(c.metric, c.status) for c in warned] == [("kernel_to_init_s",
                                                        compare.WARN)]


def test_one_repeat_of_a_time_is_inconclusive():
    """A single run has no spread: its time decides nothing, a count
    still does."""
    checks = compare.compare(MANIFEST, {"t": {"stock": dict(BASE)}},
                             {"stock": {"topologies": {"t": {
                                 "metrics": BASE}}}}, LIMITS)
    by = {c.metric: c.status for c in checks}
    assert by["procdevices_ns_per_read_0"] == compare.INCONCLUSIVE
    assert by["block_dynamic_capacity"] == compare.PASS
