"""A sweep's results by repeat: every run's results.json grouped by
topology and variant, and the figures of metrics.py as stats.Summary
over the repeats (median, spread, interval), with each variant's ratio
to the reference taken per repeat."""

import json
import os

from . import metrics, rundir
from .errors import BenchError
from .manifest import FILENAME
from blkscale.stats import Summary, paired_ratio


def load(run_dir):
    """(manifest, {(topology, variant): {repeat: results doc}})."""
    manifest, _ = rundir.load(run_dir)
    path = os.path.join(run_dir, FILENAME)
    docs = {}
    ran_on = {}
    for i, entry in enumerate(manifest.get("runs") or []):
        rel = entry.get("results")
        if not rel or entry.get("superseded"):
            continue
        check_one_host(ran_on, entry, path, i)
        try:
            with open(os.path.join(run_dir, rel)) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise BenchError(path, f"runs[{i}].results",
                             f"{rel}: unreadable: {e}") from None
        key = (entry["topology"], entry["variant"])
        docs.setdefault(key, {})[entry.get("repeat", 1)] = doc
    return manifest, docs


def check_one_host(ran_on, entry, where, i):
    """Figures of different hosts are never pooled into one median: the
    runs of a topology that count must all come from one host."""
    topo, host = entry["topology"], entry.get("host")
    first = ran_on.setdefault(topo, host)
    if first != host:
        raise BenchError(where, f"runs[{i}].host", f"{host}: topology {topo}"
                         f" also ran on {first}; figures of two hosts are "
                         "never pooled")


def latest(docs):
    """{(topology, variant): doc} of the last repeat: for readers of one
    document per run."""
    return {key: by_repeat[max(by_repeat)]
            for key, by_repeat in docs.items() if by_repeat}


def figures(manifest, docs):
    """{topology: {variant: {metric: Summary}}} including the cross
    metrics against the sweep's reference variant, paired by repeat."""
    ref = (manifest.get("sweep") or {}).get("reference", "stock")
    out = {}
    for (topo, variant), by_repeat in docs.items():
        extracted = {k: metrics.extract(doc) for k, doc in by_repeat.items()}
        out.setdefault(topo, {})[variant] = {
            m.name: Summary.of({k: e[m.name] for k, e in extracted.items()})
            for m in metrics.METRICS}
    for topo, by_variant in out.items():
        ref_values = by_variant.get(ref)
        for variant, values in by_variant.items():
            if variant == ref or ref_values is None:
                continue
            for m in metrics.METRICS:
                if m.cross:
                    values[metrics.cross_name(m.name, ref)] = paired_ratio(
                        values[m.name], ref_values[m.name])
    return out


def medians(figures):
    """The same tree with each Summary replaced by its median (None when
    no repeat brought the figure)."""
    return {topo: {v: {name: s.median for name, s in values.items()}
                   for v, values in by_variant.items()}
            for topo, by_variant in figures.items()}


def to_json(figures):
    """The tree as JSON: each figure's median, min, max, n and interval."""
    return {topo: {v: {name: s.to_json() for name, s in values.items()}
                   for v, values in by_variant.items()}
            for topo, by_variant in figures.items()}
