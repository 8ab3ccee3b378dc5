"""results/<run>/manifest.json: the sweep's metadata and one entry per run.

Rewritten atomically after every run, so a sweep killed outright still
leaves a readable manifest (status "running" then means it never ended).
"""

import os

from .. import qemubinary as binary
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
