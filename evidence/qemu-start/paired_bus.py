#!/usr/bin/python3
"""QEMU start with scsi-hd devices naming their bus by absolute path (what
the launcher does) against by id (what it did), alternately, so that both
see the same host load.

    PYTHONPATH=launcher /usr/bin/python3 \
        evidence/qemu-start/paired_bus.py REPEAT TOPO...

Prints: disks, bus naming, repeat, start-up seconds, 1-minute load.
"""

import os
import sys
import tempfile
from pathlib import Path

from blkscale import commands, paths
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv
from blkscale.qemu.machine import Machine


def by_id(arg):
    """scsi-hd,bus=/.../<ctrl>.0,... -> scsi-hd,bus=<ctrl>.0,..."""
    if not arg.startswith("scsi-hd,bus=/"):
        return arg
    driver, bus, rest = arg.split(",", 2)
    return ",".join([driver, "bus=" + bus.rsplit("/", 1)[-1], rest])


def start(planned, mode):
    with tempfile.TemporaryDirectory(prefix="paired-bus-") as tmp:
        files = RunFiles.under(paths.kernel_dir("patched") / "bzImage", tmp)
        Path(files.initrd).write_bytes(b"\0" * 512)
        argv = qargv.build_argv(planned, files, "patched", "tcg",
                                "qemu-system-x86_64")
        if mode == "id":
            argv = [by_id(a) for a in argv]
        machine = Machine(os.path.join(tmp, "qemu.log"))
        machine.configure(argv, files.qmp)
        with machine:
            return machine.launch(timeout=3600)


def main():
    os.environ["BLKSCALE_DISK_METHOD"] = "stack"
    for rep in range(int(sys.argv[1])):
        for topo in sys.argv[2:]:
            planned = commands.prepare(topo)
            for mode in ("path", "id") if rep % 2 == 0 else ("id", "path"):
                s = start(planned, mode)
                print(planned.topo.expected_total, mode, rep, round(s, 2),
                      os.getloadavg()[0], flush=True)


if __name__ == "__main__":
    main()
