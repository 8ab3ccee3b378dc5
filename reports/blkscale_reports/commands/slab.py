"""blkscale slab SMALL LARGE: memory per disk by slab cache between two
runs of one kernel."""

import json

from blkscale.results.runresults import FILENAME

from blkscale_reports import slabcaches
from blkscale_reports.errors import ReportError


def add_arguments(parser):
    parser.add_argument("small", metavar="SMALL",
                        help=f"{FILENAME} of a run with fewer disks")
    parser.add_argument("large", metavar="LARGE",
                        help=f"{FILENAME} of the same kernel with more")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="caches shown, the most per disk first "
                             "(default 10)")
    parser.add_argument("--json", action="store_true",
                        help="every cache as JSON instead")


def _read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise ReportError(path, "", e.strerror) from None
    except json.JSONDecodeError as e:
        raise ReportError(path, "", f"not JSON: {e}") from None


def main(args):
    rows, facts = slabcaches.per_disk(_read(args.small), _read(args.large),
                                      args.small, args.large)
    if args.json:
        release, added, slab = facts
        print(json.dumps({
            "release": release, "disks_added": added,
            "meminfo_slab_kib_per_disk": slab,
            "caches": [{"cache": n, "bytes_per_disk": round(b, 1),
                        "objects_per_disk": round(o, 3)}
                       for n, b, o in rows]}, indent=1))
    else:
        print(slabcaches.table(rows, facts, args.top))
    return 0
