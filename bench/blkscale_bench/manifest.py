"""results/<run>/manifest.json: the sweep's metadata and one entry per run.

Rewritten atomically after every run, so a sweep killed outright still
leaves a readable manifest (status "running" then means it never ended).
"""

import json
import os

from blkscale.results.atomic import write_json_atomic

SCHEMA = {"name": "blkscale-sweep", "version": 1}
FILENAME = "manifest.json"


class Manifest:
    def __init__(self, run_dir, doc):
        self.run_dir = run_dir
        self.doc = doc

    @classmethod
    def start(cls, run_dir, run_id, command, sweep, meta, started):
        doc = {
            "schema": SCHEMA,
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


def load(run_dir):
    with open(os.path.join(run_dir, FILENAME)) as f:
        return json.load(f)
