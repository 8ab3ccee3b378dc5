"""The measured start-up cost `blkscale plan` predicts QEMU's start from
(launcher/blkscale/qemu/startcost.json), made from qemustart.py's logs:

    PYTHONPATH=launcher:bench /usr/bin/python3 -m blkscale_bench.startcost \\
        evidence/20261205-qemu-patched/qemustart.log \\
        evidence/20261205-qemu-patched/qemustart-65536.log \\
        evidence/20261205-qemu-qmp/qemustart-65536.log \\
        > launcher/blkscale/qemu/startcost.json

Each run line of a log ("N METHOD KIND batch B rep R: {figures}") is one
start.  Runs with every disk on the command line (argv, stack) become
the median start per binary kind and disk count, the points plan fits;
runs with disks added over QMP are kept one by one, as they were
measured, with the patches of the binary that ran them (the log's
"qemu KIND: PATH: PATCHES" lines), since the fit does not cover them:
plan cites only those of the binary it plans for.
"""

import ast
import json
import re
import statistics
import sys
from pathlib import Path

from blkscale import paths

RUN = re.compile(r"^(\d+) (\S+) (\S+) batch \d+ rep \d+: (\{.*\})$")
# "qemu KIND: PATH: ['subject', ...]" or "... : no patches": the binary
# each kind of a log was, so that plan cites runs of its own binary only.
HEADER = re.compile(r"^qemu (\S+): \S+: (.*)$")
COMMAND_LINE = ("argv", "stack")


def runs(log):
    """(disks, method, kind, figures) of every run line of a log."""
    for line in Path(log).read_text().splitlines():
        m = RUN.match(line)
        if m:
            yield (int(m[1]), m[2], m[3], ast.literal_eval(m[4]))


def points(logs):
    """(method, evidence directories, {kind: [[disks, median start s,
    repeats]]}) of the command-line runs; the method is the same for all
    (refused otherwise: their costs differ)."""
    starts, methods, used = {}, set(), set()
    for log in logs:
        for disks, method, kind, f in runs(log):
            if method in COMMAND_LINE:
                methods.add(method)
                used.add(paths.display(Path(log).parent))
                starts.setdefault(kind, {}).setdefault(disks, []).append(
                    f["start_s"])
    if len(methods) > 1:
        raise SystemExit(f"startcost: the logs mix methods {sorted(methods)}")
    return methods.pop() if methods else None, sorted(used), {
        kind: [[n, round(statistics.median(s), 3), len(s)]
               for n, s in sorted(by_disks.items())]
        for kind, by_disks in sorted(starts.items())}


def patch_sets(log):
    """{kind: [patch subjects]} of the binaries a log names."""
    out = {}
    for line in Path(log).read_text().splitlines():
        m = HEADER.match(line)
        if m:
            out[m[1]] = ast.literal_eval(m[2]) if m[2].startswith("[") \
                else []
    return out


def qmp_runs(logs):
    """Runs with disks added over QMP, one entry each, with their log
    and the patches of the binary that ran."""
    return [{"disks": disks, "method": method, "kind": kind,
             "patches": patch_sets(log).get(kind, []),
             "start_s": f["start_s"], "hotplug_s": f["hotplug_s"],
             "log": paths.display(log)}
            for log in logs for disks, method, kind, f in runs(log)
            if "qmp" in method]


def main(logs):
    if not logs:
        print(__doc__, file=sys.stderr)
        return 2
    method, evidence, fitted = points(logs)
    doc = {"made_by": "python3 -m blkscale_bench.startcost "
                      + " ".join(paths.display(p) for p in logs),
           "evidence": evidence,
           "method": method,
           "start_s": fitted,
           "qmp_runs": qmp_runs(logs)}
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
