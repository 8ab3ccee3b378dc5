"""The measured start-up cost `blkscale plan` predicts QEMU's start from
(launcher/blkscale/qemu/startcost.json), made from qemustart.py's logs:

    PYTHONPATH=launcher:bench /usr/bin/python3 -m blkscale_bench.startcost \\
        bench/evidence/20261205-qemu-patched/qemustart.log \\
        bench/evidence/20261205-qemu-patched/qemustart-65536.log \\
        > launcher/blkscale/qemu/startcost.json

Each run line of a log ("N METHOD KIND batch B rep R: {figures}") is one
start.  Runs with every disk on the command line (argv, stack) become
the median start per binary kind and disk count, the points plan fits;
runs with disks added over QMP are kept one by one, as they were
measured, since the fit does not cover them.
"""

import ast
import json
import re
import statistics
import sys
from pathlib import Path

from blkscale import paths

RUN = re.compile(r"^(\d+) (\S+) (\S+) batch \d+ rep \d+: (\{.*\})$")
COMMAND_LINE = ("argv", "stack")


def runs(log):
    """(disks, method, kind, figures) of every run line of a log."""
    for line in Path(log).read_text().splitlines():
        m = RUN.match(line)
        if m:
            yield (int(m[1]), m[2], m[3], ast.literal_eval(m[4]))


def points(logs):
    """{kind: [[disks, median start s, repeats]]} of the command-line
    runs; the method is the same for all (refused otherwise: their
    costs differ)."""
    starts, methods = {}, set()
    for log in logs:
        for disks, method, kind, f in runs(log):
            if method in COMMAND_LINE:
                methods.add(method)
                starts.setdefault(kind, {}).setdefault(disks, []).append(
                    f["start_s"])
    if len(methods) > 1:
        raise SystemExit(f"startcost: the logs mix methods {sorted(methods)}")
    return methods.pop() if methods else None, {
        kind: [[n, round(statistics.median(s), 3), len(s)]
               for n, s in sorted(by_disks.items())]
        for kind, by_disks in sorted(starts.items())}


def qmp_runs(logs):
    """Runs with disks added over QMP, one entry each, with their log."""
    return [{"disks": disks, "method": method, "kind": kind,
             "start_s": f["start_s"], "hotplug_s": f["hotplug_s"],
             "log": paths.display(log)}
            for log in logs for disks, method, kind, f in runs(log)
            if "qmp" in method]


def main(logs):
    if not logs:
        print(__doc__, file=sys.stderr)
        return 2
    method, fitted = points(logs)
    doc = {"made_by": "python3 -m blkscale_bench.startcost "
                      + " ".join(paths.display(p) for p in logs),
           "evidence": sorted({paths.display(Path(p).parent)
                               for p in logs}),
           "method": method,
           "start_s": fitted,
           "qmp_runs": qmp_runs(logs)}
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
