"""[[series]] and [[goals]] of a sweep file: named boot curves and the
figures they are judged by.

    [[series]]
    name = "scsi"                       # [a-z0-9_-], unique
    title = "free text"
    topologies = ["a-500", "a-1000"]    # one curve, or:
    before = ["b-256-mdev", ...]        # a before/after pair of curves
    after = ["b-256-none", ...]
    before_label = "mdev"               # legend and table labels
    after_label = "none"

    [[goals]]
    name = "a-4000 boot to census"
    figure = "boot_to_census_s"         # of `topology` (or qemu_start_s),
    topology = "a-4000"                 # or marginal_growth,
                                        # marginal_cost_ms of `series`
    max = 150

The disk count of a point is what the guest found, so a series needs no
disk numbers of its own.  Topologies a series names are added to the
sweep's run list after its own `topologies`, in order of appearance.
"""

import re

from blkscale.figures.bootcurve import SERIES_FIGURES, TOPOLOGY_FIGURES

from .errors import BenchError
from .tablekeys import check_keys

NAME = re.compile(r"[a-z0-9_-]{1,32}")
SERIES_KEYS = ("name", "title", "topologies", "before", "after",
               "before_label", "after_label")
GOAL_KEYS = ("name", "figure", "topology", "series", "max")


def _string(table, key, where, fieldname, default=None):
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value):
        raise BenchError(where, fieldname, "must be a non-empty string"
                         if default is None else "must be a string")
    return value


def _curve(table, key, where, fieldname, resolve):
    specs = table.get(key)
    if not isinstance(specs, list) or not specs:
        raise BenchError(where, f"{fieldname}.{key}",
                         "must be a non-empty array of topology names")
    topos = [resolve(s, where, f"{fieldname}.{key}[{i}]")
             for i, s in enumerate(specs)]
    names = [t.name for t in topos]
    if len(set(names)) != len(names):
        raise BenchError(where, f"{fieldname}.{key}", "lists a topology "
                         "twice")
    return topos


def _one_series(table, where, fieldname, resolve):
    """-> (series dict for the manifest, [Topology] it needs)."""
    check_keys(table, SERIES_KEYS, where, fieldname)
    name = _string(table, "name", where, f"{fieldname}.name")
    if not NAME.fullmatch(name):
        raise BenchError(where, f"{fieldname}.name",
                         f"{name!r}: use a-z, 0-9, _ and -")
    title = _string(table, "title", where, f"{fieldname}.title", "")
    pair = "before" in table or "after" in table
    if pair == ("topologies" in table):
        raise BenchError(where, fieldname, "needs either topologies, or "
                         "before and after")
    if not pair:
        for key in ("before_label", "after_label"):
            if key in table:
                raise BenchError(where, f"{fieldname}.{key}", "only with "
                                 "before and after")
        topos = _curve(table, "topologies", where, fieldname, resolve)
        curves = [{"role": "curve", "label": name,
                   "topologies": [t.name for t in topos]}]
        return {"name": name, "title": title, "curves": curves}, topos
    curves, needed = [], []
    for role in ("before", "after"):
        topos = _curve(table, role, where, fieldname, resolve)
        label = _string(table, f"{role}_label", where,
                        f"{fieldname}.{role}_label", role)
        curves.append({"role": role, "label": label or role,
                       "topologies": [t.name for t in topos]})
        needed += topos
    return {"name": name, "title": title, "curves": curves}, needed


def series(value, where, resolve):
    """The [[series]] array -> ([series dict], [Topology] they name)."""
    if not isinstance(value, list):
        raise BenchError(where, "series", "must be an array of tables "
                         "([[series]])")
    out, needed, names = [], [], set()
    for i, table in enumerate(value):
        one, topos = _one_series(table, where, f"series[{i}]", resolve)
        if one["name"] in names:
            raise BenchError(where, f"series[{i}].name",
                             f"two series named {one['name']}")
        names.add(one["name"])
        out.append(one)
        needed += topos
    return out, needed


def goals(value, where, topology_names, series_names):
    """The [[goals]] array -> [goal dict]; a goal names a topology of the
    sweep (or a series) and the largest value that passes."""
    if not isinstance(value, list):
        raise BenchError(where, "goals", "must be an array of tables "
                         "([[goals]])")
    out = []
    for i, table in enumerate(value):
        fieldname = f"goals[{i}]"
        check_keys(table, GOAL_KEYS, where, fieldname)
        goal = {"name": _string(table, "name", where, f"{fieldname}.name")}
        figure = table.get("figure")
        known = TOPOLOGY_FIGURES + SERIES_FIGURES
        if figure not in known:
            raise BenchError(where, f"{fieldname}.figure",
                             "must be one of " + ", ".join(known)
                             + f"; got {figure!r}")
        goal["figure"] = figure
        subject, names = ("topology", topology_names) \
            if figure in TOPOLOGY_FIGURES else ("series", series_names)
        other = "series" if subject == "topology" else "topology"
        if other in table:
            raise BenchError(where, f"{fieldname}.{other}",
                             f"{figure} is a figure of a {subject}")
        name = table.get(subject)
        if name not in names:
            raise BenchError(where, f"{fieldname}.{subject}",
                             f"{name!r} is not a {subject} of this sweep")
        goal[subject] = name
        limit = table.get("max")
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) \
                or limit <= 0:
            raise BenchError(where, f"{fieldname}.max",
                             "must be a positive number")
        goal["max"] = limit
        out.append(goal)
    return out
