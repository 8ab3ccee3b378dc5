"""Reading results: results.json, a sweep's manifest.json, the figures in
them.

bench (rundir.py, metrics.py) and reports (load.py, series.py) read
through this module, so the checks and the accessors exist once.  A
problem is one InputError line naming the file and the field.
"""

import json
import os

from ..errors import InputError
from . import RESULTS_SCHEMA

SWEEP_SCHEMA_NAME = "blkscale-sweep"


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
    path = os.path.join(run_dir, "manifest.json")
    doc = read_json(path, "manifest")
    return None if doc is None else _check_schema(path, doc,
                                                  SWEEP_SCHEMA_NAME)


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
