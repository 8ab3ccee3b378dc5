"""blkscale nightly: a stress sweep judged against committed baselines."""

import os
import sys
from pathlib import Path

_BENCH = str(Path(__file__).resolve().parents[1])
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)

from blkscale_bench import baseline, cli, metrics, nightly, sweep  # noqa: E402
from blkscale_bench.errors import (EXIT_FAILED, EXIT_INTERRUPTED,  # noqa: E402
                                   EXIT_OK, BenchError)

NAME = "nightly"
HELP = ("Run the nightly stress sweep and compare every figure with "
        "bench/baselines/<variant>.json under per-metric ratio thresholds; "
        "writes results/<run>/nightly.xml (JUnit) and nightly.json. Exit "
        "status: 0 pass, 1 regression or missing figure, 2 usage, "
        "130 interrupted.")
DEFAULT_SWEEP = "bench/sweeps/nightly.toml"


def add_arguments(parser):
    cli.add_sweep_arguments(parser, DEFAULT_SWEEP)
    parser.add_argument("--baselines", metavar="DIR",
                        default=str(baseline.DEFAULT_DIR),
                        help="directory of <variant>.json baselines "
                             "(default: bench/baselines)")
    parser.add_argument("--compare", metavar="RUN_DIR",
                        help="judge an existing sweep instead of running one")


def main(args):
    try:
        spec = cli.sweep_from_args(args, known_metrics=metrics.all_names)
        if args.compare:
            run_dir = args.compare
            status = EXIT_OK
        else:
            results, run_id = cli.run_location(args, spec)
            status, _ = sweep.run(spec, results, run_id, cli.command_line())
            run_dir = os.path.join(results, run_id)
        result, failed, checks = nightly.evaluate(run_dir, args.baselines,
                                                  spec.thresholds)
    except BenchError as e:
        print(e, file=sys.stderr)
        return e.status
    print()
    for line in nightly.report_lines(result, failed, checks, run_dir):
        print(line)
    if status == EXIT_INTERRUPTED:
        return status
    return EXIT_FAILED if failed else EXIT_OK
