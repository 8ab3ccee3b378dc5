"""Command line entry point: `blkscale SUBCOMMAND ...`."""

import argparse
import sys

from . import VERSION, commands
from .errors import EXIT_INTERRUPTED, BlkscaleError, TopologyError, one_line


def _selected(argv, registry):
    """The subcommand named on the command line, if any."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in registry else None
    return None


def build_parser(registry, selected=None):
    """The parser; only the selected subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="blkscale",
        description="Large-scale disk topology simulator: boots a kernel "
                    "under QEMU with the disks a topology file describes "
                    "and brings the guest's measurements home as JSON.")
    parser.add_argument("--version", action="version",
                        version=f"blkscale {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                required=True)
    for name, entry in registry.items():
        p = sub.add_parser(name, help=entry.help, description=entry.help)
        if name == selected:
            module = entry.load()
            module.add_arguments(p)
            p.set_defaults(_module=module)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        registry = commands.discover()
        parser = build_parser(registry, _selected(argv, registry))
        args = parser.parse_args(argv)
        return args._module.main(args)
    except TopologyError as e:
        # Exactly one line: FILE: FIELD: PROBLEM.
        print(e, file=sys.stderr)
        return e.status
    except BlkscaleError as e:
        print(f"blkscale: {one_line(str(e))}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("blkscale: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
