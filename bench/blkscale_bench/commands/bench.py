"""blkscale bench: a sweep over topologies and kernel variants."""

import os

from blkscale import provenance
from blkscale.figures import bootcurve, clockfloor
from blkscale.results.manifest import path_in as manifest_path
from blkscale_bench import bootcurve_table, cli, heldtable, repeats, table
from blkscale_bench.errors import (EXIT_FAILED, EXIT_INCONCLUSIVE, EXIT_OK,
                                   BenchError)
from blkscale_bench.judging import nightly
from blkscale_bench.running import sweep

DEFAULT_SWEEP = "bench/sweeps/default.toml"


def add_arguments(parser):
    cli.add_sweep_arguments(parser, DEFAULT_SWEEP)
    parser.add_argument("--show", metavar="RUN_DIR",
                        help="print the table of an existing sweep and stop")
    parser.add_argument("--reference", metavar="VARIANT",
                        help="with --show: the ratios to this variant of the "
                             "sweep instead of its reference (stock-6.12 "
                             "to compare the 6.12 kernels with each other)")
    parser.add_argument("--held", action="append", metavar="A/B",
                        help="with --show: register_blkdev of variant A "
                             "against B at equal numbers of held majors, "
                             "bucket by bucket (repeatable), over the runs "
                             "of --topology if given, else of all")
    parser.add_argument("--continue", dest="continue_run",
                        action="store_true",
                        help="make the runs that the interrupted sweep "
                             "--run-id has not made, into its directory; "
                             "refused if its sweep, QEMU or kernel images "
                             "changed since it started")


def print_held(run_dir, pairs, topologies=None):
    """The held-majors tables of --held, after the sweep's own; over the
    runs of `topologies` (names) only, when given."""
    manifest, docs = repeats.load(run_dir)
    if topologies:
        names = {os.path.splitext(os.path.basename(t))[0]
                 for t in topologies}
        unknown = names - {topo for topo, _ in docs}
        if unknown:
            raise BenchError("command line", "--topology",
                             f"{', '.join(sorted(unknown))}: not a "
                             f"topology of {run_dir}")
        docs = {k: v for k, v in docs.items() if k[0] in names}
    for text in pairs:
        a, b = heldtable.parse_pair(text)
        print()
        for line in heldtable.lines(docs, manifest.variants, a, b):
            print(line)


def print_table(run_dir, reference=None):
    """Print the sweep's table and boot curve, ratios to `reference` (the
    sweep's own by default); returns the goals' verdicts
    (bootcurve.Verdict)."""
    manifest, docs = repeats.load(run_dir)
    if reference is not None:
        if reference not in manifest.variants:
            raise BenchError("command line", "--reference",
                             f"{reference!r} is not a variant of {run_dir} "
                             f"(it has {', '.join(manifest.variants)})")
        manifest = manifest.with_reference(reference)
    for line in table.lines(manifest, repeats.figures(manifest, docs),
                            clockfloor.sweep_floors(docs)):
        print(line)
    result = bootcurve.analyse(manifest.sweep, docs,
                               nightly.loads_of(manifest))
    for line in bootcurve_table.lines(result, manifest.variants):
        print(line)
    print(f"manifest: {manifest_path(run_dir)}")
    return result.verdicts


def goals_status(verdicts):
    """Goals gate: a FAIL fails the command, an undecided goal makes it
    inconclusive."""
    said = {v.verdict for v in verdicts}
    if bootcurve.FAIL in said:
        return EXIT_FAILED
    if bootcurve.INCONCLUSIVE in said:
        return EXIT_INCONCLUSIVE
    return EXIT_OK


def main(args):
    if args.show:
        # A viewer: its status is not a verdict.
        print_table(args.show, args.reference)
        print_held(args.show, args.held or [],
                   [w for t in args.topology or [] for w in t.split()])
        return 0
    if args.held:
        raise BenchError("command line", "--held", "only with --show")
    if args.reference:
        raise BenchError("command line", "--reference", "only with --show "
                         "(a sweep file's `reference` names it for a new "
                         "sweep)")
    spec = cli.sweep_from_args(args)
    if args.continue_run and not args.run_id:
        raise BenchError("command line", "--continue", "needs --run-id: the "
                         "sweep to continue")
    results, run_id = cli.run_location(args, spec)
    start = sweep.continue_run if args.continue_run else sweep.run
    status, _ = start(spec, results, run_id, provenance.command_line())
    print()
    goals = goals_status(print_table(os.path.join(results, run_id)))
    if status != EXIT_OK:
        return status
    return goals
