"""blkscale nightly: a stress sweep judged against committed baselines.

Exit status: 0 PASS, 1 REGRESSION (a failed run, a wrong count, a time
or goal beyond its limit), 3 INCONCLUSIVE (a gating time or goal the
repeats could not decide, even after adding repeats up to the sweep's
`max_repeat`), 2 bad input, 130 interrupted.
"""

import os

from blkscale import provenance
from blkscale.figures import metrics
from blkscale.results.read import read_manifest
from blkscale_bench import cli
from blkscale_bench.errors import (EXIT_FAILED, EXIT_INCONCLUSIVE,
                                   EXIT_INTERRUPTED, EXIT_OK)
from blkscale_bench.judging import baseline, nightly, power
from blkscale_bench.running import sweep

DEFAULT_SWEEP = "bench/sweeps/nightly.toml"
STATUS = {nightly.PASS: EXIT_OK, nightly.REGRESSION: EXIT_FAILED,
          nightly.INCONCLUSIVE: EXIT_INCONCLUSIVE}


def add_arguments(parser):
    cli.add_sweep_arguments(parser, DEFAULT_SWEEP)
    parser.add_argument("--baselines", metavar="DIR",
                        default=str(baseline.DEFAULT_DIR),
                        help="directory of <variant>.json baselines "
                             "(default: bench/baselines)")
    parser.add_argument("--compare", metavar="RUN_DIR",
                        help="judge an existing sweep instead of running "
                             "one (adds no repeats unless --decide)")
    parser.add_argument("--decide", action="store_true",
                        help="with --compare: add repeats to the sweep "
                             "where a time is undecided, as a new nightly "
                             "would")
    parser.add_argument("--max-repeat", metavar="N", type=int,
                        help="repeats a topology may reach while deciding "
                             "its times (default: the sweep file's "
                             "`max_repeat`, else 9)")


def gate_line(spec):
    """Where the nightly gates times (boot times and in-guest per-call
    costs), said before anything runs."""
    if spec.gate_times is None:
        return None
    rest = [t.name for t in spec.topologies if t.name not in spec.gate_times]
    line = "nightly: boot times and per-call costs gate on " + \
        (", ".join(spec.gate_times) or "no topology")
    limits = limits_text(spec)
    if limits:
        line += (f", their ratios to {spec.reference}'s (paired by repeat) "
                 f"at most the baseline's times {limits}")
    if rest:
        line += (f"; on {', '.join(rest)} they are advisory (this host "
                 "cannot resolve them there): those runs prove counts "
                 "and memory")
    return line


def limits_text(spec):
    """The gating limits of the paired times and per-call costs, grouped:
    "1.15 for boot times (kernel_to_init_s, ...); 1.1 for per-call costs
    (...)"."""
    suffix = f"_vs_{spec.reference}"
    groups = {}
    for name, limit in spec.thresholds.items():
        kind = metrics.kind_of(name, spec.reference)
        if not name.endswith(suffix) or kind not in metrics.TIMED or \
                "max_ratio" not in limit or not limit.get("gate", True):
            continue
        groups.setdefault((kind, limit["max_ratio"]), []).append(
            name[:-len(suffix)])
    words = {metrics.TIME: "boot times", metrics.CALL: "per-call costs"}
    order = sorted(groups, key=lambda k: (k[0] != metrics.TIME, k[1]))
    return "; ".join(f"{ratio:g} for {words[kind]} "
                     f"({', '.join(groups[kind, ratio])})"
                     for kind, ratio in order)


def main(args):
    spec = cli.sweep_from_args(args, known_metrics=metrics.all_names)
    if args.max_repeat is not None:
        spec.max_repeat = args.max_repeat
    said = gate_line(spec)
    if said:
        print(said)
    status = EXIT_OK
    if args.compare:
        run_dir = args.compare
        decide = args.decide
    else:
        results, run_id = cli.run_location(args, spec)
        status, _ = sweep.run(spec, results, run_id, provenance.command_line())
        run_dir = os.path.join(results, run_id)
        decide = status != EXIT_INTERRUPTED

    def evaluate():
        return nightly.evaluate(run_dir, args.baselines, spec.thresholds,
                                spec.gate_times, spec.baselines)

    def extend(rounds):
        return sweep.extend(spec, run_dir, [
            (repeat, [t for t in spec.topologies if t.name in names])
            for repeat, names in rounds])[0]

    if decide:
        (result, failed, checks), added, more = power.settle(
            evaluate, extend, lambda: read_manifest(run_dir),
            spec.max_repeat)
        if more == EXIT_INTERRUPTED:
            status = more
    else:
        result, failed, checks = evaluate()
        added = {}
    print()
    for topo, n in sorted(added.items()):
        print(f"nightly: {topo}: {n} repeat{'s' if n > 1 else ''} added to "
              "decide its times")
    for line in nightly.report_lines(result, failed, checks, run_dir):
        print(line)
    if status == EXIT_INTERRUPTED:
        return status
    # A failed run already fails the verdict (runcheck.py); a sweep that
    # failed in a way no check saw still fails the nightly.
    if status != EXIT_OK and result == nightly.PASS:
        return EXIT_FAILED
    return STATUS[result]
