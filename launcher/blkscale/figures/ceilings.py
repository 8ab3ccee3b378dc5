"""Absolute ceilings on a variant's figures relative to the reference
variant of the same sweep: limits that do not move with the baseline,
so that a regression that crept into a baseline refresh is still caught.

Every `<metric>_vs_<reference>` figure has one (CEILINGS); on top of
them, /proc/devices must cost the variant at most what it costs the
reference at every other registered count both measured
(`procdevices_ns_per_read_at_<r>_vs_<reference>`, and in reference
steps `procdevices_ref_per_read_at_<r>_vs_<reference>`).  A per-call
cost in ns only advises where the run has it in reference steps
(metrics.superseded).  Each is judged per
repeat-paired ratio as compare.py judges a figure: a count or memory
repeat by repeat, a time or per-call cost by a one-sided bound on the
mean of its logs (onesided.py), a time's repeats moved first by what
the host's load could explain (loadband.py).

Absolute ceilings (the sweep file's [[ceilings]]: a topology, a
variant or all, a metric and its largest value in the metric's unit)
are the figures a capacity planner quotes, boot to census at 4000
disks or the guest's slab per disk, held to a number that does not
move with any baseline.
"""

from ..results.runresults import Results, number
from . import compare, loadband, metrics, onesided, verdict as judged
from .stats import Summary, paired_ratio

# metric -> ("max" | "min", limit) of <metric>_vs_<reference>.  Boot
# times: at most metrics.CROSS_TIME of the reference's, per-call costs
# metrics.CROSS_CALL (a repeat-paired ratio whose bounds do not clear it
# is inconclusive and gets more repeats); the patched kernel must not
# read /proc/devices, /proc/partitions or /proc/diskstats slower than
# stock, nor hand out fewer dynamic majors, nor use more than 1.1x the
# slab per disk in any repeat.
CEILINGS = {
    "kernel_to_init_s": ("max", metrics.CROSS_TIME),
    "census_complete_s": ("max", metrics.CROSS_TIME),
    "block_dynamic_capacity": ("min", 1.0),
    "register_p50_ns": ("max", metrics.CROSS_CALL),
    "register_p50_ref": ("max", metrics.CROSS_CALL),
    "lookup_p50_ns": ("max", metrics.CROSS_CALL),
    "lookup_p50_ref": ("max", metrics.CROSS_CALL),
    "procdevices_ns_per_read_0": ("max", 1.0),
    "procdevices_ref_per_read_0": ("max", 1.0),
    "procdevices_ns_per_read_200": ("max", 1.0),
    "procdevices_ref_per_read_200": ("max", 1.0),
    "partitions_ns_per_read": ("max", 1.0),
    "partitions_ref_per_read": ("max", 1.0),
    "diskstats_ns_per_read": ("max", 1.0),
    "diskstats_ref_per_read": ("max", 1.0),
    "guest_slab_kib_per_disk": ("max", 1.1),
}
PROCDEV_PER_COUNT = ("max", 1.0)


def _procdev_by_count(doc, key):
    """{registered: point[key]} of a results document (ns_per_read,
    ref_per_read)."""
    out = {}
    for p in Results.of(doc).procdevices_points:
        if number(p.get("registered")) is not None \
                and number(p.get(key)) is not None:
            out[p["registered"]] = p[key]
    return out


def procdev_ratios(docs, variant, reference, key="ns_per_read"):
    """{registered: Summary of variant/reference} of a point's key at
    every count both measured; docs: {variant: {repeat: results doc}} of
    one topology."""
    mine = {k: _procdev_by_count(d, key) for k, d in
            (docs.get(variant) or {}).items()}
    theirs = {k: _procdev_by_count(d, key) for k, d in
              (docs.get(reference) or {}).items()}
    counts = set()
    for k in mine:
        if k in theirs:
            counts |= set(mine[k]) & set(theirs[k])
    return {r: paired_ratio({k: v.get(r) for k, v in mine.items()},
                            {k: v.get(r) for k, v in theirs.items()})
            for r in sorted(counts)}


