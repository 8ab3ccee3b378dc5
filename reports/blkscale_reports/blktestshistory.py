"""How many nights in a row a blktests test has been flaky.

The nightly keeps each night's blktests run, second boots included, as
results/blktests-nightly/<UTC time>/: those directories are the history,
nothing else is stored.  Each earlier night is judged again from its own
results, so a change to the verdict rules applies to the past as well.
A directory without both kernels' results (a night whose guests died) is
no night: it neither breaks nor extends a run of flaky nights.
"""

from pathlib import Path

from blkscale.figures import blktests as verdicts
from blkscale.results import runresults

from . import blktestsruns as bv

NIGHTLY = "blktests-nightly"
# A test flaky this many nights in a row is named in the report.
NIGHTS_NAMED = 3
# Nights read back at most: enough to count a streak past NIGHTS_NAMED.
WINDOW = 14


def nights(run_dir, variants):
    """The nightly's run directories up to run_dir, oldest first, each
    with results of every variant; at most WINDOW of them."""
    run_dir = Path(run_dir)
    found = [d for d in sorted(run_dir.parent.iterdir())
             if d.is_dir() and d.name <= run_dir.name
             and all(runresults.exists_in(d / v) for v in variants)]
    return found[-WINDOW:]


def flaky_tests(night_dir, reference, other):
    """{(test, disk)} that one night judged flaky."""
    docs = bv.load_run(night_dir, [reference, other])
    return {(v.test, v.disk) for v in verdicts.judge(docs, reference, other)
            if v.verdict == "flaky"}


def flaky_streaks(night_dirs, reference, other):
    """{(test, disk): nights in a row, ending with the last, flaky}."""
    streak = {}
    for d in night_dirs:
        flaky = flaky_tests(d, reference, other)
        streak = {k: streak.get(k, 0) + 1 for k in flaky}
    return streak


def named(streaks, at_least=NIGHTS_NAMED):
    """"scsi/007 on scsi-0: flaky 3 nights in a row", longest first."""
    keys = sorted((k for k, n in streaks.items() if n >= at_least),
                  key=lambda k: (-streaks[k], k))
    return [f"{t}{' on ' + d if d else ''}: flaky {streaks[(t, d)]} nights "
            "in a row" for t, d in keys]


def is_nightly(run_dir):
    """Whether a run directory is one night of the nightly's history."""
    return Path(run_dir).parent.name == NIGHTLY
