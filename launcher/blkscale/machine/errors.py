"""How a running guest machine fails, whichever backend runs it.

Each error carries the kind recorded in summary.json, the exit status
and the console tail for the post-mortem.
"""

import os

from ..errors import (EXIT_GUEST_FAILURE, EXIT_PANIC, EXIT_TIMEOUT,
                      BlkscaleError)


class MachineError(BlkscaleError):
    """A guest run went wrong; carries the console tail."""
    status = EXIT_GUEST_FAILURE
    kind = "qemu-failure"

    def __init__(self, message, tail=""):
        super().__init__(message)
        self.tail = tail


class LaunchError(MachineError):
    """QEMU did not start: bad argv, missing file, no QMP greeting."""
    kind = "launch-failure"


class QemuDied(MachineError):
    """QEMU exited before the guest finished its plan."""
    kind = "qemu-died"


class ChannelBroken(MachineError):
    """The results stream is incomplete or corrupt."""
    kind = "channel-broken"


class GuestTimeout(MachineError):
    status = EXIT_TIMEOUT
    kind = "timeout"


class GuestHang(MachineError):
    status = EXIT_TIMEOUT
    kind = "hang"


class GuestPanic(MachineError):
    status = EXIT_PANIC
    kind = "panic"


def file_tail(path, limit=4000):
    """The last `limit` bytes of a log file as text ("" if unreadable)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""
