"""Reading a finished (or partial) sweep: manifest plus results.json files."""

import os

from blkscale.results.read import read_manifest, read_results

from . import metrics
from .errors import BenchError
from .manifest import FILENAME


def load(run_dir):
    """(manifest, {(topology, variant): results doc}) of a sweep directory."""
    path = os.path.join(run_dir, FILENAME)
    manifest = read_manifest(run_dir)
    if manifest is None:
        raise BenchError(path, None, "missing: not a sweep run directory "
                         "(made by `blkscale bench` or `blkscale nightly`)")
    docs = {}
    for i, entry in enumerate(manifest.get("runs") or []):
        rel = entry.get("results")
        if rel and not entry.get("superseded"):
            docs[(entry["topology"], entry["variant"])] = read_results(
                run_dir, rel, path, f"runs[{i}].results")
    return manifest, docs


def figures(manifest, docs):
    """{topology: {variant: {metric: value}}} including cross metrics
    against the sweep's reference variant."""
    ref = (manifest.get("sweep") or {}).get("reference", "stock")
    out = {}
    for (topo, variant), doc in docs.items():
        out.setdefault(topo, {})[variant] = metrics.extract(doc)
    for topo, by_variant in out.items():
        ref_values = by_variant.get(ref)
        for variant, values in by_variant.items():
            if variant == ref or ref_values is None:
                continue
            values.update(metrics.cross(values, ref_values, ref))
    return out
