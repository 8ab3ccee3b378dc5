"""blkscale validate TOPO...: check topology files without booting."""

import sys

from . import prepare
from ..errors import EXIT_OK, EXIT_USAGE, TopologyError


def add_arguments(parser):
    parser.add_argument("topologies", nargs="+", metavar="TOPO",
                        help="topology file(s), e.g. topologies/smoke.toml")


def main(args):
    status = EXIT_OK
    for path in args.topologies:
        try:
            planned = prepare(path)
        except TopologyError as e:
            print(e, file=sys.stderr)
            status = EXIT_USAGE
            continue
        topo = planned.topo
        e = topo.expected
        print(f"{path}: ok ({topo.expected_total} disks: virtio {e['virtio']},"
              f" scsi {e['scsi']}, sim {e['sim']}; "
              f"{len(planned.layout.bridges)} pci-bridges)")
    return status
