#!/usr/bin/python3
"""Copy a real run directory into a small test fixture.

    reports/tests/make_fixture.py [--whole-curves] results/<run> reports/tests/fixtures/NAME

Keeps manifest.json or summary.json and every results.json; drops what
the report does not read and what makes files large: the QEMU command
line, the guest's disk list, fio's raw output and per-job list, the
devt_audit and selftest sections, the unregister and lookup-miss curves,
the per-method detail of procdevbench points, and thins the register and
lookup curves to about MAX_POINTS measured points (the first and last
four always kept; --whole-curves keeps them whole: a thinned curve's
median, register_p50_ns and lookup_p50_ns, is not the run's).  Values
are never changed, only left out.
"""

import json
import os
import shutil
import sys

MAX_POINTS = 24
# Points kept whole at each end of a thinned curve: the nightly's
# register_growth compares the last four buckets with the first four, and
# must read the same figure in a trimmed copy as in the run.
END_POINTS = 4


def thin(points):
    if not isinstance(points, list) or len(points) <= MAX_POINTS:
        return points
    step = (len(points) - 1) / (MAX_POINTS - 1)
    keep = {round(i * step) for i in range(MAX_POINTS)}
    keep |= set(range(END_POINTS))
    keep |= set(range(len(points) - END_POINTS, len(points)))
    return [points[i] for i in sorted(keep)]


def trim(doc, whole_curves=False):
    doc.get("host", {}).pop("command", None)
    doc.get("disks", {}).pop("list", None)
    for section in ("fio_raw", "devt_audit", "selftest"):
        doc.pop(section, None)
    if isinstance(doc.get("fio"), dict):
        doc["fio"]["jobs"] = []
    for p in (doc.get("procdevices") or {}).get("points") or []:
        p.pop("lseek", None)
        p.pop("reopen", None)
    blk = (doc.get("majors") or {}).get("block") or {}
    for name in ("unregister", "lookup_miss"):
        blk.pop(name, None)
    for name in ("register", "lookup"):
        if name in blk and not whole_curves:
            blk[name] = thin(blk[name])
    blk.get("lookup_check", {}).pop("points", None)
    return doc


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main(src, dst, whole_curves=False):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    for top in ("manifest.json", "summary.json"):
        path = os.path.join(src, top)
        if os.path.isfile(path):
            with open(path) as f:
                write(os.path.join(dst, top), json.load(f))
    for root, _, files in os.walk(src):
        if "results.json" in files and "/report" not in root:
            rel = os.path.relpath(os.path.join(root, "results.json"), src)
            with open(os.path.join(src, rel)) as f:
                write(os.path.join(dst, rel),
                      trim(json.load(f), whole_curves))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    whole = args[:1] == ["--whole-curves"]
    args = args[1:] if whole else args
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(args[0], args[1], whole))
