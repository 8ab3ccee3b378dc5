"""The blkscale command: `blkscale [--home DIR] SUBCOMMAND ...`
(dispatch.py lists and runs the subcommands)."""

import sys

from .home import take_home


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    take_home(argv)
    # Only now: the packages find their home when first imported.
    from .dispatch import run
    return run(argv)
