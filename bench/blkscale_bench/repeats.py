"""A sweep's results by repeat: every run's results.json grouped by
topology and variant, and the figures of metrics.py as stats.Summary
over the repeats (median, spread, interval), with each variant's ratio
to the reference taken per repeat."""

import os

from . import metrics
from .errors import BenchError
from .manifest import FILENAME
from blkscale.errors import InputError
from blkscale.results.read import read_manifest, read_results
from blkscale.stats import Summary, paired_ratio


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
    path = os.path.join(run_dir, FILENAME)
    if manifest is None:
        raise BenchError(path, None, "missing: not a sweep run directory "
                         "(made by `blkscale bench` or `blkscale nightly`)")
    drop_unfinished_round(manifest)
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


STOPPED = ("interrupted", "killed")


def drop_unfinished_round(manifest):
    """A round of repeats the nightly added to decide its times, stopped
    by a signal before it ended, is left out whole (in memory: marked
    superseded, as the nightly itself marks it since it does so), so that
    the sweep as planned is judged and not half a round.  Returns the
    (topology, repeat) rounds left out."""
    planned = (manifest.get("sweep") or {}).get("repeat", 1)
    variants = (manifest.get("sweep") or {}).get("variants") or []
    rounds = {}
    for entry in manifest.get("runs") or []:
        if entry.get("repeat", 1) > planned and not entry.get("superseded"):
            rounds.setdefault((entry["topology"], entry["repeat"]),
                              []).append(entry)
    stopped = (manifest.get("partial_reason") or "").startswith(
        "interrupted")
    dropped = set()
    for key, entries in rounds.items():
        unfinished = any(e.get("outcome") in STOPPED for e in entries) or \
            (stopped and len(entries) < len(variants))
        if unfinished and stopped:
            for e in entries:
                e["superseded"] = True
                e["superseded_why"] = f"repeat {key[1]} was interrupted " \
                    "while the nightly decided its times"
            dropped.add(key)
    if dropped:
        manifest["decide_stopped"] = {"repeat": min(r for _, r in dropped),
                                      "reason": manifest["partial_reason"]}
        manifest["status"], manifest["partial_reason"] = "complete", None
    return dropped


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
