"""SIGINT and SIGTERM during a sweep: stop after the current run.

The launcher child runs in its own session, so a Ctrl-C on the terminal
reaches only the sweep; the sweep forwards the first signal to the child
exactly once (the launcher then stops QEMU and removes its temporary
files) and starts no further run.
"""

import contextlib
import os
import signal
import time


class StopState:
    def __init__(self):
        self.signame = None     # first signal received, e.g. "SIGINT"
        self.signum = None
        self.at = None          # time.monotonic() when it arrived
        self.child = None       # the running launcher (subprocess.Popen)
        self.forwarded = False

    @property
    def stopping(self):
        return self.signame is not None

    def attach(self, child):
        """The child that gets the signal; forwards one that came early."""
        self.child = child
        self.forwarded = False
        if self.stopping:
            self.forward()

    def detach(self):
        self.child = None

    def forward(self):
        child = self.child
        if child is None or self.forwarded or child.poll() is not None:
            return
        self.forwarded = True
        try:
            os.kill(child.pid, self.signum)
        except ProcessLookupError:
            pass

    def _handler(self, signum, _frame):
        if self.stopping:
            return
        self.signum = signum
        self.signame = signal.Signals(signum).name
        self.at = time.monotonic()
        self.forward()


@contextlib.contextmanager
def forwarding():
    state = StopState()
    old = {s: signal.signal(s, state._handler)
           for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield state
    finally:
        for s, h in old.items():
            signal.signal(s, h)
