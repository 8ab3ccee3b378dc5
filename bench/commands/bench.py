"""blkscale bench: a sweep over topologies and kernel variants."""

import os
import sys
from pathlib import Path

# The bench package lives next to this directory (bench/blkscale_bench).
_BENCH = str(Path(__file__).resolve().parents[1])
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)

from blkscale_bench import bootcurve, bootcurve_table  # noqa: E402
from blkscale_bench import cli, repeats, sweep, table  # noqa: E402
from blkscale_bench.errors import BenchError  # noqa: E402

NAME = "bench"
HELP = ("Run a sweep: every topology of a sweep file on every kernel "
        "variant, into results/<run>/<topology>/<variant>/, with "
        "results/<run>/manifest.json; prints the figures and the ratios "
        "to the reference variant. Exit status: 0 all runs ok, 1 a run "
        "failed, 2 usage, 130 interrupted (manifest marked partial).")
DEFAULT_SWEEP = "bench/sweeps/default.toml"


def add_arguments(parser):
    cli.add_sweep_arguments(parser, DEFAULT_SWEEP)
    parser.add_argument("--show", metavar="RUN_DIR",
                        help="print the table of an existing sweep and stop")


def print_table(run_dir):
    manifest, docs = repeats.load(run_dir)
    for line in table.lines(manifest, repeats.figures(manifest, docs)):
        print(line)
    spec = manifest.get("sweep") or {}
    for line in bootcurve_table.lines(bootcurve.analyse(spec, docs),
                                      spec.get("variants") or []):
        print(line)
    print(f"manifest: {os.path.join(run_dir, 'manifest.json')}")


def main(args):
    try:
        if args.show:
            print_table(args.show)
            return 0
        spec = cli.sweep_from_args(args)
        results, run_id = cli.run_location(args, spec)
        status, _ = sweep.run(spec, results, run_id, cli.command_line())
        print()
        print_table(os.path.join(results, run_id))
        return status
    except BenchError as e:
        print(e, file=sys.stderr)
        return e.status
