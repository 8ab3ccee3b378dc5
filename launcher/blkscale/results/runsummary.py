"""summary.json of a launcher run as a record (schema: launcher/RESULTS.md).

The session builds the document from its variants' outcomes; this module
is the only one that names the file, writes it or reads it.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass

from . import SUMMARY_SCHEMA
from .record import Record
from .runresults import number

FILENAME = "summary.json"


@dataclass(frozen=True, eq=False)
class Entry(Record):
    """One variant's entry (or, with repeats, one run's)."""

    @property
    def outcome(self):
        return self.body.get("outcome")

    @property
    def message(self):
        return self.body.get("message")

    @property
    def exit_status(self):
        return self.body.get("exit_status")

    @property
    def variant(self):
        return self.body.get("variant")

    @property
    def repeat(self):
        return self.body.get("repeat", 1)

    @property
    def results(self):
        """The path of its results.json, relative to the run directory,
        or None."""
        return self.body.get("results")

    @property
    def boot(self):
        return self.body.get("boot")

    @property
    def disks_expected_total(self):
        return number(self.part("disks_expected").get("total"))

    @property
    def disks_found_total(self):
        return number(self.part("disks_found").get("total"))


@dataclass(frozen=True, eq=False)
class Summary(Record):
    SCHEMA = SUMMARY_SCHEMA

    @property
    def run_id(self):
        return self.body.get("run")

    @property
    def topology_name(self):
        return self.part("topology").get("name")

    @property
    def topology_file(self):
        return self.part("topology").get("file")

    @property
    def accelerator(self):
        return self.part("accelerator").get("name")

    @property
    def accelerator_reason(self):
        return self.part("accelerator").get("reason")

    @property
    def repeat(self):
        return self.body.get("repeat", 1)

    @property
    def variants(self):
        """{variant: its entry as written}, or None when not an object."""
        variants = self.body.get("variants")
        return variants if isinstance(variants, Mapping) else None

    def entry(self, variant):
        """The Entry of a variant, or None."""
        entry = (self.variants or {}).get(variant)
        return Entry(entry) if isinstance(entry, Mapping) else None

    @property
    def runs(self):
        """Every run of `run --repeat N` as written, or None."""
        runs = self.body.get("runs")
        return runs if isinstance(runs, list) else None


def path_in(run_dir):
    return os.path.join(run_dir, FILENAME)


def read_in(run_dir):
    """The Summary of a run directory, or None if it has none."""
    return Summary.read(path_in(run_dir), "summary")


def write_in(run_dir, summary):
    """Write the Summary into run_dir; returns its path."""
    os.makedirs(run_dir, exist_ok=True)
    path = path_in(run_dir)
    summary.write(path)
    return path