def _check(topo, variant, name, spread, kind, limit, figure_kind=None,
           band=None, what="ceiling", repeats=None, gate=True):
    limit_doc = {f"{kind}_ceiling": limit, "gate": gate}
    if spread is None or not spread.n:
        return compare.Check(topo, variant, name, compare.MISSING,
                             None, None, limit_doc,
                             f"{name}: missing ({what} {limit:g})")
    missing = compare.missing_in(topo, variant, name, None, spread,
                                 repeats, limit_doc)
    if missing is not None:
        return missing
    sign = "<=" if kind == "max" else ">="
    if figure_kind in (metrics.EXACT, metrics.MEMORY):
        bad = {k: v for k, v in sorted(spread.values.items())
               if judged.judge(Summary.of([v]), **{kind: limit})
               == judged.FAIL}
        if bad:
            said = "; ".join(f"repeat {k}: {v:.4g}" for k, v in bad.items())
            return compare.Check(topo, variant, name, compare.REGRESSION,
                                 None, spread.median, limit_doc,
                                 f"{name}: {said}, beyond the {what} "
                                 f"{sign} {limit:g}", spread.to_json(),
                                 repeats=spread.n, kind=figure_kind)
        return compare.Check(topo, variant, name, compare.PASS, None,
                             spread.median, limit_doc,
                             f"{name}: {spread.median:.4g} in each of "
                             f"{spread.n} repeats, {sign} {limit:g}",
                             spread.to_json(), repeats=spread.n,
                             kind=figure_kind)
    decision = compare.decide(spread, limit, kind, band)
    power = decision.power()
    text = spread.text(lambda x: f"{x:.3g}")
    common = dict(repeats=spread.n, kind=figure_kind,
                  fails_at=decision.fails_at, passes_at=decision.passes_at,
                  needed=decision.needed)
    if decision.said == onesided.PASS:
        status, msg = compare.PASS, f"{name}: {text}, {sign} {limit:g}; " \
            + power
    elif decision.said == onesided.FAIL:
        status = compare.REGRESSION if gate else compare.WARN
        msg = f"{name}: {text}, beyond the {what} {sign} {limit:g}; {power}"
    else:
        status = compare.INCONCLUSIVE
        common["undecided"] = gate and decision.by_spread
        if decision.by_spread or decision.n < 2:
            why = compare.bound_text(decision, limit)
        else:
            why = compare.hopeless_text(decision)
        msg = f"{name}: {text} vs {what} {limit:g}: {why}; {power}"
    return compare.Check(topo, variant, name, status, None, spread.median,
                         limit_doc, msg, spread.to_json(), **common)


def checks(figures, docs, reference, loads=None, gate_times=None,
           same_kernel=()):
    """Ceiling checks of every variant but the reference and those in
    same_kernel (judged by the reference's own baseline beside it, at
    1.0 of it: compare.beside; the ceilings say what the series may cost
    against stock).

    figures: {topology: {variant: {metric: Summary}}} (repeats.figures);
    docs: {(topology, variant): {repeat: results doc}}; loads:
    loadband.Loads of the sweep; gate_times: the topologies whose boot
    times gate (None: all), the others' ceilings on them only warn."""
    loads = loads or loadband.Loads(None)
    out = []
    for topo, by_variant in figures.items():
        if reference not in by_variant:
            continue
        per_topo = {v: d for (t, v), d in docs.items() if t == topo}
        for variant, values in by_variant.items():
            if variant == reference or variant in same_kernel:
                continue
            paired = set(per_topo.get(variant) or {}) & \
                set(per_topo.get(reference) or {})
            for metric, (kind, limit) in CEILINGS.items():
                name = metrics.cross_name(metric, reference)
                spread = values.get(name)
                if spread is not None and not isinstance(spread, Summary):
                    spread = Summary.of([spread])
                if spread is None or not spread.n:
                    continue    # the figure's own check reports it missing
                fk = metrics.kind_of(metric, reference)
                band = loadband.ratio_shifts(spread.values, loads, topo,
                                             variant, reference) \
                    if fk == metrics.TIME else None
                gate = fk not in metrics.TIMED or \
                    compare.times_gate(topo, gate_times) and \
                    not metrics.superseded(name, reference, values)
                out.append(_check(topo, variant, name, spread, kind, limit,
                                  fk, band, repeats=paired, gate=gate))
            out += _procdev_checks(topo, variant, reference, per_topo,
                                   compare.times_gate(topo, gate_times))
    return out


def _procdev_checks(topo, variant, reference, per_topo, times_gating):
    """/proc/devices at every registered count both kernels measured,
    in ns and in reference steps; at a count with both, ns advises."""
    kind, limit = PROCDEV_PER_COUNT
    in_steps = procdev_ratios(per_topo, variant, reference, "ref_per_read")
    out = []
    for key, ratios in (("ns_per_read", procdev_ratios(per_topo, variant,
                                                       reference)),
                        ("ref_per_read", in_steps)):
        for r, spread in ratios.items():
            if f"procdevices_{key}_{r}" in CEILINGS:
                continue    # judged above under its own name
            name = metrics.cross_name(f"procdevices_{key}_at_{r}", reference)
            gate = times_gating and (key == "ref_per_read" or
                                     not in_steps.get(r, Summary.of([])).n)
            out.append(_check(topo, variant, name, spread, kind, limit,
                              metrics.CALL, gate=gate))
    return out


def absolute(ceilings, figures, loads=None, docs=None):
    """Checks of the sweep's absolute ceilings ([[ceilings]]: topology,
    variant or all, metric, max or min) against the figures' repeats;
    docs as checks' (which repeats brought results)."""
    loads = loads or loadband.Loads(None)
    out = []
    for c in ceilings or []:
        by_variant = figures.get(c["topology"]) or {}
        variants = [c["variant"]] if c.get("variant") else sorted(by_variant)
        for variant in variants:
            spread = (by_variant.get(variant) or {}).get(c["metric"])
            kind = "max" if "max" in c else "min"
            fk = metrics.kind_of(c["metric"])
            band = None
            if fk == metrics.TIME and spread is not None and spread.n:
                band = loadband.absolute_shifts(spread.values, loads,
                                                c["topology"], variant)
            name = f"{c['metric']}_ceiling"
            out.append(_check(c["topology"], variant, name, spread, kind,
                              c[kind], fk, band, "absolute ceiling",
                              (docs or {}).get((c["topology"], variant))))
    return out
