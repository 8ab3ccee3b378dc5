"""--staging, --run-id and --results-dir mean the same to `blkscale run`
and to a sweep: both take them from the launcher's one declaration."""

import argparse

from blkscale.commands import run
from blkscale_bench import cli

SHARED = ("--staging", "--run-id", "--results-dir")


def actions(add):
    parser = argparse.ArgumentParser()
    add(parser)
    return {a.option_strings[0]: a for a in parser._actions
            if a.option_strings and a.option_strings[0] in SHARED}


def test_run_and_sweep_declare_the_options_alike():
    launcher = actions(run.add_arguments)
    bench = actions(lambda p: cli.add_sweep_arguments(p, "sweep.toml"))
    assert sorted(launcher) == sorted(bench) == sorted(SHARED)
    for option in SHARED:
        mine, theirs = launcher[option], bench[option]
        assert (mine.choices, mine.metavar, mine.default) == \
            (theirs.choices, theirs.metavar, theirs.default)
        # Only the run's default name differs: a topology's or a sweep's.
        assert mine.help.replace("topology", "sweep") == theirs.help
