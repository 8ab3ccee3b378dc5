"""QEMU's start-up with a topology's disks, no guest: each way of giving
QEMU its disks (launcher/blkscale/qemu/diskstart.py), repeated.

    python3 -m blkscale_bench.qemustart [--methods argv,stack,qmp]
        [--repeat 3] [--batch 500] [--perf DIR]
        [--qemu distro,patched,PATH] TOPO...

(from a checkout: PYTHONPATH=launcher:bench /usr/bin/python3 -m ...)

For each topology and method: QEMU launched as `run` launches it, timed
from the spawn to the guest running (the QMP greeting; with qmp, `cont`
after the last disk), then stopped.  The kernel is loaded but never runs
long: the figure is QEMU's alone.  Prints one line per run and the median
with min-max per topology, method and binary, and each run's host load
average.  --qemu names the binaries to compare (guest.qemu's values:
distro, patched from `make qemu`, or a path; default distro): every
repeat runs each of them in turn, the order reversed on every other
repeat, so that they share the host's load.  --perf DIR runs QEMU under
`perf record -e cpu-clock -g` (first repeat only) and writes
DIR/<disks>-<method>[-<binary>].data and the top of its flat profile,
.txt beside it.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from blkscale import commands, paths
from blkscale import qemubinary as qemu_binary
from blkscale.machine.files import RunFiles
from blkscale.errors import UsageError
from blkscale.qemu import argv as qargv
from blkscale.qemu import diskstart, hotplug
from blkscale.qemu.machine import Machine


PERF = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "499", "-g"]


def perf_report(data, out):
    """The functions where QEMU spent its time, the first 25 lines."""
    text = subprocess.run(["perf", "report", "-i", data, "--no-children",
                           "--comm", "qemu-system-x86", "--sort", "symbol",
                           "--stdio", "-g", "none"], capture_output=True,
                          text=True).stdout
    lines = [ln for ln in text.splitlines() if ln.strip()
             and not ln.startswith("#")]
    Path(out).write_text("\n".join(lines[:25]) + "\n")


def one(planned, method, batch, perf_data=None,
        qemu="qemu-system-x86_64"):
    os.environ[diskstart.SWITCH] = method
    hotplug.BATCH = batch
    with tempfile.TemporaryDirectory(prefix="qemustart-") as tmp:
        kernel = paths.kernel_dir("patched") / "bzImage"
        files = RunFiles.under(kernel, tmp)
        Path(files.initrd).write_bytes(b"\0" * 512)
        argv = qargv.build_argv(planned, files, "patched", "tcg", qemu)
        if perf_data:
            argv = PERF + ["-o", perf_data, "--"] + argv
        machine = Machine(os.path.join(tmp, "qemu.log"))
        machine.configure(argv, files.qmp)
        with machine:
            start = machine.launch(timeout=3600)
            rss = machine.sample_rss()
            figures = {"method": method, "start_s": round(start, 3),
                       "hotplug_s": round(machine.hotplug_s or 0, 3),
                       "argv_kib": diskstart.argv_bytes(machine.argv) // 1024,
                       "qmp_commands": len(machine.start.commands),
                       "rss_mib": rss // 1024}
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("topologies", nargs="+")
    ap.add_argument("--methods", default="argv,stack,qmp")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=hotplug.BATCH)
    ap.add_argument("--perf", metavar="DIR")
    ap.add_argument("--qemu", default=qemu_binary.DISTRO,
                    metavar="distro,patched,PATH",
                    help="the binaries to compare, comma-separated "
                    "(default: distro)")
    args = ap.parse_args()
    labels = list(dict.fromkeys(args.qemu.split(",")))
    try:
        binaries = {label: qemu_binary.resolve(label) for label in labels}
    except UsageError as e:
        print(f"qemustart: {e}", file=sys.stderr)
        return 2
    for label, path in binaries.items():
        print(f"qemu {label}: {path}: "
              f"{qemu_binary.describe(path)['patches'] or 'no patches'}",
              flush=True)
    rows = {}
    for rep in range(args.repeat):
        order = labels if rep % 2 == 0 else labels[::-1]
        for topo in args.topologies:
            os.environ.pop(diskstart.SWITCH, None)
            planned = commands.prepare(topo)
            disks = planned.topo.expected_total
            for method in args.methods.split(","):
                for label in order:
                    measure(rows, args, rep, planned, disks, method, label,
                            binaries[label], len(labels) > 1)
    print("\ndisks method qemu     start s: median (min-max)  per disk ms  "
          "QEMU RSS MiB")
    for (disks, method, label), fs in sorted(rows.items()):
        s = [f["start_s"] for f in fs]
        med = statistics.median(s)
        rss = statistics.median(f["rss_mib"] for f in fs)
        print(f"{disks:6d} {method:6s} {label:8s} {med:8.2f} "
              f"({min(s):.2f}-{max(s):.2f})"
              f"  {1000 * med / disks:8.3f}  {rss:8.0f}")
    return 0


def measure(rows, args, rep, planned, disks, method, label, qemu, named):
    """One start of one binary; its line printed, its figures in rows."""
    t0 = time.monotonic()
    data = None
    if args.perf and rep == 0:
        os.makedirs(args.perf, exist_ok=True)
        suffix = f"-{label}" if named and os.sep not in label else ""
        data = f"{args.perf}/{disks}-{method}{suffix}.data"
    try:
        f = one(planned, method, args.batch, data, qemu)
    except Exception as e:      # report and go on measuring
        print(f"{disks} {method} {label} rep {rep}: failed: {e}", flush=True)
        return
    f["wall_s"] = round(time.monotonic() - t0, 3)
    f["load1"] = round(os.getloadavg()[0], 2)
    if data:
        perf_report(data, data[:-len(".data")] + ".txt")
    print(f"{disks} {method} {label} batch {args.batch} rep {rep}: {f}",
          flush=True)
    rows.setdefault((disks, method, label), []).append(f)


if __name__ == "__main__":
    sys.exit(main())
