"""blkscale report RUN_DIR: HTML, Markdown and plots of a run."""

import os

from blkscale_reports import build


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


def main(args):
    out_dir, _, drawn = build.build(args.run_dir, args.out, args.measured)
    missing = [pid for pid, (name, _) in drawn.items() if not name]
    print(f"report: {os.path.join(out_dir, 'index.html')}")
    print(f"        {os.path.join(out_dir, 'report.md')}, "
          f"{len(drawn) - len(missing)} plots"
          + (f" (no data for: {', '.join(missing)})" if missing else ""))
    return 0
