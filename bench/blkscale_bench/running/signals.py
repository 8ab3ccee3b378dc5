"""SIGINT and SIGTERM during a sweep: stop after the current run.

The launcher children run in their own sessions, so a Ctrl-C on the
terminal reaches only the sweep; the sweep forwards the first signal to
every running child (one per slot of each host in a sweep over hosts)
exactly once (the launcher then stops QEMU and removes its temporary
files) and starts no further run.
"""

import contextlib
import os
import signal
import threading
import time


class StopState:
    def __init__(self):
        self.signame = None     # first signal received, e.g. "SIGINT"
        self.signum = None
        self.at = None          # time.monotonic() when it arrived
        # The running launchers (subprocess.Popen): one, or one per slot
        # of every host of a sweep over several hosts.
        self.children = []
        self.forwarded = set()  # pids that got the signal
        self._lock = threading.RLock()

    @property
    def stopping(self):
        return self.signame is not None

    @property
    def child(self):
        return self.children[0] if self.children else None

    def attach(self, child):
        """A child that gets the signal; forwards one that came early."""
        with self._lock:
            self.children.append(child)
        if self.stopping:
            self.forward()

    def detach(self, child=None):
        with self._lock:
            if child is None:
                self.children.clear()
            elif child in self.children:
                self.children.remove(child)

    def forward(self):
        """The signal, once, to every running child."""
        with self._lock:
            children = list(self.children)
        for child in children:
            if child.pid in self.forwarded or child.poll() is not None:
                continue
            self.forwarded.add(child.pid)
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
