"""blkscale nightly: a stress sweep judged against committed baselines."""

import os

from blkscale_bench import baseline, cli, metrics, nightly, sweep
from blkscale_bench.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK

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
    print()
    for line in nightly.report_lines(result, failed, checks, run_dir):
        print(line)
    if status == EXIT_INTERRUPTED:
        return status
    return EXIT_FAILED if failed else EXIT_OK
