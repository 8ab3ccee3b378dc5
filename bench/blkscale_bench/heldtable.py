"""register_blkdev at equal numbers of held majors, between two variants.

A kernel's register_p50 is the median of its register curve over every
count of held majors it reaches: 234 on stock, about 3760 on the
patched kernel.  The ratio of two such medians compares different
curves: where one kernel's cost grows with the majors held and the
other's is flat, it moves with the reference's slope as much as with
either kernel's code.  Here the two are compared where both measured:
at each bucket of the register curve (majors held when the calls began)
that both curves have, covering the same held counts, each variant's
median p50, and their ratio
taken per run pair (the same topology and repeat, minutes apart), with
its spread; then every common bucket's ratio pooled per pair as their
geometric mean.
"""

from scipy import stats as sps

from blkscale.figures import stats

from .errors import BenchError


def _curves(docs, wanted):
    """{(topology, repeat): {(first, end): p50_ns}} of one variant's warm
    register curves: each bucket by the held counts it covers, from its
    `registered` to the next bucket's (the last to the capacity)."""
    out = {}
    for (topo, variant), by_repeat in docs.items():
        if variant != wanted:
            continue
        for rep, doc in by_repeat.items():
            block = ((doc or {}).get("majors") or {}).get("block") or {}
            points = sorted((c["registered"], c.get("p50_ns"))
                            for c in block.get("register") or [])
            ends = [p[0] for p in points[1:]] + \
                [block.get("dynamic_capacity")]
            curve = {(first, end): p50 for (first, p50), end
                     in zip(points, ends) if p50 is not None and end}
            if curve:
                out[(topo, rep)] = curve
    return out


def parse_pair(text):
    """"A/B" -> (A, B)."""
    a, sep, b = text.partition("/")
    if not sep or not a or not b:
        raise BenchError("command line", "--held", f"{text!r}: give two "
                         "variants as A/B (patched-6.12/patched)")
    return a, b


def compare(docs, a, b):
    """(rows, pooled): rows [((first, end), Summary of a's p50, Summary
    of b's p50, Summary of a/b)] for each bucket that both curves of a
    run pair have, over those pairs; pooled the Summary of each pair's
    geometric mean ratio over its common buckets."""
    ca, cb = _curves(docs, a), _curves(docs, b)
    pairs = sorted(set(ca) & set(cb))
    common = {p: set(ca[p]) & set(cb[p]) for p in pairs}
    rows = []
    for bucket in sorted(set().union(*common.values()) if common else ()):
        have = [p for p in pairs if bucket in common[p]]
        va = {p: ca[p][bucket] for p in have}
        vb = {p: cb[p][bucket] for p in have}
        rows.append((bucket, stats.Summary.of(va), stats.Summary.of(vb),
                     stats.paired_ratio(va, vb)))
    pooled = {}
    for p in pairs:
        ratios = [ca[p][k] / cb[p][k] for k in common[p]
                  if ca[p][k] and cb[p][k]]
        if ratios:
            pooled[p] = float(sps.gmean(ratios))
    return rows, stats.Summary.of(pooled)


def lines(docs, variants, a, b):
    for v in (a, b):
        if v not in variants:
            raise BenchError("command line", "--held", f"{v!r} is not a "
                             f"variant of the sweep (it has "
                             f"{', '.join(variants)})")
    rows, pooled = compare(docs, a, b)
    title = f"register_blkdev at equal held majors: {a} / {b}"
    if not rows:
        return [title, "  no register curve common to both"]
    n = pooled.n
    ns = (lambda x: f"{x:.0f}")
    out = [f"{title} ({n} run pairs: topology x repeat; median p50 ns "
           "[spread], ratio per pair)",
           f"  {'held':>11}  {a:>24}  {b:>24}  ratio"]
    for (first, end), sa, sb, ratio in rows:
        fewer = f" ({ratio.n} pairs)" if ratio.n != n else ""
        out.append(f"  {f'{first}-{end - 1}':>11}  {sa.text(ns):>24}  "
                   f"{sb.text(ns):>24}  {stats.ratio_text(ratio)}{fewer}")
    out.append("  every common bucket (geometric mean per pair): "
               f"{stats.ratio_text(pooled, lambda x: f'{x:.3f}')}")
    return out
