"""results/<run>/manifest.json: the sweep's metadata and one entry per run.

Manifest is its only writer: every change is a method of it and is
saved at once, atomically, so a sweep killed outright still leaves a
readable manifest (status "running" then means it never ended).  Its
readers get a SweepManifest, a frozen record.
"""

import copy
import os
from dataclasses import dataclass

from .. import qemubinary as binary
from . import SWEEP_SCHEMA
from .atomic import write_json_atomic
from .record import Record

FILENAME = "manifest.json"


def path_in(run_dir):
    return os.path.join(run_dir, FILENAME)


@dataclass(frozen=True, eq=False)
class SweepManifest(Record):
    SCHEMA = SWEEP_SCHEMA

    @property
    def run_id(self):
        return self.body.get("run")

    @property
    def status(self):
        return self.body.get("status")

    @property
    def partial_reason(self):
        return self.body.get("partial_reason")

    @property
    def sweep(self):
        """What the sweep file asked for (file, topologies, variants,
        reference, repeat, ...)."""
        return self.part("sweep")

    @property
    def variants(self):
        return self.sweep.get("variants") or []

    @property
    def topologies(self):
        """The names of the sweep's topologies, in its order."""
        return list(self.sweep.get("topologies") or {})

    @property
    def reference(self):
        return self.sweep.get("reference") or "stock"

    @property
    def accelerator(self):
        return self.body.get("accelerator")

    @property
    def runs(self):
        return self.body.get("runs") or []

    def judged(self):
        """The record as the nightly judges it: the runs of an added
        round an interrupted sweep left unfinished are left out
        (drop_unfinished_rounds), in a copy."""
        doc = copy.deepcopy(self.to_json())
        drop_unfinished_rounds(doc)
        return type(self)(doc, self.version, self.where)

    def with_reference(self, reference):
        """A copy whose ratios are taken to another of its variants."""
        doc = self.to_json()
        doc["sweep"] = dict(self.sweep, reference=reference)
        return type(self)(doc, self.version, self.where)


def read_in(run_dir):
    """The SweepManifest of a run directory, or None if it has none."""
    return SweepManifest.read(path_in(run_dir), "manifest")


class Manifest:
    """The writer of one sweep's manifest."""

    def __init__(self, run_dir, doc):
        self.run_dir = run_dir
        self.doc = doc

    @classmethod
    def reopen(cls, run_dir):
        """The writer of a sweep's existing manifest, or None if the
        directory has none."""
        record = read_in(run_dir)
        if record is None:
            return None
        return cls(run_dir, copy.deepcopy(record.to_json()))

    @property
    def record(self):
        """The manifest as it stands, as its readers get it."""
        return SweepManifest(copy.deepcopy(self.doc))

    @classmethod
    def start(cls, run_dir, run_id, command, sweep, meta, started):
        doc = {
            "schema": SWEEP_SCHEMA,
            "run": run_id,
            "status": "running",
            "partial_reason": None,
            "command": command,
            "sweep": {
                "file": sweep.path,
                "description": sweep.description,
                "topologies": {t.name: t.display for t in sweep.topologies},
                "variants": sweep.variants,
                "reference": sweep.reference,
                "accel_requested": sweep.accel,
                # distro, patched or a path; None: each topology's own
                "qemu_requested": _requested(sweep.qemu),
                "repeat": sweep.repeat,
                "max_repeat": sweep.max_repeat,
                "max_host_load": sweep.max_host_load,
                "schedule": sweep.schedule,
                "gate_times": sweep.gate_times,
                "baselines": sweep.baselines,
                "ceilings": sweep.ceilings,
                "series": sweep.series,
                "goals": sweep.goals,
            },
            "started": started,
            "finished": None,
            **meta,
            "accelerator": None,
            "vcpus": {},
            "runs": [],
        }
        m = cls(run_dir, doc)
        m.save()
        return m

    def add_run(self, entry):
        self.doc["runs"].append(entry)
        if entry.get("accelerator") and not self.doc["accelerator"]:
            self.doc["accelerator"] = entry["accelerator"]
        if entry.get("vcpus") is not None:
            self.doc["vcpus"][entry["topology"]] = entry["vcpus"]
        self.save()

    def add_rounds(self, rounds, planned_at):
        """Record rounds of repeats the nightly adds, before any of their
        runs starts: [(repeat, [topology names])], in the order they will
        run; a round that never ran is then missing, not invisible.
        Returns their indices in `rounds`."""
        out = []
        records = self.doc.setdefault("rounds", [])
        for repeat, topologies in rounds:
            out.append(len(records))
            records.append({"repeat": repeat, "topologies": list(topologies),
                            "variants": list(self.doc["sweep"]["variants"]),
                            "planned": planned_at, "status": "planned"})
        self.save()
        return out

    def round_status(self, index, status, why=None):
        """planned -> running -> done, or stopped (a signal stopped it
        or it never started because of one)."""
        record = self.doc["rounds"][index]
        record["status"] = status
        if why:
            record["why"] = why
        self.save()

    def resume(self):
        """Back to running: the nightly adds repeats to a finished sweep."""
        self.doc["status"] = "running"
        self.save()

    def drop_round(self, first, repeat):
        """drop_round() of the runs from index `first` on: a round of
        added repeats a signal stopped."""
        drop_round(self.doc, self.doc["runs"][first:], repeat)
        self.save()

    @property
    def run_count(self):
        return len(self.doc["runs"])

    def edit_runs(self, change):
        """change(entry) of every run's entry: tools that make an altered
        copy of a sweep (bench's slowdown.py)."""
        for entry in self.doc["runs"]:
            change(entry)
        self.save()

    def set_figures(self, figures):
        """Every figure over the repeats (bench's repeats.to_json())."""
        self.doc["figures"] = figures
        self.save()

    def set_moves(self, moves):
        """The units moved from a failed host to another (workqueue)."""
        self.doc["moves"] = list(moves)
        self.save()

    def _host(self, uri):
        return next(h for h in self.doc["hosts"] if h["uri"] == uri)

    def host_took(self, uri, unit):
        """A libvirt host took a unit of runs."""
        units = self._host(uri)["units"]
        if unit not in units:
            units.append(unit)
            self.save()

    def host_accelerator(self, uri, accel):
        self._host(uri)["accelerator"] = accel
        self.save()

    def host_failed(self, uri, reason):
        """Why a host left the queue."""
        self._host(uri)["failed"] = reason
        self.save()

    def supersede(self, unit, attempt, moved_to):
        """The runs of one attempt at a unit no longer count: they are
        marked superseded and their files are under moved_to."""
        for run in self.doc["runs"]:
            if run.get("unit") != unit or run.get("attempt") != attempt:
                continue
            set_aside(run, moved_to)
        self.save()

    def finish(self, finished, reason=None):
        self.doc["finished"] = finished
        self.doc["status"] = "partial" if reason else "complete"
        self.doc["partial_reason"] = reason
        self.save()

    def save(self):
        write_json_atomic(path_in(self.run_dir), self.doc)


