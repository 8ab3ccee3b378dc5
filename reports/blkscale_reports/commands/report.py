"""blkscale report RUN_DIR: HTML, Markdown and plots of a run; with
--disks N, what N disks cost by its fitted curves; with --history, the
nightly's nights side by side."""

import os

from blkscale_reports import (analysis, build, capacity_answer,
                               history_page, load)
from blkscale_reports.errors import ReportError


HISTORY_OUT = "nightly-history-report"


def add_arguments(parser):
    parser.add_argument("run_dir", metavar="RUN_DIR", nargs="+",
                        help="results/<run> of `blkscale bench`, "
                             "`blkscale nightly` or `blkscale run`; with "
                             "--history: the nightly's history file "
                             "(results/nightly-history.jsonl) or nights' "
                             "run directories, any number")
    parser.add_argument("--out", metavar="DIR",
                        help="output directory (default: RUN_DIR/report)")
    parser.add_argument("--measured", metavar="OTHER_RUN", action="append",
                        default=[],
                        help="another run whose boots the capacity plan "
                             "shows as measured points at their disk "
                             "counts (e.g. a dev_t-65536 run beside a "
                             "boot-curve sweep); repeatable")
    parser.add_argument("--disks", metavar="N", type=int,
                        help="print, for each kernel, the boot time and "
                             "guest and host memory the run's fitted "
                             "curves predict at N disks, with their 95%% "
                             "prediction intervals (writes no report; "
                             "exit 1 when the run has no curve)")
    parser.add_argument("--history", action="store_true",
                        help="the nights side by side: each gated figure "
                             "of the nightly across the nights given, with "
                             "its interval and the nights its verdict "
                             "changed (default output: "
                             f"{HISTORY_OUT}/ beside the first RUN_DIR)")
    parser.add_argument("--blktests-night", metavar="DIR", action="append",
                        default=[],
                        help="with --history: a blktests night's run "
                             "directory, to name the tests flaky on more "
                             "than one night; repeatable")


def _history(args):
    first = os.path.abspath(args.run_dir[0])
    out_dir = args.out or os.path.join(os.path.dirname(first),
                                       HISTORY_OUT)
    nights, series = history_page.build(args.run_dir, out_dir,
                                        args.blktests_night)
    changed = sum(len(s.changes) for s in series)
    print(f"history: {os.path.join(out_dir, 'index.html')}")
    print(f"         {len(nights)} nights, {len(series)} gated figures, "
          f"{changed} verdict change(s)")
    return 0


def main(args):
    if args.history:
        return _history(args)
    if args.blktests_night:
        raise ReportError("command line", "--blktests-night", "only with "
                          "--history")
    if len(args.run_dir) != 1:
        raise ReportError("command line", "RUN_DIR", "one run directory "
                          "(several only with --history)")
    args.run_dir = args.run_dir[0]
    if args.disks is not None:
        if args.disks < 1:
            raise ReportError("command line", "--disks", "must be a "
                              "positive number of disks")
        a = analysis.analyse(load.load(args.run_dir))
        lines, answered = capacity_answer.answer(a, args.disks)
        print("\n".join(lines))
        return 0 if answered else 1
    out_dir, _, drawn = build.build(args.run_dir, args.out, args.measured)
    missing = [pid for pid, (name, _) in drawn.items() if not name]
    print(f"report: {os.path.join(out_dir, 'index.html')}")
    print(f"        {os.path.join(out_dir, 'report.md')}, "
          f"{len(drawn) - len(missing)} plots"
          + (f" (no data for: {', '.join(missing)})" if missing else ""))
    return 0
