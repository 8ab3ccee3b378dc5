"""blkscale report RUN_DIR: HTML, Markdown and plots of a run."""

import os
import sys
from pathlib import Path

# The reports package lives next to this directory.
_REPORTS = str(Path(__file__).resolve().parents[1])
if _REPORTS not in sys.path:
    sys.path.insert(0, _REPORTS)

from blkscale_reports import build  # noqa: E402
from blkscale_reports.errors import ReportError  # noqa: E402

NAME = "report"
HELP = ("Write RUN_DIR/report/: index.html, report.md and PNG plots "
        "(major capacity, register/lookup cost, /proc/devices, boot time "
        "model, boot curve and goals, memory per disk, fio/LVM, capacity "
        "planning) from a sweep "
        "(results/<run>/manifest.json) or a launcher run "
        "(results/<run>/summary.json).")


def add_arguments(parser):
    parser.add_argument("run_dir", metavar="RUN_DIR",
                        help="results/<run> of `blkscale bench`, "
                             "`blkscale nightly` or `blkscale run`")
    parser.add_argument("--out", metavar="DIR",
                        help="output directory (default: RUN_DIR/report)")


def main(args):
    try:
        out_dir, _, drawn = build.build(args.run_dir, args.out)
    except ReportError as e:
        print(e, file=sys.stderr)
        return e.status
    missing = [pid for pid, (name, _) in drawn.items() if not name]
    print(f"report: {os.path.join(out_dir, 'index.html')}")
    print(f"        {os.path.join(out_dir, 'report.md')}, "
          f"{len(drawn) - len(missing)} plots"
          + (f" (no data for: {', '.join(missing)})" if missing else ""))
    return 0
