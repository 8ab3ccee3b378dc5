"""results/<run>/manifest.json: the sweep's metadata and one entry per run.

Rewritten atomically after every run, so a sweep killed outright still
leaves a readable manifest (status "running" then means it never ended).
"""

import os

from ..qemu import binary
from . import SWEEP_SCHEMA
from .atomic import write_json_atomic

FILENAME = "manifest.json"


class Manifest:
    def __init__(self, run_dir, doc):
        self.run_dir = run_dir
        self.doc = doc

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

    def reopen(self):
        """Back to running: the nightly adds repeats to a finished sweep."""
        self.doc["status"] = "running"
        self.save()

    def finish(self, finished, reason=None):
        self.doc["finished"] = finished
        self.doc["status"] = "partial" if reason else "complete"
        self.doc["partial_reason"] = reason
        self.save()

    def save(self):
        write_json_atomic(os.path.join(self.run_dir, FILENAME), self.doc)


def _requested(qemu):
    if qemu is None or not os.path.isabs(qemu):
        return qemu
    return binary.display(qemu)


# Outcomes of a run that a signal stopped.
STOPPED = ("interrupted", "killed")


def drop_round(doc, entries, repeat):
    """Leave out a round of repeats the nightly added to decide its
    times, stopped by a signal before it ended: whole, so that no
    variant's repeat is left without its pair and the sweep as planned
    is what is judged."""
    for entry in entries:
        entry["superseded"] = True
        entry["superseded_why"] = f"repeat {repeat} was interrupted " \
            "while the nightly decided its times"
    first = (doc.get("decide_stopped") or {}).get("repeat", repeat)
    doc["decide_stopped"] = {"repeat": min(first, repeat),
                             "reason": doc.get("partial_reason")}


def drop_unfinished_rounds(doc):
    """drop_round() of every added round an interrupted sweep left
    unfinished, in memory, for a manifest written before the nightly
    marked such rounds itself.  Returns the (topology, repeat) rounds
    left out."""
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
            dropped.add(key)
    if dropped:
        doc["status"], doc["partial_reason"] = "complete", None
    return dropped
