"""Absolute ceilings on the *_vs_stock ratios, which do not move with
the baseline: pass, fail and straddling cases, and /proc/devices at
every registered count both kernels measured."""

from blkscale.figures import ceilings, compare, loadband, metrics
from blkscale.figures.stats import Summary


def _doc(ns_by_count):
    return {"procdevices": {"points": [
        {"registered": r, "ns_per_read": ns} for r, ns in ns_by_count]}}


def _figures(**ratios):
    values = {metrics.cross_name(k, "stock"): Summary.of(v)
              for k, v in ratios.items()}
    return {"t": {"stock": {}, "patched": values}}


def _by_metric(checks):
    return {c.metric: c for c in checks}


def test_every_cross_metric_has_a_ceiling():
    assert set(ceilings.CEILINGS) == {m.name for m in metrics.METRICS
                                      if m.cross}


def test_ceiling_pass_fail_inconclusive():
    got = _by_metric(ceilings.checks(_figures(
        register_p50_ns=[1.01, 1.05, 1.03],       # <= 1.2: pass
        lookup_p50_ns=[2.1, 2.5, 2.2],            # > 1.2: fail
        kernel_to_init_s=[1.0, 1.5, 1.2],         # straddles 1.3
        block_dynamic_capacity=[15.9, 15.9],      # >= 1: pass
        guest_slab_kib_per_disk=[1.2]),           # > 1.1: fail
        {}, "stock"))
    assert got["register_p50_ns_vs_stock"].status == compare.PASS
    assert got["lookup_p50_ns_vs_stock"].status == compare.REGRESSION
    assert got["lookup_p50_ns_vs_stock"].failed
    assert "beyond the ceiling <= 1.2" in \
        got["lookup_p50_ns_vs_stock"].message
    inc = got["kernel_to_init_s_vs_stock"]
    assert inc.status == compare.INCONCLUSIVE and not inc.failed
    assert "straddle 1.3" in inc.message
    assert f"{inc.needed} repeats would decide it" in inc.message
    assert inc.undecided and inc.repeats == 3 and 3 < inc.needed < 100
    assert got["block_dynamic_capacity_vs_stock"].status == compare.PASS
    assert got["guest_slab_kib_per_disk_vs_stock"].status == \
        compare.REGRESSION
    assert compare.limit_text(inc.limit) == "max_ceiling 1.3, gating"


def test_procdevices_at_every_registered_count():
    docs = {("t", "stock"): {1: _doc([(0, 100), (100, 150), (200, 200)]),
                             2: _doc([(0, 110), (100, 160), (200, 210)])},
            ("t", "patched"): {1: _doc([(0, 30), (100, 170), (3000, 900)]),
                               2: _doc([(0, 33), (100, 150), (3000, 950)])}}
    got = _by_metric(ceilings.checks(_figures(), docs, "stock"))
    # 0 and 200 are judged as procdevices_ns_per_read_{0,200}_vs_stock;
    # 3000 only patched measured.
    assert set(got) == {"procdevices_ns_per_read_at_100_vs_stock"}
    # 170/150 = 1.13 and 150/160 = 0.94 straddle 1.0.
    assert got["procdevices_ns_per_read_at_100_vs_stock"].status == \
        compare.INCONCLUSIVE
    docs[("t", "patched")][2] = _doc([(0, 33), (100, 180)])
    got = _by_metric(ceilings.checks(_figures(), docs, "stock"))
    assert got["procdevices_ns_per_read_at_100_vs_stock"].status == \
        compare.REGRESSION
    docs[("t", "patched")][1] = _doc([(0, 30), (100, 100)])
    docs[("t", "patched")][2] = _doc([(0, 30), (100, 105)])
    got = _by_metric(ceilings.checks(_figures(), docs, "stock"))
    assert got["procdevices_ns_per_read_at_100_vs_stock"].status == \
        compare.PASS


def test_ceiling_does_not_drift_with_the_baseline():
    """A baseline that already holds a 3x slower lookup lets the
    baseline check pass; the ceiling still fails it."""
    figures = _figures(lookup_p50_ns=[3.0, 3.0, 3.0])
    base = {"lookup_p50_ns_vs_stock": 3.0}
    manifest = {"sweep": {"topologies": {"t": "t.toml"},
                          "variants": ["patched"]},
                "runs": [{"topology": "t", "variant": "patched",
                          "outcome": "ok", "message": "ok"}]}
    checks = compare.compare(manifest, {"t": {"patched": figures["t"][
        "patched"]}}, {"patched": {"topologies": {"t": {"metrics": base}}}},
        metrics.thresholds("stock"))
    assert compare.verdict(checks)[0] == "PASS"
    checks += ceilings.checks(figures, {}, "stock")
    assert compare.verdict(checks)[0] == "REGRESSION"


def test_absolute_ceiling_per_topology():
    """A capacity planner's figure held to a number: pass, fail, and a
    fail that the host's load could explain."""
    figures = {"t": {"patched": {"census_complete_s": Summary.of(
        [50.0, 52.0, 51.0])}}}
    spec = [{"topology": "t", "metric": "census_complete_s", "max": 60.0}]
    got = ceilings.absolute(spec, figures)
    assert [c.status for c in got] == [compare.PASS]
    spec[0]["max"] = 40.0
    got = ceilings.absolute(spec, figures)
    assert got[0].status == compare.REGRESSION
    assert got[0].metric == "census_complete_s_ceiling"
    manifest = {"host_cpus": 2, "runs": [
        {"topology": "t", "variant": "patched", "repeat": k, "wall_s": 60,
         "host_load": {"others_cpu_share": 0.5}} for k in (1, 2, 3)]}
    got = ceilings.absolute(spec, figures, loadband.Loads(manifest))
    assert got[0].status == compare.INCONCLUSIVE
    assert "load could explain" in got[0].message and not got[0].undecided
