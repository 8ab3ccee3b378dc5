"""A planted regression beyond its threshold is caught, in both
directions (a time that grows, a capacity that drops); an absolute time
beyond its ratio only warns, its ratio to stock fails."""

from blkscale.figures import compare, metrics
from blkscale.figures.stats import Summary

LIMITS = metrics.thresholds("stock")
MANIFEST = {"sweep": {"topologies": {"t": "t.toml"}, "variants": ["patched"]},
            "runs": [{"topology": "t", "variant": "patched",
                      "outcome": "ok", "message": "ok"}]}


def _baseline(values):
    return {"patched": {"topologies": {"t": {"metrics": values}}}}


def _three(values):
    """Each figure measured three times, the same each time."""
    return {k: Summary.of([v] * 3) for k, v in values.items()}


def _failed(current, base):
    checks = compare.compare(MANIFEST, {"t": {"patched": _three(current)}},
                             _baseline(base), LIMITS)
    return {c.metric: c for c in checks if c.failed}


def test_time_growth_caught():
    cross = metrics.cross_name("procdevices_ns_per_read_0", "stock")
    base = {"procdevices_ns_per_read_0": 30000, cross: 0.3,
            "kernel_to_init_s": 4.0}
    checks = compare.compare(MANIFEST, {"t": {"patched": _three({
        "procdevices_ns_per_read_0": 60000, cross: 0.61,
        "kernel_to_init_s": 4.0})}}, _baseline(base), LIMITS)
    by = {c.metric: c for c in checks}
    assert by[cross].status == compare.REGRESSION
    assert by[cross].message == \
        f"{cross}: 0.61 > 0.3 x 1.2 (2.03x); 3 repeats: fails at >= 0.36; " \
        "passes only at <= 0.36"
    assert by["procdevices_ns_per_read_0"].status == compare.WARN
    assert "60000 > 30000 x 1.5 (2.00x)" in \
        by["procdevices_ns_per_read_0"].message
    assert by["kernel_to_init_s"].status == compare.PASS
    assert [c.metric for c in checks if c.failed] == [cross]


def test_capacity_drop_caught():
    failed = _failed({"block_dynamic_capacity": 3730},
                     {"block_dynamic_capacity": 3731})
    assert failed["block_dynamic_capacity"].status == compare.REGRESSION


def test_zero_baseline_must_stay_zero():
    failed = _failed({"block_static_collisions": 1},
                     {"block_static_collisions": 0})
    assert "block_static_collisions" in failed


def test_cross_ratio_threshold():
    name = metrics.cross_name("kernel_to_init_s", "stock")
    failed = _failed({name: 1.6}, {name: 1.2})
    assert failed[name].status == compare.REGRESSION
    assert _failed({name: 1.55}, {name: 1.2}) == {}


def test_verdict():
    checks = compare.compare(MANIFEST, {"t": {"patched": {
        "fio_failed": 2}}}, _baseline({"fio_failed": 0}), LIMITS)
    result, failed = compare.verdict(checks)
    assert result == "REGRESSION" and [c.metric for c in failed] == \
        ["fio_failed"]


def test_per_call_costs_gate_only_where_times_gate():
    """A per-call cost 2x its baseline ratio fails on a topology that
    gate_times names and only warns on one it leaves out."""
    cross = metrics.cross_name("register_p50_ns", "stock")
    args = (MANIFEST, {"t": {"patched": _three({cross: 2.0})}},
            _baseline({cross: 1.0}), LIMITS)
    gated = {c.metric: c for c in compare.compare(*args, gate_times=["t"])}
    assert gated[cross].status == compare.REGRESSION
    advisory = {c.metric: c for c in compare.compare(*args,
                                                     gate_times=["other"])}
    assert advisory[cross].status == compare.WARN
    assert not advisory[cross].failed
