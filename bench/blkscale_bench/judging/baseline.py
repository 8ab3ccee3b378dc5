"""Committed baselines: bench/baselines/<variant>.json, one per kernel
variant, holding the figures of a reviewed nightly run.

Refreshed with `make baseline RUN=results/<run>` (or `blkscale baseline
RUN_DIR`), then reviewed and committed like code.
"""

import json
import os

from blkscale import kernels, seriesrev
from blkscale.errors import InputError
from blkscale.results.atomic import write_json_atomic

from .. import BENCH
from ..errors import BenchError

SCHEMA = {"name": "blkscale-baseline", "version": 1}
DEFAULT_DIR = BENCH / "baselines"


def path_of(directory, variant):
    return os.path.join(directory, f"{variant}.json")


def series_of(docs, variant, where):
    """The patch-ids the variant's kernel carried in every repeat of the
    sweep (results.json's kernel.patches; [] for none); None where no
    repeat recorded them.  A sweep whose repeats ran different builds
    of it is an error (BenchError)."""
    seen = set()
    for (_, v), by_repeat in docs.items():
        if v != variant:
            continue
        for doc in by_repeat.values():
            patches = (doc.get("kernel") or {}).get("patches")
            if patches is not None:
                seen.add(tuple(p.get("patch_id") for p in patches))
    if len(seen) > 1:
        raise BenchError(where, "runs", f"{variant}'s repeats ran kernels "
                         "with different patches: one build per baseline")
    return list(seen.pop()) if seen else None


def series_commit(variant, ids):
    """The commit of this repository whose patch directory of the
    variant has exactly the patch-ids ids (kernel/variants.toml's
    series_at boots it again); None if the variant declares none, or no
    commit has that series (it was never committed)."""
    try:
        patch_dir = kernels.get(variant).patches
    except InputError:
        return None
    if patch_dir is None or ids is None:
        return None
    return seriesrev.find_commit(patch_dir, ids)


def build(manifest, figures, variant, series=None, commit=None):
    """The baseline document of one variant of a sweep; series: the
    patch-ids its kernel carried, commit: the commit holding them."""
    kernels = manifest.get("kernels") or {}
    source = {
        "run": manifest.get("run"),
        "sweep": (manifest.get("sweep") or {}).get("file"),
        "finished": manifest.get("finished"),
        "git": manifest.get("git"),
        "kernel_release": kernels.get(variant),
        "qemu_version": manifest.get("qemu_version"),
        "accelerator": manifest.get("accelerator"),
        "host_cpu": manifest.get("host_cpu"),
        "host_cpus": manifest.get("host_cpus"),
        "series": series,
        "series_commit": commit,
    }
    topologies = {}
    files = (manifest.get("sweep") or {}).get("topologies") or {}
    for topo, by_variant in figures.items():
        values = by_variant.get(variant)
        if not values:
            continue
        topologies[topo] = {
            "topology_file": files.get(topo),
            "metrics": {k: v for k, v in sorted(values.items())
                        if v is not None},
        }
    return {"schema": SCHEMA, "variant": variant,
            "reference": (manifest.get("sweep") or {}).get("reference"),
            "source": source, "topologies": topologies}


def merge(old, new):
    """new over old, topology by topology: the topologies new's sweep did
    not run keep their figures, each saying which run it came from (a
    tool change that moves one topology's figures is re-measured on that
    topology alone)."""
    if not old:
        return new
    topologies = {}
    for topo, entry in (old.get("topologies") or {}).items():
        topologies[topo] = dict(entry,
                                source=entry.get("source") or old["source"])
    for topo, entry in new["topologies"].items():
        topologies[topo] = dict(entry, source=new["source"])
    return dict(new, topologies=topologies)


def write(directory, doc):
    os.makedirs(directory, exist_ok=True)
    path = path_of(directory, doc["variant"])
    write_json_atomic(path, doc)
    return path


def load(directory, variant):
    """The baseline of a variant, None if there is none, BenchError if bad."""
    path = path_of(directory, variant)
    try:
        with open(path) as f:
            doc = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise BenchError(path, None, f"unreadable: {e}") from None
    if doc.get("schema") != SCHEMA:
        raise BenchError(path, "schema", f"must be {SCHEMA}")
    if doc.get("variant") != variant:
        raise BenchError(path, "variant", f"must be {variant!r}")
    topos = doc.get("topologies")
    if not isinstance(topos, dict):
        raise BenchError(path, "topologies", "must be an object")
    for name, entry in topos.items():
        values = (entry or {}).get("metrics")
        if not isinstance(values, dict):
            raise BenchError(path, f"topologies.{name}.metrics",
                             "must be an object")
        for metric, value in values.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise BenchError(path, f"topologies.{name}.metrics.{metric}",
                                 "must be a number")
    return doc
