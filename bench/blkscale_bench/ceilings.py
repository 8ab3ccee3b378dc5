"""Absolute ceilings on a variant's figures relative to the reference
variant of the same sweep: limits that do not move with the baseline,
so that a regression that crept into a baseline refresh is still caught.

Every `<metric>_vs_<reference>` figure has one (CEILINGS); on top of
them, /proc/devices must cost the variant at most what it costs the
reference at every other registered count both measured
(`procdevices_ns_per_read_at_<r>_vs_<reference>`).  Each is judged per
repeat-paired ratio with verdict.py: pass, fail (a regression) or
inconclusive.
"""

from . import compare, metrics, verdict as judged
from blkscale.results.read import lookup, number
from blkscale.stats import Summary, paired_ratio

# metric -> ("max" | "min", limit) of <metric>_vs_<reference>.  Times:
# at most twice the reference's (the noise between two variants' runs
# a minute apart reached 2x on the shared TCG host); the patched
# kernel must not read /proc/devices slower than stock, nor hand out
# fewer dynamic majors, nor use more than 1.1x the slab per disk.
CEILINGS = {
    "kernel_to_init_s": ("max", 2.0),
    "census_complete_s": ("max", 2.0),
    "block_dynamic_capacity": ("min", 1.0),
    "register_p50_ns": ("max", 2.0),
    "lookup_p50_ns": ("max", 2.0),
    "procdevices_ns_per_read_0": ("max", 1.0),
    "procdevices_ns_per_read_200": ("max", 1.0),
    "guest_slab_kib_per_disk": ("max", 1.1),
}
PROCDEV_PER_COUNT = ("max", 1.0)


def _procdev_by_count(doc):
    """{registered: ns_per_read} of a results document."""
    out = {}
    for p in lookup(doc, "procdevices", "points") or []:
        if isinstance(p, dict) and number(p.get("registered")) is not None \
                and number(p.get("ns_per_read")) is not None:
            out[p["registered"]] = p["ns_per_read"]
    return out


def procdev_ratios(docs, variant, reference):
    """{registered: Summary of variant/reference} at every count both
    measured; docs: {variant: {repeat: results doc}} of one topology."""
    mine = {k: _procdev_by_count(d) for k, d in
            (docs.get(variant) or {}).items()}
    theirs = {k: _procdev_by_count(d) for k, d in
              (docs.get(reference) or {}).items()}
    counts = set()
    for k in mine:
        if k in theirs:
            counts |= set(mine[k]) & set(theirs[k])
    return {r: paired_ratio({k: v.get(r) for k, v in mine.items()},
                            {k: v.get(r) for k, v in theirs.items()})
            for r in sorted(counts)}


def _check(topo, variant, name, spread, kind, limit):
    limit_doc = {f"{kind}_ceiling": limit, "gate": True}
    if spread is None or not spread.n:
        return compare.Check(topo, variant, name, compare.MISSING,
                             None, None, limit_doc,
                             f"{name}: missing (ceiling {limit:g})")
    said = judged.judge(spread, **{kind: limit})
    text = spread.text(lambda x: f"{x:.3g}")
    sign = "<=" if kind == "max" else ">="
    if said == judged.PASS:
        status, msg = compare.PASS, f"{name}: {text}, {sign} {limit:g}"
    elif said == judged.FAIL:
        status, msg = compare.REGRESSION, \
            f"{name}: {text}, beyond the ceiling {sign} {limit:g}"
    else:
        status, msg = compare.INCONCLUSIVE, \
            f"{name}: {text} vs ceiling {limit:g}: " + \
            judged.straddle_text(spread, limit)
    return compare.Check(topo, variant, name, status, None, spread.median,
                         limit_doc, msg, spread.to_json())


def checks(figures, docs, reference):
    """Ceiling checks of every variant but the reference.

    figures: {topology: {variant: {metric: Summary}}} (repeats.figures);
    docs: {(topology, variant): {repeat: results doc}}."""
    out = []
    for topo, by_variant in figures.items():
        if reference not in by_variant:
            continue
        per_topo = {v: d for (t, v), d in docs.items() if t == topo}
        for variant, values in by_variant.items():
            if variant == reference:
                continue
            for metric, (kind, limit) in CEILINGS.items():
                name = metrics.cross_name(metric, reference)
                spread = values.get(name)
                if spread is not None and not isinstance(spread, Summary):
                    spread = Summary.of([spread])
                if spread is None or not spread.n:
                    continue    # the figure's own check reports it missing
                out.append(_check(topo, variant, name, spread, kind, limit))
            kind, limit = PROCDEV_PER_COUNT
            for r, spread in procdev_ratios(per_topo, variant,
                                            reference).items():
                if f"procdevices_ns_per_read_{r}" in CEILINGS:
                    continue    # judged above under its own name
                name = metrics.cross_name(f"procdevices_ns_per_read_at_{r}",
                                          reference)
                out.append(_check(topo, variant, name, spread, kind, limit))
    return out
