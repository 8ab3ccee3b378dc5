"""A run directory as the report sees it: metadata and one entry per
(topology, variant) that brought a results.json.

Two layouts are read: a sweep (manifest.json, made by `blkscale bench` or
`blkscale nightly`) and a single launcher run (summary.json, made by
`blkscale run`).
"""

import os
from dataclasses import dataclass, field

from blkscale.results.read import (check_one_host, read_manifest,
                                   read_results, read_summary)
from blkscale.results.manifest import FILENAME as MANIFEST
from blkscale.results.runresults import Results
from blkscale.results.runsummary import FILENAME as SUMMARY

from .errors import ReportError


@dataclass
class Entry:
    topology: str
    variant: str
    outcome: str
    message: str
    doc: dict = None          # results.json, None when the run brought none
    repeat: int = 1
    host: str = None          # the libvirt host of a sweep over hosts

    @property
    def disks(self):
        return Results.of(self.doc).disks_found_total


@dataclass
class Run:
    path: str
    layout: str               # "sweep" or "run"
    meta: dict
    topologies: list          # in sweep order
    variants: list
    reference: str
    entries: list = field(default_factory=list)
    # Entries of other runs, read only as measured points of the capacity
    # plan: a 65,536-disk boot takes too long to be part of a sweep.
    measured: list = field(default_factory=list)

    def entry(self, topology, variant):
        for e in self.entries:
            if e.topology == topology and e.variant == variant and e.doc:
                return e
        return None

    def with_results(self):
        return [e for e in self.entries if e.doc]


def _results(run_dir, rel, where, fieldname):
    return read_results(run_dir, rel, where, fieldname) if rel else None


def _sweep(run_dir, manifest):
    where = manifest.where
    # As the nightly judged it: an added round it stopped is left out.
    manifest = manifest.judged()
    run = Run(run_dir, "sweep", manifest, manifest.topologies,
              manifest.variants, manifest.reference)
    ran_on = {}
    for i, r in enumerate(manifest.runs):
        for key in ("topology", "variant", "outcome"):
            if not isinstance(r.get(key), str):
                raise ReportError(where, f"runs[{i}].{key}",
                                  "missing or not a string")
        if r.get("superseded"):
            continue        # its host failed; the unit ran again elsewhere
        check_one_host(ran_on, r, where, i)
        run.entries.append(Entry(
            r["topology"], r["variant"], r["outcome"], r.get("message", ""),
            _results(run_dir, r.get("results"), where, f"runs[{i}].results"),
            r.get("repeat", 1), r.get("host")))
    return run


def _single(run_dir, summary):
    """A launcher run: one topology, its variants, metadata from results."""
    where = summary.where
    topo = summary.topology_name
    variants = summary.variants
    if not isinstance(topo, str) or variants is None:
        raise ReportError(where, "topology.name", "missing: not a run summary")
    entries = []
    runs = summary.runs
    if runs is not None:
        # `blkscale run --repeat N`: every repeat of every variant.
        for i, r in enumerate(runs):
            if not isinstance(r, dict) or not isinstance(r.get("variant"),
                                                         str):
                raise ReportError(where, f"runs[{i}].variant",
                                  "missing or not a string")
            entries.append(Entry(topo, r["variant"], r.get("outcome", "?"),
                                 r.get("message", ""),
                                 _results(run_dir, r.get("results"), where,
                                          f"runs[{i}].results"),
                                 r.get("repeat", 1)))
    else:
        for v, info in variants.items():
            entries.append(Entry(topo, v, info.get("outcome", "?"),
                                 info.get("message", ""),
                                 _results(run_dir, info.get("results"), where,
                                          f"variants.{v}.results")))
    docs = [e.doc for e in entries if e.doc]
    first = Results.of(docs[0] if docs else None)
    meta = {
        "run": summary.run_id,
        "status": "complete",
        "partial_reason": None,
        "command": summary.get("command"),
        "started": summary.get("started"),
        "finished": summary.get("finished"),
        "git": summary.get("git"),
        "qemu_version": first.qemu_version,
        "accelerator": summary.accelerator,
        "host_cpu": first.cpu_model,
        "host_cpus": first.host_cpus,
        "kernels": {e.variant: e.doc.kernel_release
                    for e in entries if e.doc},
        "vcpus": {topo: first.vcpus},
    }
    if runs is not None:
        meta["runs"] = [{"topology": topo, "variant": r["variant"],
                         "repeat": r.get("repeat", 1),
                         "outcome": r.get("outcome")} for r in runs]
    names = list(variants)
    ref = "stock" if "stock" in names else names[0]
    run = Run(run_dir, "run", meta, [topo], names, ref, entries)
    return run


def load(run_dir):
    if not os.path.isdir(run_dir):
        raise ReportError(run_dir, None, "no such run directory")
    manifest = read_manifest(run_dir)
    if manifest is not None:
        run = _sweep(run_dir, manifest)
    else:
        summary = read_summary(run_dir)
        if summary is None:
            raise ReportError(run_dir, None,
                              f"neither {MANIFEST} (a sweep) nor "
                              f"{SUMMARY} (a run): not a run "
                              "directory")
        run = _single(run_dir, summary)
    if not run.with_results():
        raise ReportError(run_dir, None, "no run brought results")
    return run


def add_measured(run, other):
    """Other's boots become measured points of run's capacity plan, for the
    variants run has; they take no part in its fits or other sections."""
    run.measured += [e for e in other.with_results()
                     if e.variant in run.variants]
