"""The blkscale command's subcommands: `blkscale SUBCOMMAND ...`.

It sits above the three packages and lists the subcommands each of them
declares (COMMANDS of blkscale.commands, blkscale_bench.commands and
blkscale_reports.commands: every subcommand a module there with
add_arguments(parser) and main(args) -> exit status).  Only the module
of the subcommand being run is imported, so one component's heavy
imports (matplotlib for reports) do not slow down the others.
"""

import argparse
import importlib
import os
import sys

import blkscale_bench.commands
import blkscale_reports.commands
from blkscale import VERSION, paths
from blkscale import commands as launcher_commands
from blkscale.errors import (EXIT_INTERRUPTED, BlkscaleError, InputError,
                             UsageError, one_line)

from .checkout import give_back_environment
from .home import OPTION as HOME_OPTION

PROG = "blkscale"
# name -> (package of its module, help), in the order --help lists them.
COMMANDS = dict(sorted(
    (name, (package, text))
    for package in (launcher_commands, blkscale_bench.commands,
                    blkscale_reports.commands)
    for name, text in package.COMMANDS.items()))


def _selected(argv):
    """The subcommand named on the command line, if any."""
    words = iter(argv)
    for arg in words:
        if arg == HOME_OPTION:
            next(words, None)
        elif not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def build_parser(selected=None):
    """The parser; only the selected subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Large-scale disk topology simulator: boots a kernel "
                    "under QEMU with the disks a topology file describes "
                    "and brings the guest's measurements home as JSON.")
    parser.add_argument("--version", action="version",
                        version=f"{PROG} {VERSION}")
    parser.add_argument(HOME_OPTION, metavar="DIR",
                        help="the checkout to work on (its kernel/, "
                             "topologies/, build/, results/); default: "
                             f"${paths.HOME_VARIABLE}, else the checkout "
                             "this command runs from or was installed from")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                required=True)
    for name, (package, text) in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        if name == selected:
            module = importlib.import_module(f".{name}", package.__name__)
            module.add_arguments(p)
            p.set_defaults(_module=module)
    return parser


def _stdout_closed():
    """The reader of our output went away (`blkscale plan ... | head`):
    end quietly, as other Unix tools do, with the status a shell gives a
    process that SIGPIPE killed."""
    # Later writes (the interpreter's final flush) go nowhere.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13


def run(argv):
    give_back_environment()
    try:
        parser = build_parser(_selected(argv))
        args = parser.parse_args(argv)
        problem = paths.home_problem()
        if problem:
            raise UsageError(problem)
        status = args._module.main(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _stdout_closed()
    except InputError as e:
        # Exactly one line: FILE: FIELD: PROBLEM.
        print(e, file=sys.stderr)
        return e.status
    except BlkscaleError as e:
        print(f"blkscale: {one_line(str(e))}", file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("blkscale: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
