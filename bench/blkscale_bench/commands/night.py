"""blkscale night: the nightly by parts, over as many sittings as it
takes (bench/README.md, Nightly).

Exit status: the night's verdict: 0 PASS (every part ran and passed),
1 REGRESSION (a part failed), 3 INCONCLUSIVE (a part undecided, none
failed), 4 UNFINISHED (parts still to run, none failed or undecided);
2 bad input; 130 interrupted (the part it stopped is run again next
time).
"""

import argparse
import os

from blkscale.figures import metrics
from blkscale.names import RUN_ID
from blkscale.paths import REPO

from .. import cli, sweepfile
from ..errors import EXIT_INTERRUPTED, BenchError
from ..night import parts, record, sitting
from .nightly import DEFAULT_SWEEP

GATED_SWEEP = "bench/sweeps/nightly-gated.toml"
CURVE_SWEEP = "bench/sweeps/bootcurve-nightly.toml"
SIM_SWEEP = "bench/sweeps/sim-65536.toml"
KERNELS_SWEEP = "bench/sweeps/kernels.toml"
MULTIPATH_SWEEP = "bench/sweeps/multipath-4000.toml"


def add_arguments(parser):
    parser.add_argument("--night", metavar="ID",
                        help="the night to run or continue (default: the "
                             "newest night with parts still to run, else a "
                             "new one named by the UTC date and time)")
    parser.add_argument("--weekly", action="store_true",
                        help="the weekly night, results/weekly-<night>: "
                             "the parts too long for a night ("
                             + ", ".join(parts.KINDS["weekly"]) + ")")
    parser.add_argument("--parts", action="append", metavar="NAME",
                        help="run only these parts of the night "
                             "(repeatable, or space-separated; default "
                             "all): " + ", ".join(parts.KINDS["nightly"])
                             + "; of the weekly night: "
                             + ", ".join(parts.KINDS["weekly"]))
    parser.add_argument("--gated-sweep", metavar="FILE",
                        default=GATED_SWEEP,
                        help="the gated part's sweep, its kernels built "
                             f"first (default: {GATED_SWEEP})")
    parser.add_argument("--sweep", metavar="FILE", default=DEFAULT_SWEEP,
                        help="the every-disk part's sweep (default: "
                             f"{DEFAULT_SWEEP})")
    for option in ("--topology", "--variant", "--host"):
        parser.add_argument(option, action="append", metavar="VALUE",
                            help=f"the every-disk sweep's {option}")
    parser.add_argument("--repeat", metavar="N", type=int,
                        help="the every-disk sweep's --repeat")
    parser.add_argument("--staging", metavar="MODE",
                        help="the every-disk sweep's --staging")
    parser.add_argument("--curve-sweep", metavar="FILE", default=CURVE_SWEEP,
                        help=f"the bootcurve part's sweep (default: "
                             f"{CURVE_SWEEP})")
    parser.add_argument("--curve-qemu", metavar="QEMU", default="patched",
                        help="the bootcurve part's QEMU: patched (built "
                             "first, make qemu), distro or a path (default: "
                             "patched)")
    parser.add_argument("--sim-sweep", metavar="FILE", default=SIM_SWEEP,
                        help=f"the sim part's sweep (default: {SIM_SWEEP})")
    parser.add_argument("--kernels-sweep", metavar="FILE",
                        default=KERNELS_SWEEP,
                        help="the kernels part's sweep, after make "
                             f"kernel-all initramfs-all (default: "
                             f"{KERNELS_SWEEP})")
    parser.add_argument("--multipath-sweep", metavar="FILE",
                        default=MULTIPATH_SWEEP,
                        help="the multipath part's sweep, its kernels "
                             f"built first (default: {MULTIPATH_SWEEP})")
    parser.add_argument("--results-dir", metavar="DIR",
                        help="where the nights and their runs go (default: "
                             "results/ of the checkout)")


def _words(values):
    return [w for v in values or [] for w in v.split()]