def _requested(qemu):
    if qemu is None or not os.path.isabs(qemu):
        return qemu
    return binary.display(qemu)


# The files of a run, relative to the sweep's directory.
RUN_FILES = ("results", "console", "launcher_log")


def set_aside(entry, moved_to, why=None):
    """A run that no longer counts: marked superseded (with why), its
    files' paths under moved_to, where the caller moved them."""
    entry["superseded"] = True
    if why:
        entry["superseded_why"] = why
    for key in RUN_FILES:
        if entry.get(key):
            entry[key] = f"{moved_to}/{entry[key]}"


# Outcomes of a run that a signal stopped.
STOPPED = ("interrupted", "killed")


def drop_round(doc, entries, repeat):
    """Leave out the runs a signal stopped in a round of repeats the
    nightly added to decide its times.  Only those: a run of the round
    that ended, ok or failed (a panic), still counts, whatever happened
    to the rest of its round."""
    for entry in entries:
        if entry.get("outcome") not in STOPPED:
            continue
        entry["superseded"] = True
        entry["superseded_why"] = f"repeat {repeat} was interrupted " \
            "while the nightly decided its times"
    first = (doc.get("decide_stopped") or {}).get("repeat", repeat)
    doc["decide_stopped"] = {"repeat": min(first, repeat),
                             "reason": doc.get("partial_reason")}


def drop_unfinished_rounds(doc):
    """drop_round() of every added round an interrupted sweep left
    unfinished, in memory, for a manifest written before the nightly
    recorded its rounds: each is recorded as stopped, so that only the
    runs it made are expected.  Returns the (topology, repeat) rounds
    left unfinished."""
    if doc.get("rounds"):
        return set()        # the nightly recorded its rounds itself
    planned = (doc.get("sweep") or {}).get("repeat", 1)
    variants = (doc.get("sweep") or {}).get("variants") or []
    rounds = {}
    for entry in doc.get("runs") or []:
        if entry.get("repeat", 1) > planned and not entry.get("superseded"):
            rounds.setdefault((entry["topology"], entry["repeat"]),
                              []).append(entry)
    stopped = (doc.get("partial_reason") or "").startswith("interrupted")
    if not stopped:
        return set()
    dropped = set()
    for key, entries in rounds.items():
        if any(e.get("outcome") in STOPPED for e in entries) or \
                len(entries) < len(variants):
            drop_round(doc, entries, key[1])
            doc.setdefault("rounds", []).append(
                {"repeat": key[1], "topologies": [key[0]],
                 "variants": variants, "status": "stopped",
                 "why": "left unfinished by an interrupted sweep"})
            dropped.add(key)
    if dropped:
        doc["status"], doc["partial_reason"] = "complete", None
    return dropped
