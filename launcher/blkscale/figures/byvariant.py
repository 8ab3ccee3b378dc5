"""A sweep's figures over its repeats: every metric of metrics.py as a
stats.Summary per topology and variant, with each variant's ratio to the
reference variant taken per repeat (the cross metrics).  The bench's
tables and verdicts and the report's summary read the same tree."""

from . import metrics
from .stats import Summary, paired_ratio


def figures(docs, reference):
    """{topology: {variant: {metric: Summary}}} from {(topology,
    variant): {repeat: results doc}}, including the cross metrics
    against `reference`, paired by repeat."""
    out = {}
    for (topo, variant), by_repeat in docs.items():
        extracted = {k: metrics.extract(doc) for k, doc in by_repeat.items()}
        out.setdefault(topo, {})[variant] = {
            m.name: Summary.of({k: e[m.name] for k, e in extracted.items()})
            for m in metrics.METRICS}
    for topo, by_variant in out.items():
        ref_values = by_variant.get(reference)
        for variant, values in by_variant.items():
            if variant == reference or ref_values is None:
                continue
            for m in metrics.METRICS:
                if m.cross:
                    values[metrics.cross_name(m.name, reference)] = \
                        paired_ratio(values[m.name], ref_values[m.name])
    return out
