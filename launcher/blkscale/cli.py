"""Command line entry point: `blkscale SUBCOMMAND ...`.

Every subcommand is a module with add_arguments(parser) and main(args)
-> exit status, listed once in COMMANDS.  Only the module of the
subcommand being run is imported, so one component's heavy imports
(matplotlib for reports) do not slow down the others.
"""

import argparse
import importlib
import os
import sys

from . import VERSION
from .errors import (EXIT_INTERRUPTED, BlkscaleError, InputError,
                     one_line)

# name -> (module, help), in the order `blkscale --help` lists them.
COMMANDS = {
    "baseline": ("blkscale_bench.commands.baseline",
                 "Write bench/baselines/<variant>.json from a finished sweep "
                 "(a nightly run, normally) for the nightly to compare "
                 "against; review and commit the files. Refuses partial "
                 "sweeps and sweeps with runs that brought no results, "
                 "unless --force."),
    "bench": ("blkscale_bench.commands.bench",
              "Run a sweep: every topology of a sweep file on every kernel "
              "variant, into results/<run>/<topology>/<variant>/, with "
              "results/<run>/manifest.json; prints the figures and the "
              "ratios to the reference variant. Exit status: 0 all runs ok, "
              "1 a run failed, 2 usage, 130 interrupted (manifest marked "
              "partial)."),
    "hosts": ("blkscale.commands.hosts",
              "hosts check URI...: per libvirt host one line: libvirt and "
              "QEMU versions, machine types, /dev/kvm, free memory and "
              "disk, CPUs, and whether a run can go there. Exit status: 0 "
              "every host can run, 1 one cannot, 2 usage."),
    "nightly": ("blkscale_bench.commands.nightly",
                "Run the nightly stress sweep and compare every figure with "
                "bench/baselines/<variant>.json under per-metric ratio "
                "thresholds; writes results/<run>/nightly.xml (JUnit) and "
                "nightly.json. Exit status: 0 pass, 1 regression or missing "
                "figure, 2 usage, 130 interrupted."),
    "plan": ("blkscale.commands.plan",
             "Show what a topology turns into without booting: disks, PCI "
             "layout, MSI-X vectors, I/O space, file descriptors, guest "
             "memory, block majors and the guest plan."),
    "report": ("blkscale_reports.commands.report",
               "Write RUN_DIR/report/: index.html, report.md and PNG plots "
               "(major capacity, register/lookup cost, /proc/devices, boot "
               "time model, boot curve and goals, memory per disk, fio/LVM, "
               "capacity planning) from a sweep "
               "(results/<run>/manifest.json) or a launcher run "
               "(results/<run>/summary.json)."),
    "run": ("blkscale.commands.run",
            "Boot a topology under QEMU (directly, or through libvirt with "
            "--backend libvirt) on each kernel variant and collect "
            "results/<run>/<variant>/results.json. Exit status: 0 ok, 1 a "
            "guest step failed, 2 usage or invalid topology, 3 QEMU or "
            "results channel failure, 4 timeout or hung guest, 5 kernel "
            "panic, 6 results directory full or unwritable, 130 "
            "interrupted."),
    "validate": ("blkscale.commands.validate",
                 "Check topology files: syntax, fields, PCI layout and "
                 "resources. One line per file; exit status 2 if any is "
                 "invalid."),
    "variants": ("blkscale.commands.variants",
                 "List the kernel variants of kernel/variants.toml with "
                 "their release and whether they are built (make kernel "
                 "VARIANTS='...' builds them)."),
    "xml": ("blkscale.commands.xml",
            "Print the libvirt domain XML that `run --backend libvirt` "
            "would start for a topology (one variant). Paths of the run's "
            "temporary directory show as /@RUNDIR@."),
}


def _selected(argv):
    """The subcommand named on the command line, if any."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def build_parser(selected=None):
    """The parser; only the selected subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="blkscale",
        description="Large-scale disk topology simulator: boots a kernel "
                    "under QEMU with the disks a topology file describes "
                    "and brings the guest's measurements home as JSON.")
    parser.add_argument("--version", action="version",
                        version=f"blkscale {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                required=True)
    for name, (module_name, text) in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        if name == selected:
            module = importlib.import_module(module_name)
            module.add_arguments(p)
            p.set_defaults(_module=module)
    return parser


def _stdout_closed():
    """The reader of our output went away (`blkscale plan ... | head`):
    end quietly, as other Unix tools do, with the status a shell gives a
    process that SIGPIPE killed."""
    # Later writes (the interpreter's final flush) go nowhere.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser(_selected(argv))
        args = parser.parse_args(argv)
        status = args._module.main(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _stdout_closed()
    except InputError as e:
        # Exactly one line: FILE: FIELD: PROBLEM.
        print(e, file=sys.stderr)
        return e.status
    except BlkscaleError as e:
        print(f"blkscale: {one_line(str(e))}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("blkscale: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
