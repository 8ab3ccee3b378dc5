"""Reading the three documents (results.json, summary.json, a sweep's
manifest.json) and the rules every reader of their figures keeps.

bench and reports read through this module, so the checks, the
accessors and the rules exist once.  A problem is one InputError line
naming the file and the field.
"""

import json
import os
import statistics

from ..errors import InputError
from . import RESULTS_SCHEMA, SUMMARY_SCHEMA, SWEEP_SCHEMA
from .manifest import FILENAME as MANIFEST


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
    """A sweep's manifest.json, or None if run_dir has none."""
    path = os.path.join(run_dir, MANIFEST)
    doc = read_json(path, "manifest")
    return None if doc is None else _check_schema(path, doc,
                                                  SWEEP_SCHEMA["name"])


def read_summary(run_dir):
    """A launcher run's summary.json, or None if run_dir has none."""
    path = os.path.join(run_dir, "summary.json")
    doc = read_json(path, "summary")
    return None if doc is None else _check_schema(path, doc,
                                                  SUMMARY_SCHEMA["name"])


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
    """results.json at run_dir/rel, which `where` lists under `field`."""
    path = os.path.join(run_dir, rel)
    doc = read_json(path, "results")
    if doc is None:
        raise InputError(where, field, f"{rel}: missing")
    return _check_schema(path, doc, RESULTS_SCHEMA["name"])


def lookup(doc, *keys):
    """doc[k1][k2]..., or None where a level is missing."""
    for key in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def number(value):
    """value if it is an int or float (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def step_ok(doc, name):
    """Whether the results document has step `name` with verdict ok."""
    for step in (doc or {}).get("steps") or []:
        if step.get("name") == name:
            return step.get("verdict") == "ok"
    return False


def curve_median(doc, name):
    """The median of a majorbench block curve's p50 values (register,
    lookup): one figure for the whole curve."""
    points = lookup(doc, "majors", "block", name)
    values = [p.get("p50_ns") for p in points or [] if isinstance(p, dict)]
    values = [v for v in values if number(v) is not None]
    return statistics.median(values) if values else None


# Boot figures that end at the census: they count only when the census
# step itself succeeded (a failed census stops wherever it failed).
CENSUS_FIGURES = ("census_complete_s", "wall_to_census_s")


def boot_figure(doc, key):
    """boot.<key> of a results document, None where it does not count."""
    if key in CENSUS_FIGURES and not step_ok(doc, "census"):
        return None
    return number(lookup(doc, "boot", key))


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
