"""Reading a finished (or partial) sweep: manifest plus results.json files."""

import json
import os

from . import metrics
from .manifest import FILENAME
from .errors import BenchError


def load(run_dir):
    """(manifest, {(topology, variant): results doc}) of a sweep directory."""
    path = os.path.join(run_dir, FILENAME)
    try:
        with open(path) as f:
            manifest = json.load(f)
    except FileNotFoundError:
        raise BenchError(path, None, "missing: not a sweep run directory "
                         "(made by `blkscale bench` or `blkscale nightly`)") \
            from None
    except (OSError, ValueError) as e:
        raise BenchError(path, None, f"unreadable: {e}") from None
    if (manifest.get("schema") or {}).get("name") != "blkscale-sweep":
        raise BenchError(path, "schema.name", "is not blkscale-sweep")
    docs = {}
    for i, entry in enumerate(manifest.get("runs") or []):
        rel = entry.get("results")
        if not rel:
            continue
        rpath = os.path.join(run_dir, rel)
        try:
            with open(rpath) as f:
                docs[(entry["topology"], entry["variant"])] = json.load(f)
        except (OSError, ValueError) as e:
            raise BenchError(path, f"runs[{i}].results",
                             f"{rel}: unreadable: {e}") from None
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