def _path(value):
    """A path as given on the command line, for children that run in
    the checkout: absolute when it names a file from here that it does
    not name from there."""
    there = REPO / value
    if os.path.isabs(value) or not os.path.exists(value) or \
            (there.exists() and os.path.samefile(value, there)):
        return value
    return os.path.abspath(value)


def _options(args):
    spec = cli.sweep_from_args(argparse.Namespace(
        sweep=args.sweep, topology=args.topology, variant=args.variant,
        host=args.host, slots=None, staging=args.staging, qemu=None,
        accel=None, repeat=args.repeat), known_metrics=metrics.all_names)
    passed = [w for option, value in (("--variant", args.variant),
                                      ("--host", args.host))
              for v in value or [] for w in (option, v)]
    if args.repeat is not None:
        passed += ["--repeat", str(args.repeat)]
    if args.staging:
        passed += ["--staging", args.staging]
    qemu = args.curve_qemu
    gated = args.gated_sweep
    if not os.path.isabs(gated) and not os.path.exists(gated):
        gated = str(REPO / gated)
    gated = sweepfile.load(gated, metrics.all_names)
    return parts.Options(
        sweep=spec, sweep_args=passed, gated_sweep=gated,
        curve_sweep=_path(args.curve_sweep),
        curve_qemu=qemu if qemu in ("patched", "distro") else _path(qemu),
        sim_sweep=_path(args.sim_sweep),
        kernels_sweep=_path(args.kernels_sweep),
        multipath_sweep=_path(args.multipath_sweep),
        results_dir=os.path.abspath(args.results_dir)
        if args.results_dir else None)


def _kind(args):
    return "weekly" if args.weekly else "nightly"


def _chosen(args, kind):
    known = parts.KINDS[kind]
    names = _words(args.parts) or list(known)
    for name in names:
        if name in known:
            continue
        problem = f"{name!r}: the parts of the {kind} night are " + \
            ", ".join(known)
        if name in parts.KINDS["weekly"]:
            problem += f"; {name} is the weekly night's (--weekly)"
        raise BenchError("command line", "--parts", problem)
    return [n for n in known if n in names]


def _night_id(args, results, kind):
    if args.night:
        if not RUN_ID.fullmatch(args.night):
            raise BenchError("command line", "--night", f"{args.night!r}: "
                             "use letters, digits, . _ -")
        return args.night
    found = record.newest_unfinished(results, kind)
    return found.night if found else record.new_night_id()


def _wall(seconds):
    if seconds is None:
        return "-"
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def _said(part):
    if part["status"] != record.DONE:
        return part["status"]
    if part["exit"] in sitting.VERDICT_OF_EXIT:
        return part["verdict"]
    return f"{part['verdict']} (exit {part['exit']})"


def table_lines(night):
    rows = [("part", "verdict", "wall", "run")] + [
        (p["name"], _said(p), _wall(p["wall_s"]), p["run_id"] or "-")
        for p in night.parts]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[3]
            for r in rows]


def verdict_line(night, interrupted):
    if interrupted:
        return (f"night {night.night}: interrupted in {interrupted} (exit "
                f"{EXIT_INTERRUPTED}); run it again to continue from there")
    verdict = night.verdict()
    line = f"night {night.night}: {verdict} (exit {record.EXIT[verdict]})"
    rest = night.still_to_run()
    if rest:
        line += "; still to run: " + ", ".join(rest)
    return line


def main(args):
    options = _options(args)
    kind = _kind(args)
    chosen = _chosen(args, kind)
    results = options.results_dir or str(REPO / "results")
    night_id = _night_id(args, results, kind)
    directory = record.night_dir(results, night_id, kind)
    with sitting.holding(directory):
        path = os.path.join(directory, record.FILENAME)
        night = record.Night.load(path, kind) if os.path.exists(path) \
            else record.Night.create(results, night_id, kind)
        with sitting.stopping() as stop:
            interrupted = sitting.sit(
                night, chosen, options, results, stop,
                say=lambda line: print(line, flush=True))
    print()
    for line in table_lines(night):
        print(line)
    print(verdict_line(night, interrupted))
    return EXIT_INTERRUPTED if interrupted else record.EXIT[night.verdict()]
