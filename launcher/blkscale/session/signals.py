"""SIGINT and SIGTERM become an Interrupted exception, raised once.

The exception unwinds through the `finally` blocks that stop QEMU and
remove temporary files; a second signal during that cleanup is ignored
so that the cleanup itself is not cut short.
"""

import contextlib
import signal

from ..errors import Interrupted


@contextlib.contextmanager
def interruptible():
    state = {"raised": False}

    def handler(signum, _frame):
        if state["raised"]:
            return
        state["raised"] = True
        raise Interrupted(signal.Signals(signum).name)

    old = {s: signal.signal(s, handler)
           for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)
