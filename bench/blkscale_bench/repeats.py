"""A sweep's results by repeat: every run's results.json grouped by
topology and variant, and the figures of metrics.py as stats.Summary
over the repeats (median, spread, interval), with each variant's ratio
to the reference taken per repeat."""

from blkscale.figures import byvariant
from .errors import BenchError
from blkscale.errors import InputError
from blkscale.results.manifest import path_in as manifest_path
from blkscale.results.read import (check_one_host, read_manifest,
                                   read_results)


def load(run_dir):
    """(manifest, {(topology, variant): {repeat: results doc}}); a
    results file that cannot be read is an error (BenchError)."""
    manifest, docs, broken = load_all(run_dir)
    if broken:
        err = next(iter(broken.values()))
        raise BenchError(err.path, err.field, err.problem)
    return manifest, docs


def load_all(run_dir):
    """(manifest, docs, broken): docs as load's; broken {(topology,
    variant, repeat): InputError} of the runs whose
    results.json is named but cannot be read: for the nightly, a failed
    run like any other."""
    manifest = read_manifest(run_dir)
    path = manifest_path(run_dir)
    if manifest is None:
        raise BenchError(path, None, "missing: not a sweep run directory "
                         "(made by `blkscale bench` or `blkscale nightly`)")
    manifest = manifest.judged()
    docs, broken = {}, {}
    ran_on = {}
    for i, entry in enumerate(manifest.get("runs") or []):
        rel = entry.get("results")
        if not rel or entry.get("superseded"):
            continue
        check_one_host(ran_on, entry, path, i)
        key = (entry["topology"], entry["variant"])
        rep = entry.get("repeat", 1)
        field = f"runs[{i}].results"
        try:
            doc = read_results(run_dir, rel, path, field)
        except InputError as e:
            broken[key + (rep,)] = e
            continue
        docs.setdefault(key, {})[rep] = doc
    return manifest, docs, broken


def latest(docs):
    """{(topology, variant): doc} of the last repeat: for readers of one
    document per run."""
    return {key: by_repeat[max(by_repeat)]
            for key, by_repeat in docs.items() if by_repeat}


def figures(manifest, docs):
    """{topology: {variant: {metric: Summary}}} including the cross
    metrics against the sweep's reference variant, paired by repeat
    (blkscale.figures.byvariant)."""
    ref = manifest.reference
    return byvariant.figures(docs, ref)


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
