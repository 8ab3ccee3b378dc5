"""What the libvirt backend's live attach costs per disk, no guest.

    python3 -m blkscale_bench.attachcost [--late N] [--seconds S]
                                         [--perf DIR] TOPO

(from a checkout: PYTHONPATH=launcher:bench /usr/bin/python3 -m ...)

The topology's domain is created paused on the local system daemon with
its last N SCSI disks (default: every one) left out, as `run --backend
libvirt` does past libvirt's command line (launcher/blkscale/libvirt/
livedisks.py); they are attached one by one, each timed, and the domain is
destroyed: the guest never runs.  --seconds S stops attaching after S
seconds (an attach too long to wait for, dev_t-65536's 57,350 disks)
and extrapolates the rest from the fitted cost.  Prints the cost per
disk in windows of 250 disks (median and min-max of the window), the
slope (how much each attached disk adds to the next one's cost: a disk
attach that walks every disk already there shows a positive slope), the
total, and the host's load.  Past 5000 disks the slope is fitted to the
windows' medians (Siegel's fit over every pair of n disks needs n x n
memory).  --perf DIR records libvirtd and QEMU with `perf record -e
cpu-clock -g` for the whole attach and writes the top of each flat
profile to DIR/<topology>-<process>.txt.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from scipy import stats

from blkscale import commands, paths
from blkscale.errors import UsageError
from blkscale.libvirt import daemon, domain, domain_xml, livedisks
from blkscale.machine.disks import image_files
from blkscale.machine.files import RunFiles

WINDOW = 250
# Past this many disks the slope is fitted to windows, not single disks.
FIT_DISKS_MAX = 5000
PERF = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "499", "-g"]


def _pid(path):
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def _perf_start(pid, data):
    return subprocess.Popen(PERF + ["-o", data, "-p", str(pid)],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _perf_report(data, out):
    """Every thread of the process (libvirtd works in its rpc threads)."""
    text = subprocess.run(["perf", "report", "-i", data, "--no-children",
                           "--sort", "comm,symbol", "--stdio", "-g", "none"],
                          capture_output=True, text=True).stdout
    lines = [ln for ln in text.splitlines()
             if ln.strip() and not ln.startswith("#")]
    Path(out).write_text("\n".join(lines[:25]) + "\n")


def measure(planned, late, perf_dir=None, seconds=None):
    """A dict of the per-disk times of one attach of `late` disks, or of
    as many as `seconds` allow."""
    import libvirt
    import libvirt_qemu
    name = f"blkscale-attachcost-{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="attachcost-") as tmp:
        files = RunFiles.under(paths.kernel_dir("stock") / "bzImage", tmp)
        for path in (files.console, files.results):
            open(path, "w").close()
        for path, size in image_files(planned, files):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.truncate(size)
        open(files.initrd, "wb").close()
        xml, disks = domain_xml.split_xml(planned, files, "patched",
                                          name=name, late=late)
        daemon.ensure()
        conn = libvirt.open(daemon.SYSTEM_URI)
        dom = conn.createXML(xml, libvirt.VIR_DOMAIN_START_PAUSED
                             | libvirt.VIR_DOMAIN_START_AUTODESTROY)
        times = []
        perf = []
        try:
            if perf_dir:
                os.makedirs(perf_dir, exist_ok=True)
                for proc, pidfile in (
                        ("libvirtd", "/run/libvirtd.pid"),
                        ("qemu-system-x86", f"{domain.RUN_DIR}/{name}.pid")):
                    pid = _pid(pidfile)
                    if pid:
                        data = f"{perf_dir}/{planned.topo.name}-{proc}.data"
                        perf.append((_perf_start(pid, data), data, proc))
            last = [time.monotonic()]

            def added(n):
                now = time.monotonic()
                times.append((n, now - last[0]))
                last[0] = now
                if n % WINDOW == 0:
                    print(f"  attached {n}/{disks.disks} in "
                          f"{now - t0:.1f} s", file=sys.stderr, flush=True)
            load0 = os.getloadavg()[0]
            stop = threading.Event()
            timer = threading.Timer(seconds, stop.set) if seconds else None
            t0 = time.monotonic()
            if timer:
                timer.start()
            try:
                done = livedisks.attach(libvirt,
                                        libvirt_qemu.qemuMonitorCommand, dom,
                                        disks, stop, added, every=1)
            finally:
                if timer:
                    timer.cancel()
            total = time.monotonic() - t0
        finally:
            for proc, _, _ in perf:
                proc.terminate()
                proc.wait()
            try:
                dom.destroy()
            finally:
                conn.close()
        for _, data, _ in perf:
            _perf_report(data, data[:-len(".data")] + ".txt")
    return {"topology": planned.topo.name, "late": disks.disks,
            "attached": done,
            "on_command_line": planned.topo.expected_total - disks.disks,
            "native": disks.native, "monitor": disks.monitor,
            "total_s": round(total, 3), "times": times,
            "load1": [round(load0, 2), round(os.getloadavg()[0], 2)]}


def fit(per):
    """Siegel's repeated medians of the cost per disk (ms) against the
    disks attached before it: (first ms, us more per disk)."""
    if len(per) <= FIT_DISKS_MAX:
        f = stats.siegelslopes([t * 1000 for t in per])
        return f.intercept, f.slope * 1000
    rows, _ = windows_of(per)
    f = stats.siegelslopes([r[2] for r in rows],
                           [(r[0] + r[1]) / 2 - 1 for r in rows])
    return f.intercept, f.slope * 1000


def remaining_s(first_ms, slope_us, done, late):
    """The time the disks not attached would take at the fitted cost:
    disk k (0-based) costs first + slope * k."""
    rest = range(done, late)
    return sum(first_ms + slope_us / 1000 * k for k in rest) / 1000


def windows_of(per):
    """(rows, per) of windows() from the per-disk times themselves."""
    out = []
    for start in range(0, len(per), WINDOW):
        chunk = [t * 1000 for t in per[start:start + WINDOW]]
        out.append((start + 1, start + len(chunk), statistics.median(chunk),
                    min(chunk), max(chunk)))
    return out, per


def windows(times):
    """(first disk, last disk, median ms, min ms, max ms) per WINDOW."""
    per = []
    prev = 0
    for n, dt in times:
        per += [dt / max(1, n - prev)] * (n - prev)
        prev = n
    return windows_of(per)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="attachcost", description=__doc__,
                                 formatter_class=argparse.
                                 RawDescriptionHelpFormatter)
    ap.add_argument("topology")
    ap.add_argument("--late", type=int, metavar="N",
                    help="disks to attach (default: every SCSI disk)")
    ap.add_argument("--seconds", type=float, metavar="S",
                    help="stop attaching after S seconds and extrapolate "
                    "the rest")
    ap.add_argument("--perf", metavar="DIR")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the figures and every disk's time")
    args = ap.parse_args(argv)
    try:
        planned = commands.prepare(args.topology)
    except UsageError as e:
        print(e, file=sys.stderr)
        return 2
    scsi = domain_xml.scsi_disks(planned)
    late = scsi if args.late is None else args.late
    if not 0 < late <= scsi:
        print(f"--late: {late}: must be 1 to {scsi} (the topology's SCSI "
              "disks)", file=sys.stderr)
        return 2
    if args.seconds is not None and args.seconds <= 0:
        print(f"--seconds: {args.seconds:g}: must be more than 0",
              file=sys.stderr)
        return 2
    record = measure(planned, late, args.perf, args.seconds)
    rows, per = windows(record["times"])
    for first, last, med, lo, hi in rows:
        print(f"disks {first:6d}-{last:6d}: {med:7.2f} ms [{lo:.2f}-{hi:.2f}]")
    first_ms, slope_us = fit(per)
    record.update(slope_us_per_disk=round(slope_us, 4),
                  first_ms=round(first_ms, 3),
                  median_ms=round(statistics.median(per) * 1000, 3))
    if record["attached"] < record["late"]:
        rest = remaining_s(first_ms, slope_us, record["attached"],
                           record["late"])
        record["extrapolated_total_s"] = round(record["total_s"] + rest, 1)
        print(f"stopped after {record['total_s']:.0f} s with "
              f"{record['attached']} of {record['late']} attached; the rest "
              f"at the fitted cost: {rest / 60:.1f} min more, "
              f"{record['extrapolated_total_s'] / 60:.1f} min in all")
    print(f"{record['topology']}: {record['attached']} of {record['late']} "
          f"disks attached live beside {record['on_command_line']} on the "
          f"command line (of the {record['late']}: {record['native']} by "
          f"virDomainAttachDeviceFlags, {record['monitor']} through QEMU's "
          f"monitor) in "
          f"{record['total_s']:.1f} s; per disk {record['median_ms']} ms "
          f"(median), {record['first_ms']} ms at the first and "
          f"{record['slope_us_per_disk']} us more per disk already attached "
          f"(Siegel's repeated medians); load {record['load1'][0]} -> "
          f"{record['load1'][1]}")
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
