"""Options shared by `blkscale bench` and `blkscale nightly`."""

import os

from blkscale.commands.runflags import add_qemu_argument, add_run_arguments
from blkscale.names import RUN_ID
from blkscale.paths import REPO

from . import hosts, sweepfile
from .errors import BenchError


def add_sweep_arguments(parser, default_sweep):
    parser.add_argument("--sweep", metavar="FILE", default=default_sweep,
                        help=f"sweep file (default: {default_sweep})")
    parser.add_argument("--topology", action="append", metavar="NAME",
                        help="topology name or file, instead of the sweep "
                             "file's list (repeatable, or space-separated)")
    parser.add_argument("--variant", action="append", metavar="NAME",
                        help="kernel variant, instead of the sweep file's "
                             "list (repeatable, or space-separated)")
    parser.add_argument("--accel", choices=sweepfile.ACCELS,
                        help="accelerator (default: the sweep file's)")
    parser.add_argument("--repeat", metavar="N", type=int,
                        help="runs of every topology and variant, "
                             "interleaved (default: the sweep file's "
                             "`repeat`, else 1)")
    parser.add_argument("--host", action="append", metavar="URI",
                        help="a libvirt host to run on, instead of the sweep "
                             "file's `hosts` (repeatable, or space-"
                             "separated): units go to the hosts from one "
                             "queue, each through the libvirt backend")
    parser.add_argument("--slots", metavar="N", type=int,
                        help="units each --host runs at once (default 1)")
    add_qemu_argument(parser, "the sweep file's `qemu` (default: each "
                      "topology's guest.qemu); every run gets it")
    # The launcher's own: every --host's runs get --staging.
    add_run_arguments(parser, "sweep")


def _words(values):
    return [w for v in values or [] for w in v.split()]


def _only_chosen(sweep):
    """The ceilings and gate_times of the topologies --topology chose: a
    ceiling of one left out would fail as a missing figure."""
    names = {t.name for t in sweep.topologies}
    sweep.ceilings = [c for c in sweep.ceilings if c["topology"] in names]
    if sweep.gate_times is not None:
        sweep.gate_times = [t for t in sweep.gate_times if t in names]


def sweep_from_args(args, known_metrics=None):
    """The sweep file with the command line's overrides applied."""
    path = args.sweep
    if not os.path.isabs(path) and not os.path.exists(path):
        path = str(REPO / path)
    sweep = sweepfile.load(path, known_metrics)
    topologies = _words(args.topology)
    if topologies:
        sweep.topologies = sweepfile.check_topologies(
            [sweepfile.resolve_topology(t, "command line", "--topology",
                                        cwd=os.getcwd())
             for t in topologies], "command line", "--topology")
        _only_chosen(sweep)
    variants = _words(args.variant)
    if variants:
        sweep.variants = sweepfile.check_variants(variants, "command line",
                                                  "--variant")
    uris = _words(getattr(args, "host", None))
    if uris:
        sweep.hosts = hosts.from_command_line(uris, args.slots,
                                              getattr(args, "staging", None))
        sweep.hosts_where, sweep.hosts_field = "command line", "--host"
    elif getattr(args, "slots", None) is not None:
        raise BenchError("command line", "--slots", "needs --host")
    elif getattr(args, "staging", None) is not None:
        raise BenchError("command line", "--staging", "needs --host")
    if getattr(args, "qemu", None) is not None:
        sweep.qemu = sweepfile.check_qemu(args.qemu, "command line",
                                          "--qemu", os.getcwd())
        sweep.qemu_where, sweep.qemu_field = "command line", "--qemu"
    if args.accel:
        sweep.accel = args.accel
    if args.repeat is not None:
        sweep.repeat = sweepfile.check_repeat(args.repeat, "command line",
                                              "--repeat")
    return sweep


def run_location(args, sweep):
    from .running.sweep import default_run_id
    name = os.path.splitext(os.path.basename(sweep.path))[0]
    run_id = args.run_id or default_run_id(name)
    if not RUN_ID.fullmatch(run_id):
        raise BenchError("command line", "--run-id",
                         f"{run_id!r}: use letters, digits, . _ -")
    results = args.results_dir or str(REPO / "results")
    return results, run_id
