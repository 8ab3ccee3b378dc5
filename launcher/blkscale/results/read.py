"""Reading the three documents (results.json, summary.json, a sweep's
manifest.json) and the rules every reader of their figures keeps.

bench and reports read through this module, so the checks, the
accessors and the rules exist once.  A problem is one InputError line
naming the file and the field.
"""

import json
import os

from ..errors import InputError
from . import manifest, runresults, runsummary
from .runresults import Results

# What the readers of figures take from here.
number, lookup = runresults.number, runresults.lookup


def read_json(path, what):
    """The document at path, or None if there is no such file."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise InputError(path, None, f"unreadable {what}: {e}") from None


def _check_schema(path, doc, name):
    if not isinstance(doc, dict) or \
            (doc.get("schema") or {}).get("name") != name:
        raise InputError(path, "schema.name", f"is not {name}")
    return doc


def read_manifest(run_dir):
    """A sweep's SweepManifest, or None if run_dir has none."""
    return manifest.read_in(run_dir)


def read_summary(run_dir):
    """A launcher run's Summary, or None if run_dir has none."""
    return runsummary.read_in(run_dir)


# The nightly's verdict on a sweep, beside its manifest (bench's judging).
NIGHTLY = "nightly.json"
NIGHTLY_SCHEMA = "blkscale-nightly"


def read_nightly(run_dir):
    """A judged night's nightly.json, or None if run_dir has none; its
    checks must be a list."""
    path = os.path.join(run_dir, NIGHTLY)
    doc = read_json(path, "nightly verdict")
    if doc is None:
        return None
    _check_schema(path, doc, NIGHTLY_SCHEMA)
    if not isinstance(doc.get("checks"), list):
        raise InputError(path, "checks", "missing or not a list")
    return doc


def read_results(run_dir, rel, where, field):
    """The Results at run_dir/rel, which `where` lists under `field`."""
    results = runresults.read(os.path.join(run_dir, rel))
    if results is None:
        raise InputError(where, field, f"{rel}: missing")
    return results


def step_ok(doc, name):
    """Whether the results document has step `name` with verdict ok."""
    return Results.of(doc).step_ok(name)


def curve_median(doc, name):
    """The median of a majorbench block curve's p50 values (register,
    lookup): one figure for the whole curve."""
    return Results.of(doc).curve_median(name)


def boot_figure(doc, key):
    """boot.<key> of a results document, None where it does not count."""
    return Results.of(doc).boot_figure(key)


def check_one_host(ran_on, entry, where, i):
    """Figures of different hosts are never pooled into one median: the
    runs of a topology that count must all come from one host.  ran_on
    {topology: host} collects the hosts of the entries seen so far."""
    topo, host = entry["topology"], entry.get("host")
    first = ran_on.setdefault(topo, host)
    if first != host:
        raise InputError(where, f"runs[{i}].host", f"{host}: topology "
                         f"{topo} also ran on {first}; figures of two "
                         "hosts are never pooled")
