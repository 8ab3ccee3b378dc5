"""blkscale report RUN_DIR: HTML, Markdown and plots of a run."""

import os

from blkscale_reports import analysis, build, capacity_answer, load
from blkscale_reports.errors import ReportError


def add_arguments(parser):
    parser.add_argument("run_dir", metavar="RUN_DIR",
                        help="results/<run> of `blkscale bench`, "
                             "`blkscale nightly` or `blkscale run`")
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


def main(args):
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
