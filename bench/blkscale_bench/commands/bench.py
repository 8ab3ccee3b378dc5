"""blkscale bench: a sweep over topologies and kernel variants."""

import os

from blkscale_bench import bootcurve, bootcurve_table
from blkscale_bench import clockfloor, cli, hostload, repeats, sweep, table

DEFAULT_SWEEP = "bench/sweeps/default.toml"


def add_arguments(parser):
    cli.add_sweep_arguments(parser, DEFAULT_SWEEP)
    parser.add_argument("--show", metavar="RUN_DIR",
                        help="print the table of an existing sweep and stop")


def print_table(run_dir):
    manifest, docs = repeats.load(run_dir)
    for line in table.lines(manifest, repeats.figures(manifest, docs),
                            clockfloor.sweep_floors(docs)):
        print(line)
    spec = manifest.get("sweep") or {}
    result = bootcurve.analyse(spec, docs, hostload.loaded_runs(manifest))
    for line in bootcurve_table.lines(result, spec.get("variants") or []):
        print(line)
    print(f"manifest: {os.path.join(run_dir, 'manifest.json')}")


def main(args):
    if args.show:
        print_table(args.show)
        return 0
    spec = cli.sweep_from_args(args)
    results, run_id = cli.run_location(args, spec)
    status, _ = sweep.run(spec, results, run_id, cli.command_line())
    print()
    print_table(os.path.join(results, run_id))
    return status
