"""One sitting of a night: the chosen parts that have no verdict yet,
one after another, each recorded in parts.json before it starts and
when it ends.

Each step runs in a session of its own, so a Ctrl-C on the terminal
reaches only this process: the first SIGINT or SIGTERM is handed once to
the running step's process group (a sweep then stops after its current
runs, make stops its build), the part is recorded as interrupted, and
no further step or part starts.  A part that a sitting cut off outright
(found `running` when the next one starts) counts as interrupted.
"""

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time

from blkscale.paths import REPO

from ..errors import EXIT_INTERRUPTED, BenchError
from . import parts, record, resume

# What a sweep's exit status says about the part.
VERDICT_OF_EXIT = {0: record.PASS, 1: record.REGRESSION,
                   3: record.INCONCLUSIVE}
LOCK = ".lock"
# A step that could not start, as a shell says it.
EXIT_NOT_FOUND = 127


class Stop:
    """The first SIGINT or SIGTERM, and the step it was handed to."""

    def __init__(self):
        self.signum = None
        self.child = None
        self.forwarded = set()

    def handler(self, signum, _frame):
        if self.signum is None:
            self.signum = signum
            self.forward()

    def forward(self):
        child = self.child
        if self.signum is None or child is None or \
                child.pid in self.forwarded or child.poll() is not None:
            return
        self.forwarded.add(child.pid)
        try:
            os.killpg(child.pid, self.signum)
        except ProcessLookupError:
            pass


@contextlib.contextmanager
def stopping():
    stop = Stop()
    old = {s: signal.signal(s, stop.handler)
           for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@contextlib.contextmanager
def holding(directory):
    """The night's lock: one sitting at a time."""
    os.makedirs(directory, exist_ok=True)
    fd = os.open(os.path.join(directory, LOCK), os.O_RDWR | os.O_CREAT,
                 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BenchError(directory, None, "another sitting is running "
                             "this night") from None
        yield
    finally:
        os.close(fd)


def _run_step(step, stop):
    try:
        child = subprocess.Popen(step.argv, cwd=REPO,
                                 env=dict(os.environ, **step.env),
                                 start_new_session=True)
    except OSError as e:
        print(f"night: {step.argv[0]}: {e.strerror}", file=sys.stderr)
        return EXIT_NOT_FOUND
    stop.child = child
    stop.forward()          # a signal that came while it started
    try:
        code = child.wait()
    finally:
        stop.child = None
    return code if code >= 0 else 128 - code


def _outcome(code, step, cut, stop):
    """(status, verdict) of a part whose last step exited with code."""
    stopped = stop.signum is not None
    if cut or code == EXIT_INTERRUPTED or \
            (stopped and code != 0 and
             not (step.verdict and code in VERDICT_OF_EXIT)):
        return record.INTERRUPTED, None
    if step.verdict and code in VERDICT_OF_EXIT:
        return record.DONE, VERDICT_OF_EXIT[code]
    # A build or pytest that failed, or a sweep that could not run (bad
    # input, exit 2): the part failed.
    return record.DONE, record.PASS if code == 0 else record.REGRESSION


def run_part(night, name, part_steps, run_id, stop, continuing=False):
    """Runs one part; its record is written before and after.
    continuing: its steps finish the interrupted run_id, so the part's
    wall time is its earlier sittings' and this one's."""
    part = night.part(name)
    earlier = (part["wall_s"] or 0) if continuing else 0
    part.update(status=record.RUNNING, verdict=None, exit=None,
                run_id=run_id, started=record.utc_now(), finished=None,
                wall_s=None, command=parts.command_text(part_steps))
    if continuing:
        part["sittings"] = part.get("sittings", 1) + 1
    elif run_id:
        part["runs"].append(run_id)
        part.pop("sittings", None)
    night.save()
    start = time.monotonic()
    code, cut, step = EXIT_INTERRUPTED, False, part_steps[0]
    for step in part_steps:
        if stop.signum is not None:
            cut = True
            break
        code = _run_step(step, stop)
        if code != 0:
            break
    status, verdict = _outcome(code, step, cut, stop)
    part.update(status=status, verdict=verdict,
                exit=EXIT_INTERRUPTED if cut else code,
                finished=record.utc_now(),
                wall_s=round(earlier + time.monotonic() - start, 1))
    night.save()
    return status


def run_id_for(night, name, results):
    """<night>-<part>, and -2, -3, ... for the attempts after the
    first: every attempt makes a run of its own."""
    if not parts.makes_run(name):
        return None
    attempt = len(night.part(name)["runs"]) + 1
    while True:
        run_id = f"{night.night}-{name}" + (f"-{attempt}" if attempt > 1
                                           else "")
        if not os.path.exists(os.path.join(results, run_id)):
            return run_id
        attempt += 1


def sit(night, chosen, options, results, stop, say=print):
    """Runs the chosen parts still to run; returns the part a signal
    interrupted, or None."""
    for part in night.parts:
        if part["status"] == record.RUNNING:
            part["status"] = record.INTERRUPTED
    night.save()
    directory = os.path.dirname(night.path)
    for name in chosen:
        part = night.part(name)
        if part["status"] == record.DONE:
            say(f"night {night.night}: {name}: {part['verdict']} in an "
                "earlier sitting, kept")
            continue
        if stop.signum is not None:
            return name
        run_id, why = resume.why_not(night, name, options, results)
        continuing = run_id is not None
        if why:
            say(f"night {night.night}: {name}: cannot continue {why}; "
                "starting it again")
        if not continuing:
            run_id = run_id_for(night, name, results)
        part_steps = parts.steps(name, options, run_id, directory,
                                 continuing)
        say(f"night {night.night}: {name}"
            + (f" ({'continuing ' if continuing else ''}run {run_id})"
               if run_id else "") + ": " + parts.command_text(part_steps))
        if run_part(night, name, part_steps, run_id, stop, continuing) == \
                record.INTERRUPTED:
            return name
    return None
